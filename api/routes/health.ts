/** GET /api/healthz: liveness plus the bus feed's state, for load balancers and the web's /healthz. */
import { Hono } from 'hono';
import type { HealthResponse } from '../../contract/bus';
import { timeLeftView } from '../bus/time-left';
import type { ApiDeps } from '../context';

export function healthRoutes({ feed, clock }: ApiDeps) {
  return new Hono().get('/healthz', (c) => {
    const state = feed.current();
    const body: HealthResponse = {
      status: state.lastError ? 'degraded' : 'ok',
      feed: { ...timeLeftView(state, clock.now()).feed, lastError: state.lastError },
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });
}
