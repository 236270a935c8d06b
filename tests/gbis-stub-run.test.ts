/**
 * The api on BUS_FEED=gbis over real HTTP against a local GBIS stand-in (tests/mocks/gbis-stub.ts):
 * - it serves the stub's arrivals; when the stub switches to the portal's daily-quota error, the
 *   last good data stays, marked stale with its age, and the api keeps serving; a page that echoes
 *   the service key never puts it in a log;
 * - a fresh install (docs/gbis.md §Setup page) with no GBIS ids anywhere says "ids unknown" and
 *   spends no arrival call; discovery and a save through the admin api take it to live arrivals at
 *   the next poll, with the saved timetables in the view, no file edited and no restart.
 */
import { LAST_RUN_NOTICE_MIN, PredictedRouteResponseSchema, TimeLeftResponseSchema } from '../contract/bus';
import { formatKstIso } from '../contract/kst';
import { GbisDiscoverResponseSchema, type GbisConfig } from '../contract/gbis';
import { CONFIG_RECHECK_SEC } from '../api/bus/feed/poller';
import { parseApiEnv } from '../api/env';
import { createApiRuntime } from '../api/runtime';
import type { Database } from '../api/db/client';
import { gbisStubSource, startGbisStub, type GbisStub } from './mocks/gbis-stub';
import { createTestDatabase } from './setup/db';
import { FakeClock, recordingLogger, pollerFeed } from './setup/fakes';
import { tempLocalStore } from './setup/storage';
import { testApi } from './setup/api';
import { groupRoutes } from '../contract/time-left-groups';

describe('the api on a GBIS stub', () => {
  let stub: GbisStub;
  let database: Database;
  beforeAll(async () => {
    stub = await startGbisStub();
    database = await createTestDatabase('pglite');
  });
  afterAll(async () => {
    await stub.close();
    await database.close();
  });

  it('shows the stub’s arrivals, then keeps them on screen marked stale through a quota error', async () => {
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const logger = recordingLogger();
    const source = gbisStubSource(stub, { logger });
    const { poller, feed } = pollerFeed({ source, db: database.db, clock, logger });
    const api = testApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger });
    const timeLeft = async () => TimeLeftResponseSchema.parse(await (await api.request('/api/bus/timeLeft')).json());

    await poller.pollOnce();
    const fresh = await timeLeft();
    expect(fresh.feed).toMatchObject({ source: 'gbis', stale: false });
    expect(
      groupRoutes(fresh, 'up')
        .map((route) => route.routeNo)
        .sort(),
    ).toEqual(['1005', '1117', '1150', '1303']);
    expect(stub.counts()).toEqual({ arrivals: 1, locations: 4 });

    stub.setMode('quota');
    clock.advance(60);
    await poller.pollOnce();
    clock.advance(60);
    const response = await api.request('/api/bus/timeLeft');
    expect(response.status).toBe(200);
    const stale = TimeLeftResponseSchema.parse(await response.json());
    expect(stale.feed).toMatchObject({ stale: true, ageSec: 120 });
    expect(groupRoutes(stale, 'up').map((route) => route.routeNo)).toEqual(
      groupRoutes(fresh, 'up').map((route) => route.routeNo),
    );
    expect(poller.current().lastError).toMatch(/^portal: .*22/);
    expect(logger.lines.filter((line) => line.includes('poll failing'))).toHaveLength(1);

    // A page that echoes the request's query, service key included: the failure is kept and
    // logged with a preview of the body, and the key never reaches the state or a log.
    stub.setMode('html');
    clock.advance(60);
    await poller.pollOnce();
    expect(poller.current().lastError).toMatch(/^body: .*unreadable XML body: .*serviceKey=<serviceKey>/);
    expect(logger.lines.filter((line) => line.includes('poll failing'))).toHaveLength(2);
    expect([poller.current().lastError, ...logger.lines].join('\n')).not.toContain('stub-key');
  });

  it('takes a fresh install from "ids unknown" to live arrivals through the setup api, with the saved timetables', async () => {
    const token = 'gbis-stub-run-service-token-0123456789';
    const admin = { Authorization: `Bearer ${token}`, 'X-Admin-User': 'alice', 'Content-Type': 'application/json' };
    // 08:00 KST on a Monday: in service, weekday timetables.
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const fresh = await startGbisStub({ clock: () => clock.now() });
    const env = parseApiEnv({
      BUS_FEED: 'gbis',
      GBIS_SERVICE_KEY: 'stub-key',
      GBIS_BASE_URL: fresh.url,
      DATA_DIR: 'memory',
      API_SERVICE_TOKEN: token,
    });
    const runtime = await createApiRuntime(env, recordingLogger(), clock);
    const timeLeft = async () =>
      TimeLeftResponseSchema.parse(await (await runtime.app.request('/api/bus/timeLeft')).json());
    try {
      await runtime.start();
      // The first poll finds no campus crossroads id: nothing is called, the home says so.
      await vi.waitFor(async () => expect((await timeLeft()).feed).toMatchObject({ idsUnknown: true }));
      expect(groupRoutes(await timeLeft(), 'up')).toEqual([]);
      expect(fresh.calls()).toEqual([]);

      const found = await runtime.app.request('/api/admin/gbis/discover', { method: 'POST', headers: admin });
      expect(found.status).toBe(200);
      const { discovery, callsSpent } = GbisDiscoverResponseSchema.parse(await found.json());
      expect(callsSpent).toBe(fresh.calls().length);
      expect(fresh.counts()).toEqual({ arrivals: 0, locations: 0 }); // discovery spends route and stop lookups only
      // The admin corrects two timetables before saving: 1150's last run leaves at 08:20, 1303 runs from 08:05.
      const proposal: GbisConfig = structuredClone(discovery.proposal);
      proposal.routes['1150'].timetable.weekday.last = '08:20';
      proposal.routes['1303'].timetable.weekday = {
        first: '08:05',
        last: '09:05',
        minHeadwayMin: 30,
        maxHeadwayMin: 30,
      };
      const saved = await runtime.app.request('/api/admin/gbis', {
        method: 'PUT',
        headers: admin,
        body: JSON.stringify(proposal),
      });
      expect(saved.status).toBe(200);
      // This instance's timetables follow the save at once, before any poll (the view is built once
      // per second: each look is a second later, well before the poller's next look).
      const downOf = async (routeNo: string) =>
        groupRoutes(await timeLeft(), 'down').find((route) => route.routeNo === routeNo);
      await vi.waitFor(async () => {
        clock.advance(1);
        expect((await downOf('1303'))?.data.estimate).toBe('2026-11-23T08:05:00+09:00');
      });
      expect(fresh.counts().arrivals).toBe(0);

      // The next poll (the poller looks again CONFIG_RECHECK_SEC later) calls GBIS with the saved ids.
      clock.advance(CONFIG_RECHECK_SEC);
      await vi.waitFor(async () => expect(groupRoutes(await timeLeft(), 'up')).toHaveLength(4));
      const arrivalCalls = fresh.calls().filter((call) => call.operation === 'getBusArrivalListv2');
      expect(arrivalCalls.map((call) => call.params.stationId)).toEqual([proposal.upStationIds[0]]);
      const live = await timeLeft();
      expect(live.feed).toMatchObject({ source: 'gbis', stale: false });
      expect(live.feed?.idsUnknown).toBeUndefined();
      // The 막차 is the day's last predicted departure, the modal's last time (docs/product.md §11):
      // the saved timetable's times end at 08:20, but the buses now seen coming leave after it.
      const modal = await (await runtime.app.request('/api/bus/predicted/1150')).json();
      const last: string = PredictedRouteResponseSchema.parse(modal).predictedDownTimes.at(-1)!;
      const minutesAway = (iso: string) => (Date.parse(iso) - clock.now().getTime()) / 60_000;
      const near = (iso: string) => (minutesAway(iso) <= LAST_RUN_NOTICE_MIN ? formatKstIso(new Date(iso)) : null);
      expect(Date.parse(last)).toBeGreaterThan(Date.parse('2026-11-23T08:20:00+09:00'));
      expect((await downOf('1150'))?.lastRun ?? null).toBe(near(last));
      const dueAtCampus = new Date(Date.parse(last) - 8 * 60_000).toISOString(); // less the 8-minute layover
      expect(groupRoutes(live, 'up').find((route) => route.routeNo === '1150')?.lastRun ?? null).toBe(
        near(dueAtCampus),
      );
    } finally {
      await runtime.close();
      await fresh.close();
    }
  }, 60_000);

  // The README's stub run on a 1,000/day key: the arrival list is paced on its own budget, not the
  // location lists' (which allowed one poll every ~290 s), even with a bus near all day as here.
  it.each([
    ['at 05:00, the whole day ahead', '2026-11-24T05:00:00+09:00'],
    ['at noon on a fresh budget', '2026-11-25T12:00:00+09:00'],
  ])('reads the arrival list at least every 90 s on average %s', async (_, start) => {
    stub.setMode('ok');
    const clock = new FakeClock(new Date(start));
    const { poller } = pollerFeed({ source: gbisStubSource(stub), db: database.db, clock, dailyQuota: 1000 });
    const before = stub.counts();
    const end = clock.now().getTime() + 30 * 60_000;
    while (clock.now().getTime() < end) clock.advance(await poller.pollOnce());
    const arrivals = stub.counts().arrivals - before.arrivals;
    expect((30 * 60) / arrivals).toBeLessThanOrEqual(90);
    // The location lists spend their own budget, around the departures.
    expect(stub.counts().locations - before.locations).toBeGreaterThan(0);
  });
});
