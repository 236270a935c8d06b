/**
 * POST /ads/impressions: the banner's same-origin beacon (spec §4 Ad banner; anchors.md, Revive:
 * impressions by beacon). Body `id=<ad id>`; the browser sends it once per ad per day when the ad
 * is first shown (app/components/ad-banner.tsx). Cross-site posts are refused. Always answers
 * without a body: a beacon reads nothing back.
 */
import type { ActionFunctionArgs } from '@remix-run/node';
import { recordAdImpression } from '~/models/ads.server';
import { UpstreamError } from '~/utils/upstream.server';

export async function action({ request, context }: ActionFunctionArgs) {
  const origin = request.headers.get('Origin');
  const site = request.headers.get('Sec-Fetch-Site');
  if ((site && site !== 'same-origin') || (origin && origin !== new URL(request.url).origin)) {
    return new Response(null, { status: 403 });
  }
  // Digits only, as the click route: Number() would also read '1e3', '0x3' or ' 3' as some id.
  const raw = (await request.formData().catch(() => null))?.get('id');
  const id = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) {
    return new Response(null, { status: 400 });
  }
  try {
    const counted = await recordAdImpression(context, id);
    return new Response(null, { status: counted ? 204 : 404 });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[ads/impressions] api failed:', error.message);
    return new Response(null, { status: 502 });
  }
}
