import { DEVELOPMENT_KEY_CADENCE } from './bus/predictions/backtest';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool } from './worker-pool';
import { inThreadJobs, predictionJobs } from './bus/predictions/jobs';
import { DEFAULT_TRANSIT_IDS } from './bus/feed/transit-config';
import { parseInThread, workerParser } from './bus/feed/gbis/discover';
import { FeedError } from './bus/feed/snapshot';

const pool = createWorkerPool();
const jobs = predictionJobs(pool);
afterAll(() => pool.close());

const SEED = 7;
const today = '2026-11-23';
/**
 * The backtest below takes 3–5 s alone on this machine and five times that beside the rest of the
 * suite; a job queued behind it waits as long.
 */
const BUSY_TIMEOUT_MS = 60_000;

describe('the worker thread', () => {
  it('runs a job to the same result as the serving thread would, the terminus model learnt', async () => {
    const history = await inThreadJobs.demoHistory({ seed: SEED, today, days: 28 });
    const input = {
      history,
      serviceDate: today,
      routes: DEFAULT_TRANSIT_IDS.routes,
      nowMs: Date.parse('2026-11-23T03:00:00Z'),
    };
    const [there, here] = await Promise.all([jobs.planDay(input), inThreadJobs.planDay(input)]);
    expect(there.routes.some((route) => route.terminus !== null)).toBe(true);
    expect(there).toEqual(here);
  });

  it(
    'leaves the serving thread free while a backtest runs: no turn of its event loop waits 250 ms',
    { timeout: BUSY_TIMEOUT_MS },
    async () => {
      const history = await jobs.demoHistory({ seed: SEED, today, days: 28 });
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      // The monitor's first tick only sets its baseline: a block before it would go unseen.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      const report = await jobs.backtest({
        history,
        days: 2,
        before: today,
        routes: DEFAULT_TRANSIT_IDS.routes,
        cadence: DEVELOPMENT_KEY_CADENCE,
      });
      // A turn of the loop after, in which the monitor's timer records a block that has just ended.
      await new Promise((resolve) => setTimeout(resolve, 20));
      delay.disable();
      expect(report.days).toHaveLength(2);
      // A 2-day backtest of the demo history is over a second of CPU: on this thread, the loop would wait that long.
      expect(performance.now() - started).toBeGreaterThan(250);
      expect(delay.max / 1e6).toBeLessThan(250);
    },
  );

  it("rejects with the job's own error", { timeout: BUSY_TIMEOUT_MS }, async () => {
    const input = { history: null as never, serviceDate: today, routes: DEFAULT_TRANSIT_IDS.routes, nowMs: 0 };
    await expect(jobs.planDay(input)).rejects.toThrow(/null/);
  });

  it("parses GBIS discovery's answers there as here, a FeedError crossing back as one, with its kind", async () => {
    const stops = Array.from(
      { length: 150 },
      (_, i) =>
        `<busRouteStationList><stationId>2080${String(i).padStart(5, '0')}</stationId><stationName>정류장 ${i}</stationName>` +
        `<stationSeq>${i + 1}</stationSeq><turnYn>N</turnYn></busRouteStationList>`,
    ).join('');
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><response><msgHeader><resultCode>0</resultCode>' +
      `<resultMessage>정상</resultMessage></msgHeader><msgBody>${stops}</msgBody></response>`;
    const parse = workerParser(pool);
    const there = await parse('routeStations', xml, 200);
    expect(there).toHaveLength(150);
    expect(there).toEqual(await parseInThread('routeStations', xml, 200));
    const failed = parse('routeStations', '<response><broken', 200);
    await expect(failed).rejects.toBeInstanceOf(FeedError);
    await expect(failed).rejects.toMatchObject({ kind: 'body' });
  });

  it('refuses jobs once closed', async () => {
    const closed = createWorkerPool();
    await closed.close();
    await expect(predictionJobs(closed).demoHistory({ seed: SEED, today, days: 1 })).rejects.toThrow();
  });
});
