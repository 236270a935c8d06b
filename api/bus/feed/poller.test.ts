import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { formatKstDate } from '../../../contract/kst';
import {
  FakeClock,
  FeedError,
  ScriptedSource,
  recordingLogger,
  snapshotAt,
  pollerFeed,
  vehicleAt,
} from '../../../tests/setup/fakes';
import { testDatabaseFor } from '../../../tests/setup/db';
import { callsSpent, emptyFeedState, loadFeedState, recordCalls } from './store';
import { MAX_POLL_SEC } from './poll-plan';
import { BACKOFF_START_SEC, CONFIG_RECHECK_SEC, Poller } from './poller';

describe('Poller', () => {
  let database: Database;
  let clock: FakeClock;
  let source: ScriptedSource;
  let logger: ReturnType<typeof recordingLogger>;
  let poller: Poller;
  let notified: number;
  const sharedDatabase = testDatabaseFor('pglite');

  beforeEach(async () => {
    database = sharedDatabase();
    clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    source = new ScriptedSource();
    logger = recordingLogger();
    notified = 0;
    ({ poller } = pollerFeed({ source, db: database.db, clock, logger, onState: () => void (notified += 1) }));
  });

  it('stores each good snapshot, counts its calls per dataset and notifies followers', async () => {
    source.answer((now) => snapshotAt(now, [['1150', 600, 5]]));
    const delay = await poller.pollOnce();
    expect(poller.current().snapshot?.arrivals[0].predictTimeSec).toBe(600);
    expect(poller.current().lastError).toBeNull();
    expect(await callsSpent(database.db, formatKstDate(clock.now()))).toEqual({ arrivals: 1, locations: 4 });
    expect((await loadFeedState(database.db, 'gbis')).snapshot?.takenAt).toBe('2026-11-22T23:00:00.000Z');
    expect(notified).toBe(1);
    // The arrival list's pace alone (its 949 calls left over 16 h, with a bus near): not per
    // request, and not the location lists' pace.
    expect(delay).toBe(61);
  });

  it("reads the arrival list and each route's location list on their own budgets, and merges what it read", async () => {
    // A bus of 1150 passes the crossroads 10 minutes in; its vehicles are read where it is by then.
    const passMs = clock.now().getTime() + 600_000;
    source.answer((now) => ({
      ...snapshotAt(now, now.getTime() < passMs ? [['1150', Math.round((passMs - now.getTime()) / 1000), 3]] : []),
      vehicles: [vehicleAt('1150', { direction: now.getTime() < passMs + 900_000 ? 'up' : 'down', stopIndex: 1 })],
    }));
    const end = clock.now().getTime() + 30 * 60_000;
    while (clock.now().getTime() < end) clock.advance(await poller.pollOnce());

    const arrivalReads = source.requests.filter((request) => request.arrivals).length;
    const routeReads = source.requests.flatMap((request) => request.routes);
    expect(source.requests.some((request) => request.arrivals && request.routes.length === 0)).toBe(true);
    expect(source.requests.some((request) => !request.arrivals && request.routes.length > 0)).toBe(true);
    // The arrival list at its own pace (about a minute, not the location lists' ~5 minutes) ...
    expect(arrivalReads).toBeGreaterThanOrEqual(25);
    // ... and 1150, whose bus is coming to leave, read more often than the routes with none.
    const readsOf = (routeNo: string) => routeReads.filter((read) => read === routeNo).length;
    expect(readsOf('1150')).toBeGreaterThan(readsOf('1303') + 2);
    expect(await callsSpent(database.db, formatKstDate(clock.now()))).toEqual({
      arrivals: arrivalReads,
      locations: routeReads.length,
    });
    // The snapshot keeps each dataset's read time: the countdown's and each route's positions'.
    const { snapshot } = poller.current();
    const lastArrivalRead = source.requests.findLastIndex((request) => request.arrivals);
    expect(snapshot?.takenAt).not.toBe(undefined);
    expect(lastArrivalRead).toBeGreaterThanOrEqual(0);
    expect(Object.keys(snapshot?.locationsTakenAt ?? {}).sort()).toEqual(['1005', '1117', '1150', '1303']);
  });

  it('while the source is not set up: no call, a look again every minute in service and at 05:00 at night, then a logged recovery', async () => {
    let setUp = false;
    Object.assign(source, {
      prepare: async () => {
        if (!setUp) throw new FeedError('config', 'the GBIS ids are not set up');
      },
    });
    source.answer((now) => snapshotAt(now, [['1150', 600, 5]]));
    expect(await poller.pollOnce()).toBe(CONFIG_RECHECK_SEC);
    expect(await poller.pollOnce()).toBe(CONFIG_RECHECK_SEC);
    expect(source.polls).toBe(0);
    expect(await callsSpent(database.db, formatKstDate(clock.now()))).toEqual({ arrivals: 0, locations: 0 });
    clock.set('2026-11-24T01:00:00+09:00');
    expect(await poller.pollOnce()).toBe(4 * 3600); // not every minute all night
    clock.set('2026-11-24T05:00:00+09:00');
    setUp = true;
    await poller.pollOnce();
    expect(source.polls).toBe(1);
    expect(poller.current().lastError).toBeNull();
    expect(logger.lines.filter((line) => line.includes('recovered after 3 failed polls'))).toHaveLength(1);
  });

  it('keeps the last good snapshot on failure, marks it stale, backs off and logs once per state change', async () => {
    source.answer((now) => snapshotAt(now, [['1150', 600, 5]]));
    await poller.pollOnce();
    const good = poller.current().snapshot;

    source.fail(new FeedError('portal', 'quota exceeded (22 LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR)'));
    const delays: number[] = [];
    let delay = 60;
    for (let i = 0; i < 4; i += 1) {
      clock.advance(delay);
      delay = await poller.pollOnce();
      delays.push(delay);
    }
    expect(source.polls).toBe(5);
    const state = poller.current();
    expect(state.snapshot).toEqual(good);
    expect(state.lastError).toMatch(/^portal: quota exceeded/);
    expect(state.failingSince?.toISOString()).toBe('2026-11-22T23:01:00.000Z');
    // The plan's 61 s while it is longer than the backoff (30 s, 60 s), then the backoff.
    expect(delays).toEqual([61, 61, BACKOFF_START_SEC * 4, BACKOFF_START_SEC * 8]);
    expect(logger.lines.filter((l) => l.includes('poll failing'))).toHaveLength(1);
    expect((await loadFeedState(database.db, 'gbis')).lastError).toMatch(/^portal/);

    source.fail(new FeedError('timeout', 'no answer in 5000 ms'));
    clock.advance(delay);
    await poller.pollOnce();
    expect(logger.lines.filter((l) => l.includes('poll failing'))).toHaveLength(2);

    source.answer((now) => snapshotAt(now, [['1150', 120, 1]]));
    clock.advance(MAX_POLL_SEC);
    await poller.pollOnce();
    expect(poller.current().lastError).toBeNull();
    expect(poller.current().failingSince).toBeNull();
    expect(logger.lines.filter((l) => l.includes('recovered after 5 failed polls'))).toHaveLength(1);
  });

  it('makes no call outside service hours or once the daily budget is spent', async () => {
    clock.set('2026-11-23T03:00:00+09:00');
    expect(await poller.pollOnce()).toBe(2 * 3600);
    expect(source.polls).toBe(0);

    clock.set('2026-11-23T08:00:00+09:00');
    // Each dataset has its own budget: with the location calls spent, the arrival list is still read.
    await recordCalls(database.db, '2026-11-23', { arrivals: 949, locations: 950 });
    await poller.pollOnce();
    expect(source.requests).toEqual([{ arrivals: true, routes: [] }]);
    expect(poller.current().lastError).toBeNull();
    clock.advance(60);
    expect(await poller.pollOnce()).toBe(16 * 3600 - 60); // until KST midnight
    expect(source.polls).toBe(1);
    expect(poller.current().lastError).toBe('budget: daily quota of 1000 calls per dataset spent');
    expect(poller.current().nextPollAt?.toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect(await callsSpent(database.db, '2026-11-23')).toEqual({ arrivals: 950, locations: 950 });
  });

  it('reserves the calls before calling: a database that cannot write skips the poll and backs off', async () => {
    source.answer((now) => snapshotAt(now, [['1150', 600, 5]]));
    await poller.pollOnce();
    // A read-only failover (or a full disk): reads work, writes fail.
    await database.db.execute(sql`SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY`);
    const delays: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      clock.advance(600);
      delays.push(await poller.pollOnce());
    }
    expect(source.polls).toBe(1);
    expect(delays).toEqual([BACKOFF_START_SEC, BACKOFF_START_SEC * 2, BACKOFF_START_SEC * 4]);
    expect(poller.current().lastError).toMatch(/^database: .*read-only/);
    expect(logger.lines.filter((l) => l.includes('poll failing'))).toHaveLength(1);

    await database.db.execute(sql`SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE`);
    clock.advance(600);
    await poller.pollOnce();
    expect(source.polls).toBe(2);
    expect(poller.current().lastError).toBeNull();
    expect(await callsSpent(database.db, formatKstDate(clock.now()))).toEqual({ arrivals: 2, locations: 8 });
    expect(logger.lines.filter((l) => l.includes('recovered after 3 failed polls'))).toHaveLength(1);
  });

  it('makes no call when the lease is not confirmed right before it, and says so once', async () => {
    let held = false;
    ({ poller } = pollerFeed({ source, db: database.db, clock, logger, confirmLease: async () => held }));
    await poller.pollOnce();
    await poller.pollOnce();
    expect(source.polls).toBe(0);
    expect(await callsSpent(database.db, formatKstDate(clock.now()))).toEqual({ arrivals: 0, locations: 0 });
    expect(logger.lines.filter((l) => l.includes('lease is not confirmed'))).toHaveLength(1);
    held = true;
    await poller.pollOnce();
    expect(source.polls).toBe(1);
  });

  it('resumes at the stored next-poll time after a restart, so restarts spend no extra calls', async () => {
    const nextPollAt = new Date(clock.now().getTime() + 200_000);
    ({ poller } = pollerFeed({
      source,
      db: database.db,
      clock,
      logger,
      state: { ...emptyFeedState('gbis'), nextPollAt },
    }));
    const polledAt: Date[] = [];
    source.answer((now) => {
      polledAt.push(now);
      return snapshotAt(now, []);
    });
    poller.start();
    clock.advance(199);
    clock.advance(1);
    await vi.waitFor(() => expect(source.polls).toBe(1));
    expect(polledAt).toEqual([nextPollAt]); // not at the start, 200 s earlier
    await poller.stop();

    // A free source (the demo) has no quota to keep: it polls at once.
    const free = new ScriptedSource({ metered: false });
    const demo = pollerFeed({ source: free, db: database.db, clock, state: { ...emptyFeedState('gbis'), nextPollAt } });
    demo.poller.start();
    await vi.waitFor(() => expect(free.polls).toBe(1));
    await demo.poller.stop();
  });
});
