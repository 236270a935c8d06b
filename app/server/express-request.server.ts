/**
 * A request read as express reads it, TRUST_PROXY-aware: this site's host as the browser used it,
 * and a raw Node request seen through express's request prototype (for the fast paths, which skip
 * express, and the body budget, which keys on the client's address).
 */
import type { IncomingMessage } from 'node:http';
import type express from 'express';

/**
 * `req` read as express reads it (express's request prototype, as app(req, res) would give it):
 * its `ip`, `hostname` and `protocol` follow TRUST_PROXY.
 */
export const asExpressRequest = (app: express.Express, req: IncomingMessage) =>
  Object.setPrototypeOf(req, app.request) as express.Request;

/**
 * This site's host as the browser used it (`host[:port]`): express's hostname, which follows
 * X-Forwarded-Host only behind TRUST_PROXY proxies, with the port of X-Forwarded-Host's first entry
 * or Host (as @remix-run/express reads it). The same host makes Remix's request URL
 * (app/server/remix-adapter.server.ts), so the origin check at the edge and the one in the actions
 * (assertSameOrigin) agree.
 */
export function hostOf(req: express.Request): string {
  const host = (req.get('x-forwarded-host') ?? req.get('host') ?? '').split(',', 1)[0].trim();
  const port = /:(\d+)$/.exec(host)?.[1];
  return `${req.hostname}${port ? `:${port}` : ''}`;
}
