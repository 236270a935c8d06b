/**
 * The web's share of http_request_duration_seconds (lib/observability/metrics.ts): every request
 * the edge takes is timed from its arrival to its answer's end, and labelled with the route that
 * answered it, as a pattern (`/ads/status/:token`), never the raw URL: a token or an id in the
 * path never becomes a label (docs/deploy.md §Metrics).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchRoutes, type AgnosticRouteObject } from '@remix-run/router';
import type { ServerBuild } from '@remix-run/node';
import { httpRequestDuration } from '../../lib/observability/metrics';

/** The label of a request no route answered (a 404 of express, a refusal at the door). */
export const UNMATCHED = '(unmatched)';

const routes = new WeakMap<ServerResponse, string>();

/** Labels the request answered on `res` with `route` (a pattern); the last label given counts. */
export function answeredAs(res: ServerResponse, route: string): void {
  routes.set(res, route);
}

/** Times the request from now to its answer's end (or the client's leaving), then records it. */
export function timeRequest(req: IncomingMessage, res: ServerResponse): void {
  const stop = httpRequestDuration.startTimer();
  res.once('close', () =>
    stop({ method: req.method ?? 'GET', route: routes.get(res) ?? UNMATCHED, status_code: res.statusCode }),
  );
}

/**
 * The Remix route pattern of a path, from the build's route tree: `/ads/status/:token` for
 * `/ads/status/abc`, the splat route's `/*` for a page that does not exist, without a trailing
 * `/index`. Remix's own matcher (@remix-run/router matchRoutes), so the pattern is the route that
 * Remix rendered.
 */
export function remixRoutePatterns(build: Pick<ServerBuild, 'routes'>): (pathname: string) => string {
  const tree = (parentId: string | undefined): AgnosticRouteObject[] =>
    Object.values(build.routes)
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, index: true, path: route.path }
          : { id: route.id, path: route.path, children: tree(route.id) },
      );
  const roots = tree(undefined);
  return (pathname) => {
    const matches = matchRoutes(roots, pathname);
    if (!matches) return UNMATCHED;
    const pattern = matches
      .map((match) => match.route.path ?? '')
      .filter(Boolean)
      .join('/')
      .replace(/\/+/g, '/');
    return `/${pattern}`.replace(/^\/+/, '/');
  };
}
