/**
 * Remix behind express, as @remix-run/express does it but for a body read whole and within its
 * route's cap (app/server/request-bodies.server.ts): an action reads its form at once and never
 * more than the cap. Remix's answer is sent with its document's CSP (ADR 023). And the loader of
 * the Remix build.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeReadableStreamToWritable, type AppLoadContext, type ServerBuild } from '@remix-run/node';
import type express from 'express';
import { PACKAGE_ROOT } from '../../lib/package-root';
import { SCRIPT_HASHES_HEADER } from '~/server/csp.server';
import { hostOf } from '~/server/express-request.server';
import type { RequestBodies } from '~/server/request-bodies.server';
import { answeredAs } from '~/server/request-metrics.server';
import type { SecurityHeaders } from '~/server/security-headers.server';

/**
 * The loader of the Remix build (build/index.js), to call while the api opens (ADR 025).
 * @throws at once when the build is missing.
 */
export function remixBuildLoader(): () => Promise<ServerBuild> {
  const buildPath = join(PACKAGE_ROOT, 'build', 'index.js');
  if (!existsSync(buildPath))
    throw new Error('build/index.js is missing: run `npm run build` first (`npm start` does).');
  // eslint-disable-next-line no-restricted-syntax -- the build's own output, found at run time: no fence is about it
  return () => import(pathToFileURL(buildPath).href) as Promise<ServerBuild>;
}

/** Remix's request handler (createRequestHandler of the build). */
export type HandleRemix = (request: Request, loadContext: AppLoadContext) => Promise<Response>;

/**
 * The express handler that hands every request to Remix, its body read first (bodies.read).
 * @param loadContextOf what Remix's loaders and actions get besides the request, for the phone's
 *   address when known (express req.ip).
 */
export function remixHandler({
  handleRemix,
  routePattern,
  loadContextOf,
  bodies,
  security,
}: {
  handleRemix: HandleRemix;
  /** The Remix route pattern of a path (request-metrics.server.ts remixRoutePatterns), the request's label. */
  routePattern(pathname: string): string;
  loadContextOf(clientIp: string | undefined, reqId?: string): AppLoadContext;
  bodies: RequestBodies;
  security: SecurityHeaders;
}): express.RequestHandler {
  return async (req, res, next) => {
    answeredAs(res, routePattern(req.path));
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : await bodies.read(req, res);
    if (body === undefined) return;
    let request: Request;
    try {
      request = remixRequestOf(req, res, body);
    } catch {
      return bodies.unreadable(res);
    }
    try {
      const reqId = req.get('x-request-id');
      await sendRemixResponse(req, res, await handleRemix(request, loadContextOf(req.ip, reqId)), security);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The Fetch request Remix gets for `req`, with its `body` already read: the URL as the browser
 * used it (hostOf), every header, and a signal that aborts when the client goes away before the
 * answer is sent.
 * @throws TypeError when the Host (or X-Forwarded-Host) makes no URL.
 */
function remixRequestOf(req: express.Request, res: express.Response, body: Uint8Array<ArrayBuffer> | null): Request {
  const url = new URL(`${req.protocol}://${hostOf(req)}${req.originalUrl}`);
  const controller = new AbortController();
  res.on('close', () => res.writableFinished || controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return new Request(url, { method: req.method, headers, body, signal: controller.signal });
}

/**
 * Sends Remix's `response` to `res`. A document's CSP allows its own inline scripts by the hashes
 * its render gave (SCRIPT_HASHES_HEADER, which is not sent; ADR 023).
 */
async function sendRemixResponse(
  req: express.Request,
  res: express.Response,
  response: Response,
  security: SecurityHeaders,
) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === SCRIPT_HASHES_HEADER) continue;
    // Set-Cookie adds up, a cookie each; any other header of the route's replaces the middleware's
    // (the status page's Referrer-Policy over helmet's), so that it is sent once.
    if (name === 'set-cookie') res.append(name, value);
    else res.setHeader(name, value);
  }
  const hashes = response.headers.get(SCRIPT_HASHES_HEADER);
  if (hashes !== null) security.allowDocumentScripts(req, res, hashes);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
