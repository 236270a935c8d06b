/**
 * Done-when of the first issue: 1,000 phones polling the same-origin refresh route cause zero extra
 * upstream calls. The whole chain is what `npm start` runs (the web's resource route → upstream
 * client → the api runtime with its poller and GBIS source), against a GBIS stub on loopback that
 * counts the calls: a route that polled on demand would show here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppLoadContext } from '@remix-run/node';
import { TimeLeftResponseSchema, groupRoutes } from '../contract/bus';
import { callsSpent } from '../api/bus/feed-store';
import { openDatabase } from '../api/db/client';
import { parseApiEnv } from '../api/env';
import { createApiRuntime, type ApiRuntime } from '../api/runtime';
import { kstDateKey } from '../api/time';
import { loader as refreshLoader } from '../app/routes/bus.time-left';
import { gbisStubEnv, startGbisStub, type GbisStub } from './mocks/gbis-stub';
import { recordingLogger } from './setup/fakes';

const PHONES = 1000;
const REFRESHES = 3;
const CLOCK_START = '2026-11-23T08:00:00+09:00';

describe('the refresh route under 1,000 phones', () => {
  let stub: GbisStub;
  let dataDir: string;
  let runtime: ApiRuntime;

  beforeAll(async () => {
    stub = await startGbisStub();
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-fanout-'));
    runtime = await createApiRuntime(
      parseApiEnv({ ...gbisStubEnv(stub), DATA_DIR: dataDir, CLOCK_START, API_SERVICE_TOKEN: 't'.repeat(40) }),
      recordingLogger(),
    );
    await runtime.start();
    await vi.waitFor(() => expect(runtime.feed.current().snapshot).not.toBeNull(), { timeout: 10_000 });
  }, 60_000);
  afterAll(async () => {
    await runtime.close();
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every phone from the latest snapshot with no GBIS call beyond the poller’s', async () => {
    const afterFirstPoll = stub.counts();
    expect(afterFirstPoll).toEqual({ arrivals: 1, locations: 4 });

    const context: AppLoadContext = {
      api: { baseUrl: 'http://api.internal', fetch: async (request) => runtime.app.fetch(request) },
      cspNonce: 'test',
    };
    for (let refresh = 0; refresh < REFRESHES; refresh += 1) {
      const responses = await Promise.all(
        Array.from({ length: PHONES }, () =>
          refreshLoader({ request: new Request('http://localhost/bus/time-left'), context, params: {} }),
        ),
      );
      expect(responses.every((response) => response.status === 200)).toBe(true);
      const bodies = await Promise.all(responses.map((response) => response.json()));
      const first = TimeLeftResponseSchema.parse(bodies[0]);
      expect(groupRoutes(first, 'up').length).toBeGreaterThan(0);
      expect(first.feed?.stale).toBe(false);
    }
    expect(stub.counts()).toEqual(afterFirstPoll);
    // Every call made is in the day's count.
    await runtime.close();
    const database = await openDatabase({ dataDir });
    try {
      expect(await callsSpent(database.db, kstDateKey(new Date(CLOCK_START)))).toEqual(afterFirstPoll);
    } finally {
      await database.close();
    }
  });
});
