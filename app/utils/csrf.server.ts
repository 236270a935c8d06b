/**
 * Cross-site request refusal (docs/deploy.md §Request bodies and origins): a write (any method but
 * GET, HEAD and OPTIONS) is taken only from this site's own pages, known by the headers every
 * current browser sends with one: `Origin` naming this host, or `Sec-Fetch-Site: same-origin`.
 * A write that names another site, or that carries neither header (a script's, or a form posted
 * from a page that hides its origin), is refused with 403. The edge applies the rule to every
 * request before Remix (app/server/origin-check.server.ts); the admin pages and sign-in apply it again in their actions (the admin
 * session's SameSite=Lax cookie is a further line).
 *
 * The one exception is the KakaoTalk skill (ADR 011): Kakao's servers call it without either
 * header and prove themselves with the shared secret instead. A browser's cross-site write to it
 * is still refused.
 */

/** The refusal's text (Korean, like every page). */
export const CROSS_SITE_MESSAGE = '다른 사이트에서 보낸 요청은 처리하지 않습니다.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Paths written to by other servers, which send no browser headers (ADR 011). */
const SERVER_TO_SERVER_PATHS = new Set(['/api/kakao/skill']);

/**
 * Whether a request may go on: a safe method, or a write from this site. `ownHost` gives this
 * site's host as the browser sees it (`host[:port]`), compared with Origin's host so that a TLS
 * proxy's http-to-https does not matter; it is asked for writes only (every page view passes here).
 */
export function isAllowedWrite(
  method: string,
  pathname: string,
  header: (name: string) => string | null | undefined,
  ownHost: () => string | undefined,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const origin = header('origin');
  const site = header('sec-fetch-site');
  if (origin && hostOf(origin) !== ownHost()) return false;
  if (site && site !== 'same-origin') return false;
  return Boolean(origin || site) || SERVER_TO_SERVER_PATHS.has(pathname);
}

/**
 * @throws Response 403 (CROSS_SITE_MESSAGE) when `request` is a write that isAllowedWrite refuses
 *   (its own URL's host is this site's: Remix builds it from X-Forwarded-Host or Host).
 */
export function assertSameOrigin(request: Request): void {
  const { host, pathname } = new URL(request.url);
  if (
    !isAllowedWrite(
      request.method,
      pathname,
      (name) => request.headers.get(name),
      () => host,
    )
  ) {
    throw new Response(CROSS_SITE_MESSAGE, { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
}

/** The host (`host[:port]`) of an origin, or null for `null` or anything that is not a URL. */
function hostOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url.host;
  } catch {
    return null;
  }
}
