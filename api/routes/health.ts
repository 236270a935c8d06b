/**
 * Probes for load balancers and supervisors (docs/deploy.md), and the web's /healthz and /readyz:
 * - GET /api/healthz, liveness: the process answers. Always 200, from memory (never the database),
 *   so a supervisor does not restart an instance for an outage elsewhere.
 * - GET /api/readyz, readiness: the database answers within READY_PROBE_MS. 503 when it does not:
 *   the instance can serve neither the forms nor the feed's next state.
 * Both report the feed: degraded while its data is stale or its polls fail (the data is still
 * served, marked stale; every instance shares the one feed, so that is no reason to drop one).
 */
import { Hono } from 'hono';
import type { HealthResponse } from '../../contract/bus';
import { timeLeftView } from '../bus/time-left';
import type { ApiDeps } from '../context';
import { databaseAnswers } from '../db/client';

/** How long the readiness probe waits for the database, in ms. */
export const READY_PROBE_MS = 2_000;

export function healthRoutes({ feed, clock, db }: ApiDeps) {
  const report = (): HealthResponse => {
    const state = feed.current();
    const status = timeLeftView(state, clock.now()).feed;
    return {
      status: state.lastError || status.stale ? 'degraded' : 'ok',
      feed: { ...status, lastError: state.lastError },
    };
  };
  return new Hono()
    .get('/healthz', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(report());
    })
    .get('/readyz', async (c) => {
      c.header('Cache-Control', 'no-store');
      const reachable = await databaseAnswers(db, READY_PROBE_MS);
      const body = report();
      if (reachable) return c.json({ ...body, database: 'ok' } satisfies HealthResponse);
      return c.json({ ...body, status: 'unavailable', database: 'unreachable' } satisfies HealthResponse, 503);
    });
}
