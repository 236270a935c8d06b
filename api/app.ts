/**
 * The Campus Bus API (spec §7), in Hono: one sub-app per resource, errors shaped once in onError.
 * Mounted in-process by server.ts, or served alone by api/main.ts.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Clock } from './clock';
import type { BusFeed } from './bus/feed-service';
import type { Logger } from './logger';
import { busRoutes } from './routes/bus';
import { healthRoutes } from './routes/health';

export type ApiDeps = { feed: BusFeed; clock: Clock; logger: Logger };

export function createApi(deps: ApiDeps) {
  const app = new Hono();
  app.route('/api/bus', busRoutes(deps));
  app.route('/api', healthRoutes(deps));
  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ message: error.message }, error.status);
    deps.logger.error(`[api] ${c.req.method} ${c.req.path}`, error);
    return c.json({ message: 'Internal server error' }, 500);
  });
  return app;
}

export type Api = ReturnType<typeof createApi>;
