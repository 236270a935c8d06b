import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../db/client';
import { FakeClock, ScriptedSource, recordingLogger, snapshotAt } from '../../../tests/setup/fakes';
import { createTestDatabase, testDatabaseFor } from '../../../tests/setup/db';
import { createBusFeed, type BusFeed } from './service';
import { callsSpent } from './store';

const start = async (options: Parameters<typeof createBusFeed>[0]): Promise<BusFeed> => {
  const feed = await createBusFeed(options);
  await feed.start();
  return feed;
};

describe('bus feed on PGlite', () => {
  it('takes the lease at once (single process) and polls', async () => {
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const database = await createTestDatabase('pglite');
    const source = new ScriptedSource();
    source.answer((now) => snapshotAt(now, [['1117', 240, 2]]));
    const feed = await start({ database, source, clock, dailyQuota: 1000, logger: recordingLogger() });
    await vi.waitFor(() => expect(feed.current().snapshot?.arrivals).toHaveLength(1));
    expect(feed.role()).toBe('leader');
    await feed.stop();
    await database.close();
  });

  it('polls nothing before start(): the entries start it once the server listens', async () => {
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const database = await createTestDatabase('pglite');
    const source = new ScriptedSource();
    const feed = await createBusFeed({ database, source, clock, dailyQuota: 1000, logger: recordingLogger() });
    clock.advance(3600);
    // A poll begun at creation would have reserved its calls by the time a query queued now ends.
    expect(await callsSpent(database.db, '2026-11-23')).toEqual({ arrivals: 0, locations: 0 });
    expect(source.polls).toBe(0);
    await feed.stop();
    await database.close();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('bus feed on PostgreSQL: one poller per deployment', () => {
  let database: Database & { url?: string };
  let clock: FakeClock;
  const opened: { close(): Promise<void> }[] = [];
  const sharedDatabase = testDatabaseFor('postgres');
  beforeEach(async () => {
    clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    database = sharedDatabase();
  });
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  const instance = async (source: ScriptedSource, leaseCheckMs = 100) => {
    const db = await openDatabase({ url: database.url, dataDir: 'memory' });
    opened.push(db);
    const logger = recordingLogger();
    const feed = await start({ database: db, source, clock, dailyQuota: 1000, logger, leaseCheckMs });
    opened.push({ close: () => feed.stop() });
    return { db, feed, logger };
  };

  it('lets one instance poll; the other follows its snapshots and takes over at the planned time when it dies', async () => {
    const leaderSource = new ScriptedSource();
    leaderSource.answer((now) => snapshotAt(now, [['1150', 420, 4]]));
    const leader = await instance(leaderSource);
    await vi.waitFor(() => expect(leader.feed.current().snapshot).not.toBeNull());
    const plannedAt = leader.feed.current().nextPollAt!;

    const followerSource = new ScriptedSource();
    const polledAt: Date[] = [];
    followerSource.answer((now) => {
      polledAt.push(now);
      return snapshotAt(now, [['1150', 300, 3]]);
    });
    const follower = await instance(followerSource);
    expect(leader.feed.role()).toBe('leader');
    expect(follower.feed.role()).toBe('follower');
    expect(follower.feed.current().snapshot?.arrivals[0].routeNo).toBe('1150');

    // The leader dies: its session (and the advisory lock) goes; the follower takes the lease and
    // keeps the stored plan: no call before the next poll the leader planned.
    await leader.feed.stop();
    await leader.db.close();
    await vi.waitFor(() => expect(follower.feed.role()).toBe('leader'));
    clock.set(new Date(plannedAt.getTime() - 1000));
    clock.set(plannedAt);
    await vi.waitFor(() => expect(followerSource.polls).toBe(1));
    expect(polledAt).toEqual([plannedAt]); // at the planned time, not when it took the lease
    expect(leaderSource.polls).toBe(1);
  });

  it('never lets two instances call the source when the leader loses its database session', async () => {
    const aSource = new ScriptedSource();
    // The first leader checks the lease only when it polls (its lease timer is an hour), so only
    // the check right before each call can stop it.
    const a = await instance(aSource, 3_600_000);
    await vi.waitFor(() => expect(aSource.polls).toBe(1));
    const bSource = new ScriptedSource();
    const b = await instance(bSource);
    expect([a.feed.role(), b.feed.role()]).toEqual(['leader', 'follower']);

    // Kill the session that holds the lock: the lock is released and b takes it.
    await database.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = ${0x627573}
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    await vi.waitFor(() => expect(b.feed.role()).toBe('leader'));
    expect(a.feed.role()).toBe('leader'); // a has not noticed: its poller is still scheduled

    // Both pollers' next poll comes (each schedules the one after once its attempt has settled):
    // only the lease holder calls.
    clock.set(a.feed.current().nextPollAt!);
    await vi.waitFor(() => expect(clock.pending()).toBe(2));
    expect([aSource.polls, bSource.polls]).toEqual([1, 1]);
    expect(a.logger.lines.join('\n')).toContain('the poller lease is not confirmed');
  });
});
