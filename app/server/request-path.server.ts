/**
 * Reading a raw Node request's target, for the fast paths, served ahead of express (which has no
 * `req.path` for them): its path, and whether its Host names a host and nothing more.
 */
import type { IncomingMessage } from 'node:http';

/**
 * The path of `req`'s URL, without its query, as Remix will route it: dot segments (`..`, `%2e`)
 * and backslashes resolved the WHATWG URL way, so that the body cap chosen by it is the cap of the
 * route that reads the body (`/admin-only/ads/edit/..` is `/admin-only/ads/`, not an image form). A
 * path with none of `.`, `%` or `\` is as it came (the refresh's and the home's, every second).
 */
export function pathOf({ url = '/' }: IncomingMessage): string {
  const path = url.split('?', 1)[0];
  if (!/[.%\\]/.test(path)) return path;
  try {
    return new URL(`http://path.internal${path.startsWith('/') ? '' : '/'}${path}`).pathname;
  } catch {
    return path;
  }
}

/**
 * Whether `req` is for `path`, with or without a trailing slash (Remix serves its pages either way)
 * and with any query.
 */
export function isAt(req: IncomingMessage, path: string): boolean {
  const requested = pathOf(req);
  return requested === path || requested === `${path}/`;
}

/** `host[:port]`: a DNS name or IPv4 address, or an IPv6 address in brackets, and an optional port (RFC 9110 §7.2). */
const HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Whether `req`'s Host, and the first entry of its X-Forwarded-Host when it has one (the one a
 * proxy chain's first proxy wrote, and the one express reads), are each `host[:port]` and nothing
 * more (a port at most 65535; `_` allowed, as in container service names). The request URL Remix
 * routes is made from them: a Host carrying a path or a query (`127.0.0.1/contact?`) would route a
 * request elsewhere than its own path, whose body cap the edge chose.
 */
export function hasPlainHost({ headers }: IncomingMessage): boolean {
  const forwarded = headers['x-forwarded-host'];
  const first = typeof forwarded === 'string' ? forwarded.split(',', 1)[0].trim() : forwarded;
  return [headers.host, first].every(
    (host) =>
      host === undefined ||
      (typeof host === 'string' && HOST.test(host) && Number(/:(\d+)$/.exec(host)?.[1] ?? 0) <= 65535),
  );
}
