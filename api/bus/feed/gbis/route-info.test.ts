import { setupServer } from 'msw/node';
import { createGbisMock, MOCK_IDS } from '../../../../tests/mocks/gbis';
import { discoveryReply, MOCK_TIMETABLE } from '../../../../tests/mocks/gbis-discovery';
import { testDatabaseFor } from '../../../../tests/setup/db';
import { recordingLogger } from '../../../../tests/setup/fakes';
import { listAudit } from '../../../admin/audit';
import { latestTimetableRestarts } from '../../predictions/restarts';
import { discoveryCallsSpent } from '../store';
import { parseInThread } from './discover';
import { gbisHttp } from './http';
import { checkRouteInfo, ROUTE_INFO_ACTOR } from './route-info';
import { loadTransitIds } from './setup-store';

const mock = createGbisMock({ answer: (call) => discoveryReply(call) ?? { status: 404, body: 'Not Found' } });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const database = testDatabaseFor('pglite');
const gbis = { http: gbisHttp({ serviceKey: 'key', baseUrl: mock.baseUrl }), parse: parseInThread };
const at = (kst: string) => new Date(`${kst}+09:00`);

describe('checkRouteInfo', () => {
  it('reads each route once a KST day; a timetable GBIS states otherwise is saved and restarts its learning, audited', async () => {
    const { db } = database();
    const logger = recordingLogger();
    const check = (ids = MOCK_IDS, now = at('2026-11-23T04:10:00')) =>
      checkRouteInfo({ db, gbis, ids, now, dailyQuota: 1000, logger });

    // The first read: the estimates of transit-config become what GBIS states (MOCK_TIMETABLE on
    // weekdays), with no restart: nothing is known to have changed.
    expect(await check()).toEqual({ outcome: 'read', changed: ['1150', '1117', '1303', '1005'], failed: [] });
    expect(mock.counts().arrivals + mock.counts().locations).toBe(0);
    expect(mock.calls().map((call) => call.operation)).toEqual(Array(4).fill('getBusRouteInfoItemv2'));
    expect(await discoveryCallsSpent(db, '2026-11-23')).toEqual({ routes: 4, stations: 0 });
    const saved = await loadTransitIds(db, { arrivalStationId: null, routeIds: {} });
    expect(saved.routes.map((route) => route.timetable.weekday)).toEqual(Array(4).fill(MOCK_TIMETABLE));
    expect(await latestTimetableRestarts(db, 'gbis')).toEqual([]);

    // Again the same day: nothing read. The next day: read, nothing changed.
    mock.reset();
    expect(await check(saved)).toEqual({ outcome: 'skipped' });
    expect(mock.calls()).toHaveLength(0);
    expect(await check(saved, at('2026-11-24T04:10:00'))).toEqual({ outcome: 'read', changed: [], failed: [] });

    // The day after, GBIS states another weekday timetable for 1303 than the one saved: saved, and
    // its learning restarts at the service day about to begin, both audited.
    const before = {
      ...saved,
      routes: saved.routes.map((route) =>
        route.routeNo === '1303'
          ? { ...route, timetable: { ...route.timetable, weekday: { ...MOCK_TIMETABLE, first: '05:30' } } }
          : route,
      ),
    };
    expect(await check(before, at('2026-11-25T04:10:00'))).toEqual({ outcome: 'read', changed: ['1303'], failed: [] });
    expect(await latestTimetableRestarts(db, 'gbis')).toEqual([
      expect.objectContaining({ routeNo: '1303', since: '2026-11-25', actor: ROUTE_INFO_ACTOR }),
    ]);
    const entries = (await listAudit(db, 20)).filter((entry) => entry.actor === ROUTE_INFO_ACTOR);
    expect(entries.map((entry) => entry.action)).toEqual([
      'timetable-restart',
      'gbis-config',
      'gbis-config',
      'gbis-config',
      'gbis-config',
      'gbis-config',
    ]);
    expect(logger.lines.filter((line) => line.includes('learning restarts at 2026-11-25'))).toHaveLength(1);
  });

  it("reads nothing beyond the day's quota of route calls, and logs a route whose read fails", async () => {
    const { db } = database();
    const logger = recordingLogger();
    const now = at('2026-11-23T10:00:00');
    expect(await checkRouteInfo({ db, gbis, ids: MOCK_IDS, now, dailyQuota: 3, logger })).toEqual({
      outcome: 'no-budget',
    });
    expect(mock.calls()).toHaveLength(0);

    mock.answerWith(() => ({ status: 500, body: 'down' }));
    const failing = await checkRouteInfo({ db, gbis, ids: MOCK_IDS, now, dailyQuota: 1000, logger });
    expect(failing).toEqual({ outcome: 'read', changed: [], failed: ['1150', '1117', '1303', '1005'] });
    expect(logger.lines.filter((line) => line.includes('could not read GBIS route info'))).toHaveLength(4);
  });
});
