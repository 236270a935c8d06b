import { openDatabase, type Database } from '../db/client';
import { FakeClock, ScriptedSource, recordingLogger, snapshotAt } from '../../tests/setup/fakes';
import { createTestDatabase } from '../../tests/setup/db';
import { sql } from 'drizzle-orm';
import { startBusFeed, type BusFeed } from './feed-service';

const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));

describe('bus feed on PGlite', () => {
  it('takes the lease at once (single process) and polls', async () => {
    const database = await createTestDatabase('pglite');
    const source = new ScriptedSource();
    source.answer((now) => snapshotAt(now, [['1117', 240, 2]]));
    const feed = await startBusFeed({ database, source, clock, dailyQuota: 1000, logger: recordingLogger() });
    await vi.waitFor(() => expect(feed.current().snapshot?.arrivals).toHaveLength(1));
    expect(feed.role()).toBe('leader');
    await feed.stop();
    await database.close();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('bus feed on PostgreSQL: one poller per deployment', () => {
  let database: Database & { url?: string };
  const feeds: BusFeed[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.stop()));
    await database.close();
  });

  const start = (db: Database, source: ScriptedSource) =>
    startBusFeed({ database: db, source, clock, dailyQuota: 1000, logger: recordingLogger(), leaseCheckMs: 100 });
  const leaders = (...instances: BusFeed[]) => instances.filter((feed) => feed.role() === 'leader').length;

  it('lets one instance poll; the other follows its snapshots and takes over when it dies', async () => {
    const first = await openDatabase({ url: database.url, dataDir: 'memory' });
    const second = await openDatabase({ url: database.url, dataDir: 'memory' });
    const leaderSource = new ScriptedSource();
    leaderSource.answer((now) => snapshotAt(now, [['1150', 420, 4]]));
    const leader = await start(first, leaderSource);
    await vi.waitFor(() => expect(leader.current().snapshot).not.toBeNull());

    const followerSource = new ScriptedSource();
    const follower = await start(second, followerSource);
    feeds.push(follower);
    expect(leader.role()).toBe('leader');
    expect(follower.role()).toBe('follower');
    expect(follower.current().snapshot?.arrivals[0].routeNo).toBe('1150');
    expect(followerSource.polls).toBe(0);

    // The leader dies: its session (and the advisory lock) goes; the follower takes the lease.
    await leader.stop();
    await first.close();
    await vi.waitFor(() => expect(follower.role()).toBe('leader'));
    await vi.waitFor(() => expect(followerSource.polls).toBe(1));
    await follower.stop();
    await second.close();
  });

  it('never lets two instances poll when the leader loses its database session', async () => {
    const first = await openDatabase({ url: database.url, dataDir: 'memory' });
    const second = await openDatabase({ url: database.url, dataDir: 'memory' });
    const a = await start(first, new ScriptedSource());
    const b = await start(second, new ScriptedSource());
    feeds.push(a, b);
    expect(leaders(a, b)).toBe(1);

    // Kill the session that holds the lock: the lock is released, and exactly one instance must
    // end up polling (the other steps down or stays a follower).
    await database.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = ${0x627573}
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    await vi.waitFor(async () => {
      const held = await database.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = ${0x627573}`,
      );
      expect((held as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
    });
    await vi.waitFor(() => expect(leaders(a, b)).toBe(1));
    await a.stop();
    await b.stop();
    await first.close();
    await second.close();
  });
});
