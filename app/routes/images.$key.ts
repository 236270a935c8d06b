/**
 * GET /images/:key: an ad image from the api's object store, on the web's own origin (ADR 005:
 * the one api read the web exposes besides the KakaoTalk skill). Passed through as the api sends
 * it: its content type, length, a year's immutable cache and a sandboxing CSP. Unknown → 404.
 * `X-Content-Type-Options: nosniff` comes with every response of the edge (helmet).
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { IMAGE_KEY_PATTERN } from '../../contract/ads';
import { getImage } from '~/models/ads.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

const PASSED_HEADERS = ['Content-Type', 'Content-Length', 'Cache-Control', 'Content-Security-Policy'];

export async function loader({ params, context }: LoaderFunctionArgs) {
  const key = params.key ?? '';
  if (!IMAGE_KEY_PATTERN.test(key)) return notFound();
  let upstream: Response;
  try {
    upstream = await getImage(context, key);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[images] api unreachable:', error.message);
    return new Response(null, { status: 502 });
  }
  if (!upstream.ok) {
    await upstream.body?.cancel();
    return upstream.status === 404 ? notFound() : new Response(null, { status: 502 });
  }
  const headers = new Headers();
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(upstream.body, { status: 200, headers });
}

function notFound(): Response {
  return new Response(null, { status: 404, headers: { 'Cache-Control': 'no-store' } });
}
