/**
 * POST /ads/impressions: the banner's same-origin beacon (docs/product.md §4.3 Ad banner; as Revive Adserver counts:
 * impressions by beacon). Body `id=<ad id>`; the browser sends it once per ad per day when the ad
 * is first shown (app/components/ad-banner.tsx). Only a post that shows it is same-origin is
 * taken (app/utils/csrf.server.ts: `Origin` naming this host, or `Sec-Fetch-Site: same-origin`;
 * browsers send one or both with a beacon); any other is refused 403. The api
 * counts it once per phone (address and User-Agent, passed on) per KST day, within its address's
 * limit (ADR 018). Always answers without a body: a beacon reads nothing back.
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { recordAdImpression } from '~/models/ads.server';
import { assertSameOrigin } from '~/utils/csrf.server';
import { readForm, type FormSpec } from '~/utils/form-data.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

/** The beacon's one field: the ad's id. */
const FIELDS: FormSpec = { schema: null, also: ['id'] };

export async function action({ request, context }: ActionFunctionArgs) {
  // The site's one rule for writes (the edge applies it before Remix too).
  assertSameOrigin(request);
  // Digits only, as the click route: Number() would also read '1e3', '0x3' or ' 3' as some id.
  const raw = (await readForm(request, FIELDS))?.get('id');
  const id = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) {
    return new Response(null, { status: 400 });
  }
  try {
    const served = await recordAdImpression(context, id, request.headers.get('User-Agent'));
    return new Response(null, { status: served ? 204 : 404 });
  } catch (error) {
    rethrowUnlessUpstream(error);
    // Over the address's limit: not counted, and no log line per refused beacon.
    if (error.status === 429) return new Response(null, { status: 429 });
    consoleFor(context.reqId).error('[ads/impressions] api failed:', error.message);
    return new Response(null, { status: 502 });
  }
}
