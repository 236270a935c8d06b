/**
 * Part of `npm run bench`: GBIS calls in one simulated hour (08:00–09:00 KST) for a number of
 * phones that each refresh every 4 s, and how many times the web's refresh route asked the api.
 * The api runtime runs on a test clock against the counting GBIS stub (tests/mocks/gbis-stub.ts,
 * over loopback HTTP). The phones are spread over the 4 s: every simulated second a quarter of them
 * asks the route (app/server/time-left-cache.server.ts, in-process, the socket write left out),
 * and the poller's timers fire as the clock reaches them.
 */
import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseApiEnv } from '../api/env';
import { createApiRuntime } from '../api/runtime';
import { createTimeLeftAnswers } from '../app/server/time-left-cache.server';
import { gbisStubEnv, startGbisStub } from '../tests/mocks/gbis-stub';
import { FakeClock } from '../tests/setup/fakes';
import { measureDataDir } from './serve-for-measure';

const HOUR_START = '2026-11-23T08:00:00+09:00';
const REFRESH_SEC = 4;
const STEP_SEC = 1;
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Waits (real time) until the poller has scheduled its next poll: its one timer on `clock`. */
export async function pollSettled(clock: FakeClock): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (clock.pending() === 0) {
    if (performance.now() > deadline) throw new Error('the poll did not settle within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * @returns per phone count, the GBIS calls (all datasets) the stub received during the hour, and
 *   the route's reads of the api (at most one per second whatever the count).
 */
export async function gbisCallsPerHour(
  phoneCounts: number[],
): Promise<{ phones: number; calls: number; apiReads: number }[]> {
  const results = [];
  for (const phones of phoneCounts) {
    const clock = new FakeClock(new Date(HOUR_START));
    const stub = await startGbisStub({ clock: () => clock.now() });
    const dataDir = measureDataDir();
    const runtime = await createApiRuntime(
      parseApiEnv({ ...gbisStubEnv(stub), DATA_DIR: dataDir, API_SERVICE_TOKEN: 'b'.repeat(40) }),
      SILENT,
      clock,
    );
    let apiReads = 0;
    const timeLeft = createTimeLeftAnswers({
      api: {
        baseUrl: 'http://api.internal',
        fetch: async (request) => {
          apiReads += 1;
          return runtime.app.fetch(request);
        },
      },
      headers: {},
      failures: { fail: () => undefined, ok: () => undefined },
      nowMs: () => clock.now().getTime(),
    });
    let failed = 0;
    // A phone's request as the route sees it, and a response that only keeps the status.
    const phone = { method: 'GET', headers: { 'accept-encoding': 'gzip, br' } } as IncomingMessage;
    const response = {
      writeHead(status: number) {
        if (status !== 200) failed += 1;
        return this;
      },
      end: () => undefined,
    } as unknown as ServerResponse;
    try {
      await runtime.start();
      await pollSettled(clock);
      for (let second = 0; second < 3600; second += STEP_SEC) {
        clock.advance(STEP_SEC);
        await pollSettled(clock);
        // The phones whose 4 s turn falls in this second (phone i asks at seconds ≡ i mod 4).
        const asking = Array.from({ length: phones }, (_, i) => i).filter(
          (i) => i % REFRESH_SEC === second % REFRESH_SEC,
        );
        await Promise.all(asking.map(() => timeLeft.serve(phone, response)));
        if (failed > 0) throw new Error('a refresh failed in the simulated hour');
      }
      const counts = stub.counts();
      results.push({ phones, calls: Object.values(counts).reduce((sum, n) => sum + n, 0), apiReads });
    } finally {
      await runtime.close();
      await stub.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return results;
}
