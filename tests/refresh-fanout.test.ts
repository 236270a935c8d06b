/**
 * Done-when of the first issue: 1,000 phones polling the same-origin refresh route cause zero extra
 * upstream calls. The whole chain is real — web resource route → upstream client → in-process Hono
 * api → feed state — except GBIS itself, which msw answers (and counts) at the HTTP boundary.
 */
import { setupServer } from 'msw/node';
import type { AppLoadContext } from '@remix-run/node';
import { TimeLeftResponseSchema, groupRoutes } from '../contract/bus';
import { createApi } from '../api/app';
import { startBusFeed, type BusFeed } from '../api/bus/feed-service';
import { GbisSource } from '../api/bus/gbis/source';
import type { Database } from '../api/db/client';
import { loader as refreshLoader } from '../app/routes/bus.time-left';
import { MOCK_ARRIVAL_STOP, MOCK_ROUTES, createGbisMock, liveAnswer } from './mocks/gbis';
import { createTestDatabase } from './setup/db';
import { FakeClock, recordingLogger } from './setup/fakes';
import { tempLocalStore } from './setup/storage';

const PHONES = 1000;
const REFRESHES = 3;
const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
const gbis = createGbisMock({ answer: liveAnswer(() => clock.now()) });
const server = setupServer(...gbis.handlers);

describe('the refresh route under 1,000 phones', () => {
  let database: Database;
  let feed: BusFeed;

  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    database = await createTestDatabase('pglite');
    const source = new GbisSource({
      serviceKey: 'test-key',
      baseUrl: gbis.baseUrl,
      routes: MOCK_ROUTES,
      arrivalStop: MOCK_ARRIVAL_STOP,
    });
    feed = await startBusFeed({ database, source, clock, dailyQuota: 1000, logger: recordingLogger() });
    await vi.waitFor(() => expect(feed.current().snapshot).not.toBeNull());
  });
  afterAll(async () => {
    await feed.stop();
    await database.close();
    server.close();
  });

  it('answers every phone from the latest snapshot with no GBIS call beyond the poller', async () => {
    const afterFirstPoll = gbis.counts();
    expect(afterFirstPoll).toEqual({ arrivals: 1, locations: 4 });

    const api = createApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    const context: AppLoadContext = {
      api: { baseUrl: 'http://api.internal', fetch: async (request) => api.fetch(request) },
      cspNonce: 'test',
    };
    for (let refresh = 0; refresh < REFRESHES; refresh += 1) {
      clock.advance(4);
      const responses = await Promise.all(
        Array.from({ length: PHONES }, () =>
          refreshLoader({ request: new Request('http://localhost/bus/time-left'), context, params: {} }),
        ),
      );
      const bodies = await Promise.all(responses.map((response) => response.json()));
      expect(responses.every((response) => response.status === 200)).toBe(true);
      const first = TimeLeftResponseSchema.parse(bodies[0]);
      expect(groupRoutes(first, 'up').length).toBeGreaterThan(0);
      expect(first.feed?.ageSec).toBe(4 * (refresh + 1));
      expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    }
    expect(gbis.counts()).toEqual(afterFirstPoll);
  });
});
