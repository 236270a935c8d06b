/**
 * GET /ads/click/:id: a banner click (docs/product.md §4.3 Ad banner). Counts the click in the api, then
 * redirects to the ad's stored http(s) link. The target never comes from the request: a missing,
 * expired or link-less ad, or a link that is not http(s), answers 404, so this is no open redirect.
 * Counting is best-effort and the redirect is not: the api counts a click once per phone (address
 * and User-Agent, passed on) per KST day and within its address's limit, and answers the link
 * either way (ADR 018).
 */
import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { recordAdClick } from '~/models/ads.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { isHttpUrl } from '../../contract/links';
import { consoleFor } from '../../lib/observability/request-tag';

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = Number(params.id);
  if (!/^\d+$/.test(params.id ?? '') || !Number.isSafeInteger(id)) return status(404);
  let link: string | null;
  try {
    link = await recordAdClick(context, id, request.headers.get('User-Agent'));
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[ads/click] api failed:', error.message);
    return status(502);
  }
  if (!link || !isHttpUrl(link)) return status(404);
  return redirect(link, { status: 302, headers: { 'Cache-Control': 'no-store' } });
}

function status(code: 404 | 502): Response {
  const text = code === 404 ? '광고를 찾을 수 없습니다.' : '광고로 이동하지 못했습니다. 잠시 후 다시 시도해주세요.';
  return new Response(text, {
    status: code,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
