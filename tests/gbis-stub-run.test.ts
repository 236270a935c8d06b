/**
 * Done-when of the first issue, over real HTTP: the api on BUS_FEED=gbis pointed at a local stub
 * that answers GBIS-shaped bodies serves those arrivals; when the stub switches to the portal's
 * daily-quota error, the last good data stays, marked stale with its age, and the api keeps serving;
 * a page that echoes the service key never puts it in a log.
 */
import { TimeLeftResponseSchema } from '../contract/bus';
import { createApi } from '../api/app';
import type { Database } from '../api/db/client';
import { gbisStubSource, startGbisStub, type GbisStub } from './mocks/gbis-stub';
import { createTestDatabase } from './setup/db';
import { FakeClock, recordingLogger, pollerFeed } from './setup/fakes';
import { tempLocalStore } from './setup/storage';
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
    const api = createApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger });
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
});
