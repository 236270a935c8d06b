/**
 * Reading a raw Node request's target, for server.ts's answers served ahead of express (which has no
 * `req.path` for them): its path, and whether its Host names a host and nothing more.
 */
import type { IncomingMessage } from 'node:http';

/** The path of `req`'s URL, without its query. */
export const pathOf = ({ url = '/' }: IncomingMessage): string => url.split('?', 1)[0];

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
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Whether `req`'s Host, and its X-Forwarded-Host when it has one, are each `host[:port]` and nothing
 * more (a port at most 65535). The request URL Remix routes is made from them: a Host carrying a
 * path or a query (`127.0.0.1/contact?`) would route a request elsewhere than its own path, whose
 * body cap server.ts chose.
 */
export function hasPlainHost({ headers }: IncomingMessage): boolean {
  return [headers.host, headers['x-forwarded-host']].every(
    (host) =>
      host === undefined ||
      (typeof host === 'string' && HOST.test(host) && Number(/:(\d+)$/.exec(host)?.[1] ?? 0) <= 65535),
  );
}
