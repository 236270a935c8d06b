/**
 * Runs the bus feed for one api instance (ARCHITECTURE.md, scale-out): the instance that takes
 * the poller lease (a PostgreSQL advisory lock; always granted on single-process PGlite) runs the
 * poller and NOTIFYs after each poll; the others LISTEN and reload the stored state, and retry the
 * lease every FOLLOW_RETRY_MS so one of them takes over when the holder dies.
 */
import type { Clock } from '../clock';
import type { Database } from '../db/client';
import type { Logger } from '../logger';
import { departureRecorder } from './departures';
import { loadFeedState, type FeedState } from './feed-store';
import { describePlan } from './poll-plan';
import { Poller } from './poller';
import type { FeedSource } from './snapshot';

/** Advisory-lock key of the poller lease ("bus" in ASCII). */
export const POLLER_LEASE_KEY = 0x627573;
export const FEED_CHANNEL = 'bus_feed';
export const FOLLOW_RETRY_MS = 30_000;

export type BusFeed = {
  /** The feed's latest state, from memory. */
  current(): FeedState;
  role(): 'leader' | 'follower';
  stop(): Promise<void>;
};

export async function startBusFeed(options: {
  database: Database;
  source: FeedSource;
  clock: Clock;
  dailyQuota: number;
  logger: Logger;
}): Promise<BusFeed> {
  const { database, source, clock, dailyQuota, logger } = options;
  let state = await loadFeedState(database.db, source.name);
  let poller: Poller | null = null;
  let retry: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;

  const lead = () => {
    logger.info(
      `[bus feed] ${source.name}: this instance polls. Plan: ${describePlan(dailyQuota, source.callsPerPoll)}`,
    );
    poller = new Poller({
      source,
      db: database.db,
      clock,
      dailyQuota,
      logger,
      state,
      onState: () => database.notify(FEED_CHANNEL).catch((error) => logger.warn('[bus feed] NOTIFY failed', error)),
      onSnapshot: departureRecorder(database.db, source.name, logger),
    });
    poller.start();
  };
  const reload = async () => {
    state = await loadFeedState(database.db, source.name).catch(() => state);
  };

  if (await database.tryLease(POLLER_LEASE_KEY)) {
    lead();
  } else {
    logger.info(`[bus feed] ${source.name}: another instance holds the poller lease; following its snapshots.`);
    unlisten = await database.listen(FEED_CHANNEL, () => void reload());
    retry = setInterval(async () => {
      if (await database.tryLease(POLLER_LEASE_KEY).catch(() => false)) {
        if (retry) clearInterval(retry);
        await unlisten?.();
        await reload();
        lead();
      } else {
        await reload();
      }
    }, FOLLOW_RETRY_MS);
  }

  return {
    current: () => (poller ? (poller as Poller).current() : state),
    role: () => (poller ? 'leader' : 'follower'),
    stop: async () => {
      if (retry) clearInterval(retry);
      await unlisten?.();
      await (poller as Poller | null)?.stop();
    },
  };
}
