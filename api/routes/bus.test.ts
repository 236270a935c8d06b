import {
  ApiErrorSchema,
  PredictedAllResponseSchema,
  PredictedRouteResponseSchema,
  TimeLeftResponseSchema,
} from '../../contract/bus';
import { FakeClock, ScriptedSource, recordingLogger, snapshotAt, pollerFeed } from '../../tests/setup/fakes';
import { createTestDatabase, testDatabaseKinds } from '../../tests/setup/db';
import { createApi } from '../app';
import { loadDepartures, saveDepartures } from '../bus/departures';
import type { BusFeed } from '../bus/feed-service';
import type { Database } from '../db/client';
import { departure } from './departures.fixture';

// Monday 23 Nov 2026, 08:00. 1150 left at 07:40/08:30/09:10 on Wed–Fri and at 08:45 on the Monday
// before (too few runs to be a history day, but last week's); the other routes have no history.
const stored = [
  ...['2026-11-18', '2026-11-19', '2026-11-20'].flatMap((date) =>
    ['07:40', '08:30', '09:10'].map((hhmm) => departure('1150', date, hhmm)),
  ),
  departure('1150', '2026-11-16', '08:45'),
];

describe.each(testDatabaseKinds)('predicted down departures on %s', (kind) => {
  let database: Database;
  let feed: BusFeed;
  let clock: FakeClock;

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    await saveDepartures(database.db, stored);
    clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const source = new ScriptedSource();
    // 1150 reaches the crossroads at 08:05 (leaves at 08:20); 1303 at 08:20 (leaves at 08:38).
    source.answer((now) =>
      snapshotAt(now, [
        ['1150', 300, 3],
        ['1303', 1200, 15],
      ]),
    );
    const { poller, feed: pollerView } = pollerFeed({ source, db: database.db, clock });
    feed = pollerView;
    await poller.pollOnce();
  });
  afterEach(() => database.close());

  const api = () =>
    createApi({
      feed,
      clock,
      logger: recordingLogger(),
      history: (range) => loadDepartures(database.db, { source: 'gbis', ...range }),
    });

  it('GET /api/bus/predicted/all: every route, ascending KST times, live evidence in place of its run', async () => {
    clock.advance(60);
    const response = await api().request('/api/bus/predicted/all');
    expect(response.status).toBe(200);
    const { predictedDownTimes } = PredictedAllResponseSchema.parse(await response.json());
    expect(Object.keys(predictedDownTimes).sort()).toEqual(['1005', '1117', '1150', '1303']);
    expect(predictedDownTimes['1150']).toEqual([
      '2026-11-23T07:40:00+09:00',
      '2026-11-23T08:20:00+09:00', // live: 08:05 + the observed 15 min turnaround, not 08:30
      '2026-11-23T09:10:00+09:00',
    ]);
    // 1303: no history → the weekday timetable (05:40, every 32.5 min) with 08:22:30 replaced by
    // the live 08:38 (08:20 + layover 10 + 8 min).
    expect(predictedDownTimes['1303'].slice(3, 6)).toEqual([
      '2026-11-23T07:17:30+09:00',
      '2026-11-23T07:50:00+09:00',
      '2026-11-23T08:38:00+09:00',
    ]);
    for (const times of Object.values(predictedDownTimes)) expect([...times].sort()).toEqual(times);
  });

  it('GET /api/bus/predicted/:routeNo answers one route, and 404 for an unknown one', async () => {
    const app = api();
    const one = PredictedRouteResponseSchema.parse(await (await app.request('/api/bus/predicted/1150')).json());
    expect(one).toEqual({
      routeNo: '1150',
      predictedDownTimes: ['2026-11-23T07:40:00+09:00', '2026-11-23T08:20:00+09:00', '2026-11-23T09:10:00+09:00'],
    });
    const unknown = await app.request('/api/bus/predicted/9999');
    expect(unknown.status).toBe(404);
    expect(ApiErrorSchema.parse(await unknown.json())).toEqual({ message: 'Unknown routeNo 9999' });
  });

  it('GET /api/bus/timeLeft: the down group has the next departure of each route', async () => {
    clock.advance(60);
    const body = TimeLeftResponseSchema.parse(await (await api().request('/api/bus/timeLeft')).json());
    expect(body.data[1].routes.map((r) => r.routeNo)).toEqual(['1150', '1117', '1303', '1005']);
    expect(body.data[1].routes[0]).toEqual({
      routeNo: '1150',
      data: { dayBefore: null, weekBefore: '2026-11-23T08:45:00+09:00', estimate: '2026-11-23T08:20:00+09:00' },
      basis: 'live',
    });
    expect(body.data[1].routes[1]).toMatchObject({
      data: { estimate: '2026-11-23T08:05:00+09:00' },
      basis: 'timetable',
    });

    clock.set('2026-11-24T02:00:00+09:00');
    const night = TimeLeftResponseSchema.parse(await (await api().request('/api/bus/timeLeft')).json());
    expect(night.data[1].routes).toEqual([]);
  });
});
