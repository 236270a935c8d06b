/**
 * The path of a raw Node request, for server.ts's answers served ahead of express (which has no
 * `req.path` for them).
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
