import {
  ApiErrorSchema,
  PredictedAllResponseSchema,
  PredictedRouteResponseSchema,
  PredictionAccuracySchema,
  TimeLeftResponseSchema,
  type DepartureRange,
} from '../../contract/bus';
import { FakeClock, ScriptedSource, recordingLogger, snapshotAt, pollerFeed } from '../../tests/setup/fakes';
import { createTestDatabase, testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import type { ApiParts } from '../compose';
import type { DepartureRecord } from '../bus/predictions/departures/detector';
import { loadDepartures, saveDepartures } from '../bus/predictions/departures/store';
import { createAccuracyService } from '../bus/predictions/accuracy';
import { createBusFeed, type BusFeed } from '../bus/feed/service';
import { emptyFeedState } from '../bus/feed/store';
import {
  createPredictionService,
  type HistoryLoader,
  type PredictionService,
  type TodayPredictions,
} from '../bus/predictions/service';
import { openDatabase, type Database } from '../db/client';
import { departure } from './departures.fixture';
import { tempLocalStore } from '../../tests/setup/storage';
import { testApi } from '../../tests/setup/api';
import { groupRoutes } from '../../contract/time-left-groups';
import { inThreadJobs } from '../bus/predictions/jobs';

// Monday 23 Nov 2026, 08:00. 1150 left at 07:40/08:30/09:10 on Wed–Fri and at 08:45 on the Monday
// before (too few runs to be a history day, but last week's); the other routes have no history.
const stored = [
  ...['2026-11-18', '2026-11-19', '2026-11-20'].flatMap((date) =>
    ['07:40', '08:30', '09:10'].map((hhmm) => departure('1150', date, hhmm)),
  ),
  departure('1150', '2026-11-16', '08:45'),
];

/**
 * 1150 reaches the crossroads at 08:15, on time for its 08:30 run (its buses always passed 15 min
 * before leaving); 1303, with no history, at 08:20 (leaves its configured turnaround later, 08:38).
 */
const scriptedSource = () => {
  const source = new ScriptedSource();
  source.answer((now) =>
    snapshotAt(now, [
      ['1150', 900, 3],
      ['1303', 1200, 15],
    ]),
  );
  return source;
};

describe.each(testDatabaseKinds)('predicted down departures on %s', (kind) => {
  let database: Database & { url?: string };
  const sharedDatabase = testDatabaseFor(kind);
  let feed: BusFeed;
  let clock: FakeClock;
  let predictions: PredictionService;
  const history: HistoryLoader = (range) => loadDepartures(database.db, { source: 'gbis', ...range });

  beforeEach(async () => {
    database = sharedDatabase();
    await saveDepartures(database.db, stored);
    clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    predictions = createPredictionService({ loadHistory: history, logger: recordingLogger(), jobs: inThreadJobs });
    const { poller, feed: pollerView } = pollerFeed({
      source: scriptedSource(),
      db: database.db,
      clock,
      onSnapshot: async (snapshot) => predictions.observe(snapshot),
    });
    feed = pollerView;
    await poller.pollOnce();
  });

  const api = (deps: Partial<ApiParts> = {}) =>
    testApi({
      db: database.db,
      storage: tempLocalStore(),
      feed,
      clock,
      logger: recordingLogger(),
      history,
      predictions,
      ...deps,
    });

  /** `range` holds `iso` and spans under a minute. */
  const expectAround = (range: DepartureRange | null | undefined, iso: string) => {
    const [lower, at, upper] = [range?.lowerAt, iso, range?.upperAt].map((t) => new Date(t ?? NaN).getTime());
    expect(lower).toBeLessThanOrEqual(at);
    expect(upper).toBeGreaterThanOrEqual(at);
    expect(upper - lower).toBeLessThan(60_000);
  };

  it('GET /api/bus/predicted/all: every route, ascending KST times, live evidence in place of its run', async () => {
    clock.advance(60);
    const response = await api().request('/api/bus/predicted/all');
    expect(response.status).toBe(200);
    const { predictedDownTimes, timetableOnly, ranges } = PredictedAllResponseSchema.parse(await response.json());
    expect(Object.keys(predictedDownTimes).sort()).toEqual(['1005', '1117', '1150', '1303']);
    // Only 1150 has history; the others' times are the timetable's (with live evidence in it).
    expect(timetableOnly).toEqual(['1117', '1303', '1005']);
    expect(predictedDownTimes['1150']).toEqual([
      '2026-11-23T07:40:00+09:00',
      '2026-11-23T08:30:00+09:00', // live: on time at the crossroads, so its run's time, as always before
      '2026-11-23T09:10:00+09:00',
    ]);
    // Each with its 80 % range: the history never varied, so each range is its time give or take
    // the least kernel a learnt spread is dressed with (spread.ts MIN_KERNEL_SEC: 1.28 × 20 s).
    expect(ranges?.['1150']).toHaveLength(3);
    ranges?.['1150'].forEach((range, i) => expectAround(range, predictedDownTimes['1150'][i]));
    // 1303: no history → the weekday timetable (05:40, every 32.5 min) with 08:22:30 replaced by
    // the live 08:38 (08:20 + layover 10 + 8 min). A timetable time states no range.
    expect(predictedDownTimes['1303'].slice(3, 6)).toEqual([
      '2026-11-23T07:17:30+09:00',
      '2026-11-23T07:50:00+09:00',
      '2026-11-23T08:38:00+09:00',
    ]);
    const [first, second, live] = ranges?.['1303'].slice(3, 6) ?? [];
    expect([first, second]).toEqual([null, null]);
    expectAround(live, '2026-11-23T08:38:00+09:00');
    for (const times of Object.values(predictedDownTimes)) expect([...times].sort()).toEqual(times);
  });

  it('GET /api/bus/predicted/:routeNo answers one route, and 404 for an unknown one', async () => {
    const app = api();
    const one = PredictedRouteResponseSchema.parse(await (await app.request('/api/bus/predicted/1150')).json());
    const times = ['2026-11-23T07:40:00+09:00', '2026-11-23T08:30:00+09:00', '2026-11-23T09:10:00+09:00'];
    expect(one).toMatchObject({ routeNo: '1150', predictedDownTimes: times, timetableOnly: false });
    expect(one.ranges).toHaveLength(3);
    one.ranges?.forEach((range, i) => expectAround(range, times[i]));
    const fromTimetable = PredictedRouteResponseSchema.parse(
      await (await app.request('/api/bus/predicted/1303')).json(),
    );
    expect(fromTimetable.timetableOnly).toBe(true);
    const unknown = await app.request('/api/bus/predicted/9999');
    expect(unknown.status).toBe(404);
    expect(ApiErrorSchema.parse(await unknown.json())).toEqual({ message: 'Unknown routeNo 9999' });
  });

  it('GET /api/bus/timeLeft: the down group has the next departure of each route, from the timetable until the history is loaded', async () => {
    clock.advance(60);
    const timeLeft = async () => TimeLeftResponseSchema.parse(await (await api().request('/api/bus/timeLeft')).json());
    // The day's first request does not wait for the history: timetable estimates (with live
    // evidence at the configured turnaround, layover 8 + 8 min) and no day before / week before.
    const first = await timeLeft();
    expect(groupRoutes(first, 'up').map((r) => r.routeNo)).toEqual(['1150', '1303']);
    expect(groupRoutes(first, 'down')[0]).toEqual({
      routeNo: '1150',
      // The bus at the crossroads at 08:15 leaves at 08:31 in place of the timetable's 08:35, after
      // the timetable's 08:16:30, which stays the next; a timetable time states no range.
      data: { dayBefore: null, weekBefore: null, estimate: '2026-11-23T08:16:30+09:00' },
      basis: 'timetable',
      range: null,
      lastRun: null,
    });
    await predictions.today(clock.now()); // the load the first request started

    const body = await timeLeft();
    expect(groupRoutes(body, 'down').map((r) => r.routeNo)).toEqual(['1150', '1117', '1303', '1005']);
    expect(groupRoutes(body, 'down')[0]).toEqual({
      routeNo: '1150',
      data: { dayBefore: null, weekBefore: '2026-11-23T08:45:00+09:00', estimate: '2026-11-23T08:30:00+09:00' },
      basis: 'live',
      range: expect.anything(),
      lastRun: null,
    });
    expectAround(groupRoutes(body, 'down')[0].range, '2026-11-23T08:30:00+09:00');
    expect(groupRoutes(body, 'down')[1]).toMatchObject({
      data: { estimate: '2026-11-23T08:05:00+09:00' },
      basis: 'timetable',
    });

    clock.set('2026-11-24T02:00:00+09:00');
    const night = TimeLeftResponseSchema.parse(await (await api().request('/api/bus/timeLeft')).json());
    expect(groupRoutes(night, 'down')).toEqual([]);
  });

  it('timeLeft answers while the history load hangs; /api/bus/predicted waits for it', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = createPredictionService({
      jobs: inThreadJobs,
      loadHistory: async (range) => {
        await gate;
        return history(range);
      },
      logger: recordingLogger(),
    });
    const app = api({ predictions: slow });
    let predicted: Response | null = null;
    const asked = Promise.resolve(app.request('/api/bus/predicted/1150')).then((response) => (predicted = response));

    const timeLeft = await app.request('/api/bus/timeLeft');
    expect(timeLeft.status).toBe(200);
    const body = TimeLeftResponseSchema.parse(await timeLeft.json());
    expect(groupRoutes(body, 'up')).toHaveLength(2);
    expect(groupRoutes(body, 'down').map((r) => r.basis)).toEqual(['timetable', 'timetable', 'timetable', 'timetable']);
    expect(predicted).toBeNull();

    release();
    await asked;
    const one = PredictedRouteResponseSchema.parse(await predicted!.json());
    expect(one.predictedDownTimes).toEqual([
      '2026-11-23T07:40:00+09:00',
      '2026-11-23T08:30:00+09:00',
      '2026-11-23T09:10:00+09:00',
    ]);
  });

  it('the feed service hands every polled snapshot to the predictions, requests or not', async () => {
    const fed = createPredictionService({ loadHistory: history, logger: recordingLogger(), jobs: inThreadJobs });
    const source = new ScriptedSource();
    source.answer((now) => snapshotAt(now, [['1117', 600, 6]])); // not in the stored snapshot
    const leader = await createBusFeed({
      database,
      source,
      clock,
      dailyQuota: 1000,
      logger: recordingLogger(),
      onSnapshot: fed.observe,
    });
    await leader.start();
    clock.set(feed.current().nextPollAt!); // the poll the stored state planned
    await vi.waitFor(async () =>
      expect((await fed.today(clock.now())).routes[1].estimate.map((e) => e.basis)).toContain('live'),
    );
    await leader.stop();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('predictions on a follower instance (PostgreSQL)', () => {
  it('observe the snapshots the follower reloads', async () => {
    const database = await createTestDatabase('postgres');
    const first = await openDatabase({ url: database.url, dataDir: 'memory' });
    const second = await openDatabase({ url: database.url, dataDir: 'memory' });
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const start = async (db: Database, onSnapshot?: PredictionService['observe']) => {
      const feed = await createBusFeed({
        database: db,
        source: scriptedSource(),
        clock,
        dailyQuota: 1000,
        logger: recordingLogger(),
        onSnapshot,
      });
      await feed.start();
      return feed;
    };
    const leader = await start(first);
    await vi.waitFor(() => expect(leader.current().snapshot).not.toBeNull());

    const predictions = createPredictionService({
      loadHistory: async () => [],
      logger: recordingLogger(),
      jobs: inThreadJobs,
    });
    const follower = await start(second, predictions.observe);
    expect(follower.role()).toBe('follower');
    const estimate = (await predictions.today(clock.now())).routes[0].estimate;
    expect(estimate.filter((e) => e.basis === 'live').map((e) => e.at.toISOString())).toEqual([
      // At the crossroads at 08:15; no history, so the route's layover and up section (16 min): 08:31 KST.
      '2026-11-22T23:31:00.000Z',
    ]);
    await follower.stop();
    await leader.stop();
    await Promise.all([first.close(), second.close()]);
    await database.close();
  });
});

describe('bus routes when the predictions fail', () => {
  it('timeLeft keeps its up group with an empty down group, logged once per run of failures; /predicted answers 503', async () => {
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    let broken = true;
    const read = (): TodayPredictions => {
      if (broken) throw new Error('a bug in the plan');
      return { serviceDate: '2026-11-23', routes: [] };
    };
    const logger = recordingLogger();
    const database = await createTestDatabase('pglite');
    onTestFinished(() => database.close());
    const app = testApi({
      db: database.db,
      storage: tempLocalStore(),
      feed: {
        current: () => ({ ...emptyFeedState('gbis'), snapshot: snapshotAt(clock.now(), [['1150', 300, 3]]) }),
        role: () => 'leader',
      },
      clock,
      logger,
      predictions: {
        today: async () => read(),
        todayNow: read,
        observe: () => undefined,
        timetableChanges: async () => [],
      },
    });
    const failures = () => logger.lines.filter((line) => line.includes('[predictions] failing')).length;

    for (let i = 0; i < 2; i++) {
      const response = await app.request('/api/bus/timeLeft');
      expect(response.status).toBe(200);
      const body = TimeLeftResponseSchema.parse(await response.json());
      expect(groupRoutes(body, 'up').map((r) => r.routeNo)).toEqual(['1150']);
      expect(groupRoutes(body, 'down')).toEqual([]);
    }
    for (const path of ['/api/bus/predicted/all', '/api/bus/predicted/1150']) {
      const response = await app.request(path);
      expect(response.status).toBe(503);
      expect(ApiErrorSchema.parse(await response.json()).message).toMatch(/^Predictions are unavailable/);
    }
    expect(failures()).toBe(1);

    broken = false;
    expect((await app.request('/api/bus/predicted/all')).status).toBe(200);
    expect(logger.lines.at(-1)).toMatch(/serving predictions again/);
    broken = true;
    await app.request('/api/bus/timeLeft');
    expect(failures()).toBe(2);
  });
});

describe('GET /api/bus/accuracy', () => {
  const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
  const stubFeed: Pick<BusFeed, 'current' | 'role'> = {
    current: () => emptyFeedState('demo'),
    role: () => 'leader',
  };

  /** The api on a fresh database holding `stored`; its accuracy service's history loads are counted. */
  const accuracyApi = async (stored: DepartureRecord[] = []) => {
    const database = await createTestDatabase('pglite');
    onTestFinished(() => database.close().catch(() => undefined));
    await saveDepartures(database.db, stored);
    const logger = recordingLogger();
    const loads = { count: 0 };
    const history: HistoryLoader = (range) => {
      loads.count += 1;
      return loadDepartures(database.db, { source: 'gbis', ...range });
    };
    const accuracy = createAccuracyService({
      db: database.db,
      clock,
      loadHistory: history,
      source: 'demo',
      jobs: inThreadJobs,
    });
    const app = testApi({
      db: database.db,
      storage: tempLocalStore(),
      feed: stubFeed,
      clock,
      logger,
      history,
      accuracy,
    });
    return { app, logger, loads, accuracy, database };
  };

  it('answers the figure the lease holder stored; no request computes it', async () => {
    // 1150 at 08:00/08:30/09:00 on the 20 days before Monday 23 Nov 2026 (3–22 Nov).
    const dates = Array.from({ length: 20 }, (_, k) => `2026-11-${String(3 + k).padStart(2, '0')}`);
    const stored = dates.flatMap((date) => ['08:00', '08:30', '09:00'].map((hhmm) => departure('1150', date, hhmm)));
    const { app, loads, accuracy } = await accuracyApi(stored);

    // Before the first computation: the empty figure, not to be cached.
    const before = await app.request('/api/bus/accuracy');
    expect(before.status).toBe(200);
    expect(before.headers.get('Cache-Control')).toBe('no-store');
    expect(PredictionAccuracySchema.parse(await before.json())).toMatchObject({
      computedAt: null,
      window: { days: 0 },
    });
    expect(loads.count).toBe(0);

    await accuracy.refresh(clock.now());
    const response = await app.request('/api/bus/accuracy');
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    const body = PredictionAccuracySchema.parse(await response.json());
    expect(body).toMatchObject({
      source: 'demo',
      computedAt: clock.now().toISOString(),
      window: { days: 14, firstDate: '2026-11-09', lastDate: '2026-11-22' },
      estimate: { etaScore: 100, maeSec: 0, queries: 14 * 3 * 15 },
      dayBefore: { etaScore: 100, maeSec: 0, queries: 14 * 3 * 15 },
    });
    expect(body.tolerances).toHaveLength(4);

    clock.advance(3600);
    expect(PredictionAccuracySchema.parse(await (await app.request('/api/bus/accuracy')).json())).toEqual(body);
    expect(loads.count).toBe(1);
  });

  it('answers 503 and logs when the stored figure cannot be read', async () => {
    const { app, logger, database } = await accuracyApi();
    await database.close();
    const response = await app.request('/api/bus/accuracy');
    expect(response.status).toBe(503);
    expect(ApiErrorSchema.parse(await response.json()).message).toMatch(/^The prediction accuracy is unavailable/);
    expect(logger.lines.some((line) => line.includes('[accuracy] cannot read the stored accuracy figure'))).toBe(true);
  });
});
