/**
 * Probes for load balancers and supervisors (docs/deploy.md), and the web's /healthz and /readyz:
 * - GET /api/healthz, liveness: the process answers. Always 200, from memory (never the database),
 *   so a supervisor does not restart an instance for an outage elsewhere.
 * - GET /api/readyz, readiness: the database takes a write within READY_PROBE_MS, and DATA_DIR's
 *   disk (when the api keeps data there) has READY_MIN_FREE_BYTES free. 503 naming the failure's
 *   kind ('disk' or 'database') otherwise: the instance can serve neither the forms nor the feed's
 *   next state.
 * Both report the feed: degraded while its data is stale or its polls fail (the data is still
 * served, marked stale; every instance shares the one feed, so that is no reason to drop one).
 * While the database opens, both say `starting` (startingHealthRoutes).
 */
import { Hono } from 'hono';
import type { FeedSourceName, HealthResponse } from '../../contract/bus';
import { emptyFeedState } from '../bus/feed/store';
import { timeLeftView } from '../bus/time-left-view';
import type { Clock } from '../clock';
import type { ApiContext } from '../context';
import { failureLog } from '../../lib/failure-log';
import { databaseTakesWrite, diskState } from '../readiness';

/** How long the readiness probe waits for the database and for the disk's free space, in ms. */
export const READY_PROBE_MS = 2_000;

export function healthRoutes({ feed, clock, db, logger, dataDirFreeBytes }: ApiContext) {
  const report = (): HealthResponse => {
    const state = feed.current();
    const status = timeLeftView(state, clock.now()).feed;
    return {
      status: state.lastError || status.stale ? 'degraded' : 'ok',
      feed: { ...status, lastError: state.lastError },
    };
  };
  // Probes come every few seconds: a run of failures is logged once, with its details, and its end.
  const unready = failureLog(logger, {
    failing: '[readyz] not ready:',
    recovered: '[readyz] ready again.',
  });
  return new Hono()
    .get('/healthz', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(report());
    })
    .get('/readyz', async (c) => {
      c.header('Cache-Control', 'no-store');
      const { written, disk, detail, failure } = await readiness({ db, clock, dataDirFreeBytes });
      const body: HealthResponse = { ...report(), database: written ? 'ok' : 'unreachable', disk };
      if (!failure) {
        unready.ok();
        return c.json(body);
      }
      unready.fail(detail ?? `the database did not take the probe's write in ${READY_PROBE_MS} ms`);
      return c.json({ ...body, status: 'unavailable', failure } satisfies HealthResponse, 503);
    });
}

/**
 * The readiness check of GET /api/readyz (and of the campus_bus_ready metric): the database takes a
 * write and DATA_DIR's disk has room, each within READY_PROBE_MS. Never throws.
 * @returns whether the database took the write, the disk's state (undefined when not watched), a
 *   line for the log, and what failed first (the disk before the database), or undefined when ready.
 */
export async function readiness({
  db,
  clock,
  dataDirFreeBytes,
}: Pick<ApiContext, 'db' | 'clock' | 'dataDirFreeBytes'>): Promise<{
  written: boolean;
  disk?: 'ok' | 'low' | 'unreadable';
  detail?: string;
  failure?: 'disk' | 'database';
}> {
  const [written, { disk, detail }] = await Promise.all([
    databaseTakesWrite(db, clock.now(), READY_PROBE_MS),
    dataDirFreeBytes ? diskState(dataDirFreeBytes, READY_PROBE_MS) : { disk: undefined, detail: undefined },
  ]);
  const failure = disk && disk !== 'ok' ? 'disk' : written ? undefined : 'database';
  return { written, disk, detail, failure };
}

/**
 * The probes while the api's database opens, before healthRoutes can answer (api/runtime.ts
 * openApiRuntime; ADR 025): /healthz 200 (the process answers), /readyz 503 (it cannot serve yet),
 * both `status: 'starting'` with the feed of `source` as before its first poll (its stored state is
 * not read yet).
 */
export function startingHealthRoutes({ source, clock }: { source: FeedSourceName; clock: Clock }) {
  const report = (): HealthResponse => {
    const state = emptyFeedState(source);
    return { status: 'starting', feed: { ...timeLeftView(state, clock.now()).feed, lastError: state.lastError } };
  };
  return new Hono()
    .get('/healthz', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(report());
    })
    .get('/readyz', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(report(), 503);
    });
}
