import { openDatabase, type Database } from '../db/client';
import { FakeClock, ScriptedSource, recordingLogger, snapshotAt } from '../../tests/setup/fakes';
import { createTestDatabase } from '../../tests/setup/db';
import { FOLLOW_RETRY_MS, startBusFeed, type BusFeed } from './feed-service';

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

  it('lets one instance poll; the other follows its snapshots by NOTIFY and takes over when it dies', async () => {
    const first = await openDatabase({ url: database.url, dataDir: 'memory' });
    const second = await openDatabase({ url: database.url, dataDir: 'memory' });

    const leaderSource = new ScriptedSource();
    leaderSource.answer((now) => snapshotAt(now, [['1150', 420, 4]]));
    const leader = await startBusFeed({
      database: first,
      source: leaderSource,
      clock,
      dailyQuota: 1000,
      logger: recordingLogger(),
    });
    feeds.push(leader);
    await vi.waitFor(() => expect(leader.current().snapshot).not.toBeNull());

    vi.useFakeTimers({ toFake: ['setInterval'] });
    const followerSource = new ScriptedSource();
    const follower = await startBusFeed({
      database: second,
      source: followerSource,
      clock,
      dailyQuota: 1000,
      logger: recordingLogger(),
    });
    feeds.push(follower);
    expect(leader.role()).toBe('leader');
    expect(follower.role()).toBe('follower');
    expect(follower.current().snapshot?.arrivals[0].routeNo).toBe('1150');
    expect(followerSource.polls).toBe(0);

    // The leader dies: its session (and the advisory lock) goes; the follower takes the lease.
    await leader.stop();
    await first.close();
    await vi.advanceTimersByTimeAsync(FOLLOW_RETRY_MS);
    vi.useRealTimers();
    await vi.waitFor(() => expect(follower.role()).toBe('leader'));
    await vi.waitFor(() => expect(followerSource.polls).toBe(1));
    await second.close();
  });
});
