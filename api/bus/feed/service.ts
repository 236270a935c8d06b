/**
 * Runs the bus feed for one api instance (several may run behind one database): the instance that
 * takes the poller lease (a PostgreSQL advisory lock; on PGlite always granted, the data
 * directory's lock making the process the only one: db/data-dir-lock.ts) runs the poller and
 * NOTIFYs after each poll; the others LISTEN and reload the stored state. Every instance checks the
 * lease every LEASE_CHECK_MS, so a follower takes over when the holder dies and a holder whose
 * database session dropped (releasing the lock) steps down; the poller also confirms the lease
 * right before each call, so two instances never poll.
 */
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import type { Logger } from '../../logger';
import { departureRecorder } from '../predictions/departures/store';
import { loadFeedState, type FeedState } from './store';
import { describePlan } from './poll-plan';
import { Poller } from './poller';
import type { FeedSource } from './snapshot';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';

/** Advisory-lock key of the poller lease ("bus" in ASCII). */
const POLLER_LEASE_KEY = 0x627573;
const FEED_CHANNEL = 'bus_feed';
/** How often an instance checks the lease: a follower takes over, a leader that lost it steps down. */
export const LEASE_CHECK_MS = 10_000;

export type BusFeed = {
  /** The feed's latest state, from memory. */
  current(): FeedState;
  role(): 'leader' | 'follower';
  /**
   * Starts the lease loop (and so the polls); resolves after the first lease check. Call it once
   * the server listens, so a process that fails to start spends no calls.
   */
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Loads the stored feed state; `start()` then runs the lease loop: every LEASE_CHECK_MS (real
 * time) the instance checks the lease; holding it, it runs the poller, which also confirms the
 * lease right before each call; not holding it (never, or lost when its session dropped or the
 * check timed out), it stops any poller, LISTENs and reloads the stored state. `stop()` must
 * settle before the database is closed.
 * @throws when the stored state cannot be read (database unreachable at start).
 */
export async function createBusFeed(options: {
  database: Database;
  source: FeedSource;
  clock: Clock;
  dailyQuota: number;
  logger: Logger;
  /** Default LEASE_CHECK_MS. */
  leaseCheckMs?: number;
  /**
   * Gets the instance's snapshots: the poller's after each good poll, a follower's after each
   * reload (repeats included), e.g. the prediction service's observe. Must not throw.
   */
  onSnapshot?: (snapshot: FeedSnapshot) => void;
}): Promise<BusFeed> {
  const { database, source, clock, dailyQuota, logger, leaseCheckMs = LEASE_CHECK_MS, onSnapshot } = options;
  let state = await loadFeedState(database.db, source.name);
  let poller: Poller | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let checking: Promise<void> = Promise.resolve();
  const tryLease = () => database.tryLease(POLLER_LEASE_KEY);

  const reload = async () => {
    state = await loadFeedState(database.db, source.name).catch(() => state);
    // The source's setup (the GBIS source: ids and timetables, which the page views read from
    // memory) is read here too: a follower's timetables follow a save, and a new leader's plan counts
    // the routes of the ids in use. A source that cannot poll yet says so at its first poll.
    await source.prepare?.().catch(() => undefined);
    if (state.snapshot) onSnapshot?.(state.snapshot);
  };
  const lead = async () => {
    await unlisten?.();
    unlisten = null;
    await reload();
    logger.info(
      `[bus feed] ${source.name}: this instance polls. Plan: ${describePlan(dailyQuota, source.metered, source.locatedRoutes.length)}`,
    );
    const recordDepartures = departureRecorder(database.db, source.name, logger);
    poller = new Poller({
      source,
      db: database.db,
      clock,
      dailyQuota,
      logger,
      state,
      confirmLease: tryLease,
      onState: () => database.notify(FEED_CHANNEL).catch((error) => logger.warn('[bus feed] NOTIFY failed', error)),
      onSnapshot: async (snapshot) => {
        onSnapshot?.(snapshot);
        await recordDepartures(snapshot);
      },
    });
    poller.start();
  };
  const follow = async () => {
    if (poller) {
      logger.warn(`[bus feed] ${source.name}: lost the poller lease (database session dropped); following.`);
      await poller.stop();
      state = poller.current();
      poller = null;
    } else if (!unlisten) {
      logger.info(`[bus feed] ${source.name}: another instance holds the poller lease; following its snapshots.`);
    }
    unlisten ??= await database.listen(FEED_CHANNEL, () => void reload());
    await reload();
  };
  const check = async () => {
    const held = await tryLease().catch(() => false);
    if (stopped) return;
    if (held && !poller) await lead();
    else if (!held) await follow().catch((error) => logger.warn('[bus feed] following failed; retrying', error));
    if (!stopped) timer = setTimeout(() => void (checking = check()), leaseCheckMs);
  };

  return {
    current: () => (poller ? (poller as Poller).current() : state),
    role: () => (poller ? 'leader' : 'follower'),
    start: async () => {
      checking = check();
      await checking;
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await checking;
      await unlisten?.();
      await (poller as Poller | null)?.stop();
    },
  };
}
