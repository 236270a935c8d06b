/**
 * The feed's first promise: 1,000 phones polling the same-origin refresh route
 * cause zero extra GBIS calls. The whole chain is what `npm start` runs, as a process (build/server.js,
 * its fast path for GET /bus/time-left, the in-process api with its poller and GBIS source), against
 * a GBIS stub on loopback that counts the calls: a route that polled on demand would show here.
 * Needs `npm run build` (npm test builds first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TimeLeftResponseSchema } from '../contract/bus';
import { callsSpent } from '../api/bus/feed/store';
import { openDatabase } from '../api/db/client';
import { formatKstDate } from '../contract/kst';
import { gbisStubEnv, startGbisStub, type GbisStub } from './mocks/gbis-stub';
import { freePort, runEntry, type EntryProcess } from './setup/process';
import { groupRoutes } from '../contract/time-left-groups';
import { securityHeaderNames } from './setup/security-headers';

const PHONES = 1000;
const REFRESHES = 3;
const CLOCK_START = '2026-11-23T08:00:00+09:00';

describe('the refresh route under 1,000 phones', () => {
  let stub: GbisStub;
  let dataDir: string;
  let web: EntryProcess;
  let url: string;

  beforeAll(async () => {
    stub = await startGbisStub();
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-fanout-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    web = runEntry('build/server.js', {
      ...gbisStubEnv(stub),
      DATA_DIR: dataDir,
      CLOCK_START,
      PORT: String(port),
      API_SERVICE_TOKEN: 't'.repeat(40),
    });
    await web.waitFor(/\[web\] .*listening/);
    await vi.waitFor(() => expect(stub.counts()).toEqual({ arrivals: 1, locations: 4 }), { timeout: 20_000 });
  }, 90_000);
  afterAll(async () => {
    if (web.child.exitCode === null) web.child.kill('SIGKILL');
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('carries the security headers express sets on the other routes (a JSON answer: the CSP allows no inline script)', async () => {
    const fast = (await fetch(`${url}/bus/time-left`)).headers;
    const general = (await fetch(`${url}/healthz`)).headers;
    const security = securityHeaderNames(general);
    expect(security.length).toBeGreaterThanOrEqual(10);
    for (const name of security) {
      expect(fast.get(name), name).toBe(general.get(name));
    }
    expect(fast.get('x-powered-by')).toBeNull();
  });

  it('answers the path with a trailing slash or a query like the path itself', async () => {
    for (const path of ['/bus/time-left/', '/bus/time-left?t=1', '/bus/time-left/?t=1']) {
      const response = await fetch(url + path);
      expect(response.status, path).toBe(200);
      expect(TimeLeftResponseSchema.safeParse(await response.json()).success, path).toBe(true);
    }
  });

  it('answers every phone from the latest snapshot with no GBIS call beyond the poller’s', async () => {
    const afterFirstPoll = stub.counts();
    for (let refresh = 0; refresh < REFRESHES; refresh += 1) {
      const responses = await Promise.all(Array.from({ length: PHONES }, () => fetch(`${url}/bus/time-left`)));
      expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
      const bodies = await Promise.all(responses.map((response) => response.json()));
      const first = TimeLeftResponseSchema.parse(bodies[0]);
      expect(groupRoutes(first, 'up').length).toBeGreaterThan(0);
      expect(first.feed?.stale).toBe(false);
    }
    expect(stub.counts()).toEqual(afterFirstPoll);
    // Every call made is in the day's count.
    web.child.kill('SIGTERM');
    expect((await web.exited()).code).toBe(0);
    const database = await openDatabase({ dataDir });
    try {
      expect(await callsSpent(database.db, formatKstDate(new Date(CLOCK_START)))).toEqual(afterFirstPoll);
    } finally {
      await database.close();
    }
  }, 60_000);
});
