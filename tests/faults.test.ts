/**
 * The fault suite: faults injected under a running api, with a fixed clock. GBIS is a stub on
 * loopback that answers each fault the real portal or a proxy in front of it can give; PostgreSQL
 * sits behind a TCP proxy that can go away. Through every fault the api keeps answering, serves
 * the last good snapshot marked stale, recovers on the next good poll without a restart, and never
 * spends more than the daily budget, however it retries.
 */
import { HealthResponseSchema, TimeLeftResponseSchema } from '../contract/bus';
import { callsSpent } from '../api/bus/feed/store';
import type { FeedErrorKind } from '../api/bus/feed/snapshot';
import { openDatabase, type Database } from '../api/db/client';
import { formatKstDate } from '../contract/kst';
import { gbisStubSource, startGbisStub, type GbisStub, type GbisStubMode } from './mocks/gbis-stub';
import { createTestDatabase, testDatabaseFor } from './setup/db';
import { FakeClock, pollerFeed, recordingLogger } from './setup/fakes';
import { tempLocalStore } from './setup/storage';
import { startTcpProxy } from './setup/tcp-proxy';
import { testApi } from './setup/api';
import { groupRoutes } from '../contract/time-left-groups';

/** The budget of location calls per day: 95% of GBIS_DAILY_QUOTA (the plan's reserve is 5%). */
const QUOTA = 1000;
const BUDGET = 950;

describe('the api under GBIS faults', () => {
  let stub: GbisStub;
  let database: Database;
  const sharedDatabase = testDatabaseFor('pglite');
  beforeEach(async () => {
    stub = await startGbisStub();
    database = sharedDatabase();
  });
  afterEach(async () => {
    await stub.close();
  });

  const setup = (now: string, db: Database = database) => {
    const clock = new FakeClock(new Date(now));
    const logger = recordingLogger();
    // A hanging GBIS is cut sooner here (5 s in production).
    const source = gbisStubSource(stub, { logger, timeoutMs: 1_000 });
    const { poller, feed } = pollerFeed({ source, db: db.db, clock, logger, dailyQuota: QUOTA });
    const api = testApi({ db: db.db, storage: tempLocalStore(), feed, clock, logger });
    const timeLeft = async () => {
      const response = await api.request('/api/bus/timeLeft');
      expect(response.status).toBe(200);
      return TimeLeftResponseSchema.parse(await response.json());
    };
    const health = async (path: '/api/healthz' | '/api/readyz') => {
      const response = await api.request(path);
      return { status: response.status, body: HealthResponseSchema.parse(await response.json()) };
    };
    /** Waits the delay the poller asked for, then polls. */
    const pollAfter = async (delaySec: number) => {
      clock.advance(delaySec);
      return poller.pollOnce();
    };
    return { clock, logger, poller, api, timeLeft, health, pollAfter };
  };

  it.each<[GbisStubMode, FeedErrorKind]>([
    ['error500', 'http'],
    ['hang', 'timeout'],
    ['quota', 'portal'],
    ['key', 'portal'],
    ['truncated', 'body'],
    ['html', 'body'],
    ['noHeader', 'gbis'],
    ['huge', 'body'],
  ])(
    '%s: keeps serving the last good snapshot marked stale, and recovers on the next good poll',
    async (mode, kind) => {
      const { poller, timeLeft, health, pollAfter } = setup('2026-11-23T08:00:00+09:00');
      let delay = await poller.pollOnce();
      const good = await timeLeft();
      expect(good.feed).toMatchObject({ stale: false });
      const routes = groupRoutes(good, 'up').map((route) => route.routeNo);
      expect(routes.length).toBeGreaterThan(0);

      stub.setMode(mode);
      for (let i = 0; i < 3; i += 1) delay = await pollAfter(delay);
      expect(poller.current().lastError).toMatch(new RegExp(`^${kind}: `));
      const stale = await timeLeft();
      expect(stale.feed).toMatchObject({ stale: true, takenAt: good.feed!.takenAt });
      expect(groupRoutes(stale, 'up').map((route) => route.routeNo)).toEqual(routes);
      expect(await health('/api/healthz')).toMatchObject({ status: 200, body: { status: 'degraded' } });

      stub.setMode('ok');
      await pollAfter(delay);
      const recovered = await timeLeft();
      expect(recovered.feed).toMatchObject({ stale: false });
      expect(recovered.feed!.takenAt).not.toBe(good.feed!.takenAt);
      expect(poller.current().lastError).toBeNull();
      expect(await health('/api/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await callsSpent(database.db, '2026-11-23')).toEqual(stub.counts());
    },
  );

  it('takes a night of resultCode 4 (no result) as no buses, not a failure, and calls nothing after 00:30', async () => {
    const { clock, poller, timeLeft, pollAfter } = setup('2026-11-24T00:10:00+09:00');
    stub.setMode('noResult');
    const delay = await poller.pollOnce();
    expect(poller.current().lastError).toBeNull();
    const night = await timeLeft();
    expect(night.feed).toMatchObject({ stale: false });
    expect(groupRoutes(night, 'up')).toEqual([]);
    const serviceEnd = new Date('2026-11-24T00:30:00+09:00').getTime();
    let callsAtServiceEnd: number | null = null;
    let next = delay;
    while (poller.current().nextPollAt!.getTime() < new Date('2026-11-24T05:00:00+09:00').getTime()) {
      next = await pollAfter(next);
      if (clock.now().getTime() >= serviceEnd) callsAtServiceEnd ??= stub.calls().length;
    }
    expect(stub.calls().length).toBe(callsAtServiceEnd); // no call between 00:30 and 05:00
    expect(poller.current().nextPollAt!.toISOString()).toBe('2026-11-23T20:00:00.000Z'); // 05:00 KST
  });

  it('never spends more than the day’s budget while retrying through a day of intermittent faults', async () => {
    const { clock, poller, timeLeft, pollAfter } = setup('2026-11-23T05:00:00+09:00');
    const faults: GbisStubMode[] = ['error500', 'quota', 'truncated', 'html', 'ok', 'ok'];
    let delay = await poller.pollOnce();
    let answered = 0;
    while (formatKstDate(clock.now()) === '2026-11-23') {
      stub.setMode(faults[new Date(clock.now()).getUTCHours() % faults.length]);
      delay = await pollAfter(delay);
      await timeLeft();
      answered += 1;
    }
    const spent = await callsSpent(database.db, '2026-11-23');
    expect(spent.locations).toBeLessThanOrEqual(BUDGET);
    // Every call was counted (the last poll fell after midnight, on the next day's count).
    const nextDay = await callsSpent(database.db, '2026-11-24');
    expect(stub.counts()).toEqual({
      arrivals: spent.arrivals + nextDay.arrivals,
      locations: spent.locations + nextDay.locations,
    });
    expect(answered).toBeGreaterThan(50);
  }, 120_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('the api when PostgreSQL goes away and comes back', () => {
  it('serves from memory marked stale, answers not ready, calls GBIS for nothing, and recovers without a restart', async () => {
    const stub = await startGbisStub();
    const database = await createTestDatabase('postgres');
    const target = new URL(database.url!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = await openDatabase({ url: proxy.urlFor(database.url!), dataDir: 'memory' });
    try {
      const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
      const logger = recordingLogger();
      const source = gbisStubSource(stub, { logger });
      const { poller, feed } = pollerFeed({ source, db: throughProxy.db, clock, logger, dailyQuota: QUOTA });
      const api = testApi({ db: throughProxy.db, storage: tempLocalStore(), feed, clock, logger });
      let delay = await poller.pollOnce();
      const good = TimeLeftResponseSchema.parse(await (await api.request('/api/bus/timeLeft')).json());

      proxy.down();
      for (let i = 0; i < 3; i += 1) {
        clock.advance(delay);
        delay = await poller.pollOnce();
      }
      expect(poller.current().lastError).toMatch(/^database: /);
      expect(stub.counts()).toEqual({ arrivals: 1, locations: 4 }); // no call without its reservation
      const timeLeft = await api.request('/api/bus/timeLeft');
      expect(timeLeft.status).toBe(200);
      const stale = TimeLeftResponseSchema.parse(await timeLeft.json());
      expect(stale.feed).toMatchObject({ stale: true, takenAt: good.feed!.takenAt });
      expect((await api.request('/api/readyz')).status).toBe(503);
      expect((await api.request('/api/healthz')).status).toBe(200);
      expect(logger.lines.filter((line) => line.includes('poll failing: database'))).toHaveLength(1);

      proxy.up();
      clock.advance(delay);
      await poller.pollOnce();
      expect(poller.current().lastError).toBeNull();
      expect((await api.request('/api/readyz')).status).toBe(200);
      // The arrival list again; each route's location list on its own pace (not all of them due yet).
      expect(stub.counts().arrivals).toBe(2);
      expect(await callsSpent(database.db, '2026-11-23')).toEqual(stub.counts());
    } finally {
      await throughProxy.close();
      await proxy.close();
      await database.close();
      await stub.close();
    }
  }, 60_000);
});
