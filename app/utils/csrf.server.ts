/**
 * Cross-site request refusal for the admin pages and sign-in (ARCHITECTURE.md Security: mutating
 * requests check Origin). Browsers send Origin with every POST; one that names another site, or a
 * POST with neither Origin nor a same-site Referer, is refused. SameSite=Lax cookies are the second
 * line.
 */

/**
 * @throws Response 403 when `request` is not a safe method and does not come from this site's origin.
 */
export function assertSameOrigin(request: Request): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const own = new URL(request.url).origin;
  const origin = request.headers.get('Origin');
  const referer = request.headers.get('Referer');
  const from = origin && origin !== 'null' ? origin : referer ? originOf(referer) : null;
  if (from !== own) {
    throw new Response('다른 사이트에서 보낸 요청은 처리하지 않습니다.', {
      status: 403,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
