import { emptyFeedState } from '../bus/feed-store';
import { ApiErrorSchema } from '../../contract/bus';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { createTestDatabase, testDatabaseKinds } from '../../tests/setup/db';
import { createApi } from '../app';
import type { BacktestReport } from '../bus/backtest';
import { loadDepartures, saveDepartures } from '../bus/departures';
import type { Database } from '../db/client';
import { departure } from './departures.fixture';
import { tempLocalStore } from '../../tests/setup/storage';

const TOKEN = 'test-service-token';

describe.each(testDatabaseKinds)('admin api on %s', (kind) => {
  let database: Database;
  const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
  const api = (serviceToken?: string) =>
    createApi({
      db: database.db,
      storage: tempLocalStore(),
      feed: {
        current: () => emptyFeedState('gbis'),
        role: () => 'leader',
        stop: async () => undefined,
      },
      clock,
      logger: recordingLogger(),
      history: (range) => loadDepartures(database.db, { source: 'gbis', ...range }),
      serviceToken,
    });
  const backtest = (app: ReturnType<typeof api>, authorization?: string, query = '?days=14') =>
    app.request(`/api/admin/backtest${query}`, { headers: authorization ? { Authorization: authorization } : {} });

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    // Tue–Fri 17–20 Nov: 1150 at 08:00 and 08:30; and today's (not evaluated) 07:40.
    await saveDepartures(database.db, [
      ...['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'].flatMap((date) => [
        departure('1150', date, '08:00'),
        departure('1150', date, '08:30'),
      ]),
      departure('1150', '2026-11-23', '07:40'),
    ]);
  });
  afterEach(() => database.close());

  it('answers 503 on every admin route while API_SERVICE_TOKEN is not set', async () => {
    for (const path of ['/api/admin/backtest', '/api/admin/anything']) {
      const response = await api().request(path, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(503);
      expect(ApiErrorSchema.parse(await response.json())).toEqual({
        message: 'Admin API disabled: API_SERVICE_TOKEN is not set',
      });
    }
  });

  it('answers 401 without the bearer token or with a wrong one', async () => {
    const app = api(TOKEN);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, 'Bearer ', TOKEN, `Basic ${TOKEN}`]) {
      const response = await backtest(app, authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('GET /api/admin/backtest?days=14 answers the backtest of the stored history, before today', async () => {
    const response = await backtest(api(TOKEN), `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    const report = (await response.json()) as BacktestReport;
    expect(report.days).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']);
    expect(report.overall.departures).toBe(8);
    expect(report.routes.map((r) => r.routeNo)).toEqual(['1150', '1117', '1303', '1005']);
    // 19 and 20 Nov are predicted from 2+ identical weekdays: exact; 17 and 18 from the timetable.
    expect(report.overall.methods.yesterday).toMatchObject({ queries: 120, answered: 90, maeSec: 0 });

    const few = (await (await backtest(api(TOKEN), `Bearer ${TOKEN}`, '?days=1')).json()) as BacktestReport;
    expect(few.days).toEqual(['2026-11-20']);
    expect(few.overall.methods.estimate).toMatchObject({ maeSec: 0, etaScore: 100 });
    const bad = await backtest(api(TOKEN), `Bearer ${TOKEN}`, '?days=0');
    expect(bad.status).toBe(400);
    expect(ApiErrorSchema.parse(await bad.json()).message).toMatch(/^days/);
  });
});
