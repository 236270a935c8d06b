/**
 * runDiscovery's quota against the mock GBIS (tests/mocks/gbis-discovery.ts through msw): calls are
 * reserved before the first one, so discoveries run at once never spend more than the quota left,
 * and the calls not made are given back.
 */
import { setupServer } from 'msw/node';
import { createGbisMock, MOCK_IDS, MOCK_ROUTES } from '../../../../tests/mocks/gbis';
import { discoveryReply } from '../../../../tests/mocks/gbis-discovery';
import { testDatabaseFor, testDatabaseKinds } from '../../../../tests/setup/db';
import { gbisCalls } from '../../../db/schema';
import { discoveryCallsSpent } from '../store';
import { discoveryCallsAtMost } from './discover';
import { gbisHttp } from './http';
import { runDiscovery } from './setup-discovery';
import { parseInThread } from './discover';

/** 10:00 KST on a Monday. */
const NOW = new Date('2026-11-23T10:00:00+09:00');
const DAY = '2026-11-23';

const mock = createGbisMock({
  answer: (call) => discoveryReply(call) ?? { status: 500, body: `not a discovery call: ${call.operation}` },
});
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe.each(testDatabaseKinds)('runDiscovery on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const run = (dailyQuota: number) =>
    runDiscovery({
      db: database().db,
      http: gbisHttp({ serviceKey: 'test-key', baseUrl: mock.baseUrl }),
      parse: parseInThread,
      current: MOCK_IDS,
      dailyQuota,
      now: NOW,
    });

  it('lets two discoveries at once spend no more than the quota left: one runs, the other is refused before any call', async () => {
    const needed = discoveryCallsAtMost(MOCK_IDS);
    expect(needed).toEqual({ routes: 12, stations: 6 });
    // 30 a day, 10 route-dataset calls spent: room for one discovery (12), not two (24).
    await database().db.insert(gbisCalls).values({ day: DAY, dataset: 'routes', calls: 10 });

    const outcomes = await Promise.all([run(30), run(30)]);

    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['found', 'no-budget']);
    expect(outcomes.find((outcome) => outcome.outcome === 'no-budget')).toMatchObject({
      spent: { routes: 22, stations: 6 }, // the running one's reservation counts
      needed,
    });
    expect(mock.calls()).toHaveLength(18);
    expect(await discoveryCallsSpent(database().db, DAY)).toEqual({ routes: 22, stations: 6 });
  });

  it('counts the calls it made and gives back the rest of what it reserved', async () => {
    // GBIS knows three of the four routes: no route info or stop list for the fourth.
    mock.answerWith((call) => discoveryReply(call, MOCK_ROUTES.slice(0, 3)) ?? { status: 500, body: call.operation });
    const outcome = await run(1000);
    expect(outcome).toMatchObject({ outcome: 'found', callsSpent: 16 });
    expect(mock.calls()).toHaveLength(16);
    expect(await discoveryCallsSpent(database().db, DAY)).toEqual({ routes: 10, stations: 6 });
  });
});
