/**
 * Cross-site request refusal (ARCHITECTURE.md Security: mutating requests check Origin). Browsers
 * send Origin with every POST; one that names another site, or (for the admin pages) a POST with
 * neither Origin nor a same-site Referer, is refused with 403. SameSite=Lax cookies are the second
 * line. server.ts applies the Origin rule to every write before Remix (whose own check of document
 * POSTs throws, a 500); the admin pages and sign-in apply the whole rule again in their actions.
 */

/** The refusal's text (Korean, like every page). */
export const CROSS_SITE_MESSAGE = '다른 사이트에서 보낸 요청은 처리하지 않습니다.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a write names another site in its Origin: the Origin's host against X-Forwarded-Host (its
 * first entry) or Host, the rule Remix applies to document POSTs. A request without Origin is not
 * judged here.
 */
export function isCrossSiteWrite(method: string, header: (name: string) => string | null | undefined): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const origin = header('origin');
  if (!origin) return false;
  const host = header('x-forwarded-host')?.split(',')[0].trim() || header('host');
  return originOf(origin) === null || new URL(origin).host !== host;
}

/**
 * @throws Response 403 when `request` is not a safe method and does not come from this site's origin
 *   (by Origin, or by Referer when a browser sent no Origin).
 */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  // Hosts, not origins: behind a TLS proxy the request's own URL may say http while the browser says https.
  const own = new URL(request.url).host;
  const origin = request.headers.get('Origin');
  const referer = request.headers.get('Referer');
  const from = origin && origin !== 'null' ? originOf(origin) : referer ? originOf(referer) : null;
  if (from === null || new URL(from).host !== own) {
    throw new Response(CROSS_SITE_MESSAGE, { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
}

function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
