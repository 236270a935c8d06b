/** Persistence of the bus feed: its latest state and the upstream calls spent per KST day. */
import { eq, sql } from 'drizzle-orm';
import type { FeedSourceName } from '../../../contract/bus';
import type { Db } from '../../db/client';
import { feedStates, upstreamCalls } from '../../db/schema';
import type { CallsPerPoll, FeedSnapshot } from './snapshot';

/** The feed as every api instance sees it: the last good snapshot and whether polls fail since. */
export type FeedState = {
  source: FeedSourceName;
  snapshot: FeedSnapshot | null;
  /** Message of the last failed poll since the last good one; null while healthy. */
  lastError: string | null;
  failingSince: Date | null;
  /** When the poller means to poll next (null before it has planned). */
  nextPollAt: Date | null;
};

/** The state of a feed that has never polled. */
export function emptyFeedState(source: FeedSourceName): FeedState {
  return { source, snapshot: null, lastError: null, failingSince: null, nextPollAt: null };
}

/** The stored state of `source`'s feed, or the empty state before its first poll. */
export async function loadFeedState(db: Db, source: FeedSourceName): Promise<FeedState> {
  const [row] = await db.select().from(feedStates).where(eq(feedStates.feed, source));
  if (!row) return emptyFeedState(source);
  const { snapshot, lastError, failingSince, nextPollAt } = row;
  return { source, snapshot, lastError, failingSince, nextPollAt };
}

/** Upserts `state` (one row per feed); `now` is stored as updatedAt. */
export async function saveFeedState(db: Db, state: FeedState, now: Date): Promise<void> {
  const values = {
    snapshot: state.snapshot,
    lastError: state.lastError,
    failingSince: state.failingSince,
    nextPollAt: state.nextPollAt,
    updatedAt: now,
  };
  await db
    .insert(feedStates)
    .values({ feed: state.source, ...values })
    .onConflictDoUpdate({ target: feedStates.feed, set: values });
}

/** Calls spent on `day` ("yyyy-MM-dd" KST) per dataset. */
export async function callsSpent(db: Db, day: string): Promise<CallsPerPoll> {
  const rows = await db.select().from(upstreamCalls).where(eq(upstreamCalls.day, day));
  const spent: CallsPerPoll = { arrivals: 0, locations: 0 };
  for (const row of rows) if (row.dataset === 'arrivals' || row.dataset === 'locations') spent[row.dataset] = row.calls;
  return spent;
}

/**
 * Adds the calls of one poll to `day`'s counters (atomic per dataset, safe across instances).
 * @returns the day's totals per dataset after the addition.
 */
export async function recordCalls(db: Db, day: string, calls: CallsPerPoll): Promise<CallsPerPoll> {
  const rows = await db
    .insert(upstreamCalls)
    .values([
      { day, dataset: 'arrivals', calls: calls.arrivals },
      { day, dataset: 'locations', calls: calls.locations },
    ])
    .onConflictDoUpdate({
      target: [upstreamCalls.day, upstreamCalls.dataset],
      set: { calls: sql`${upstreamCalls.calls} + excluded.calls` },
    })
    .returning({ dataset: upstreamCalls.dataset, calls: upstreamCalls.calls });
  const totals: CallsPerPoll = { arrivals: 0, locations: 0 };
  for (const row of rows)
    if (row.dataset === 'arrivals' || row.dataset === 'locations') totals[row.dataset] = row.calls;
  return totals;
}
