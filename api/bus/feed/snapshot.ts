/**
 * A bus feed source, what one poll costs and why one failed. What a poll saw is the snapshot of
 * contract/feed-snapshot.ts, stored as is in feed_states (api/db/schema/bus.ts).
 */
import type { FeedSourceName } from '../../../contract/bus';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';

/** How many GBIS calls one poll spends per quota dataset (GBIS counts arrival and location calls apart). */
export type CallsPerPoll = { arrivals: number; locations: number };

/** A bus feed: polled by the poller only, never per user request. */
export interface FeedSource {
  readonly name: FeedSourceName;
  /** GBIS calls one poll costs (as of the last `prepare`), or null when polling is free (the demo simulator). */
  readonly callsPerPoll: CallsPerPoll | null;
  /**
   * Reads what the next poll needs (the GBIS source: its ids) before the poller reserves its calls;
   * absent when there is nothing to read.
   * @throws FeedError('config') when the source cannot poll yet (no call is reserved or made then).
   */
  prepare?(): Promise<void>;
  /**
   * Takes one snapshot as of `now`.
   * @throws FeedError on timeout, HTTP error, portal/GBIS error or an unreadable body.
   */
  poll(now: Date, signal: AbortSignal): Promise<FeedSnapshot>;
}

/**
 * Why a poll failed. 'budget': our own daily quota (GBIS_DAILY_QUOTA) is spent, so no call was made.
 * 'database': our database failed, so the calls could not be reserved (none was made) or the
 * outcome could not be stored.
 */
export type FeedErrorKind = 'timeout' | 'http' | 'portal' | 'gbis' | 'body' | 'config' | 'budget' | 'database';

/** A failed poll; `kind` says why, `message` is for the log (never shown to users). */
export class FeedError extends Error {
  constructor(
    readonly kind: FeedErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}
