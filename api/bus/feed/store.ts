/** Persistence of the bus feed: its latest state and the GBIS calls spent per KST day. */
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import type { FeedSourceName } from '../../../contract/bus';
import type { Db } from '../../db/client';
import { feedStates, gbisCalls } from '../../db/schema';
import type { DatasetCalls } from './snapshot';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';

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

/**
 * Quota datasets the portal counts apart (docs/gbis.md §Quota): arrivals and locations (the poll),
 * routes and stations (discovery: busrouteservice and busstationservice).
 */
export type GbisDataset = 'arrivals' | 'locations' | 'routes' | 'stations';

/** Calls spent on `day` ("yyyy-MM-dd" KST) per dataset of `datasets`; 0 for one with no row. */
async function readCalls<D extends GbisDataset>(
  db: Db,
  day: string,
  datasets: readonly D[],
): Promise<Record<D, number>> {
  const rows = await db.select().from(gbisCalls).where(eq(gbisCalls.day, day));
  return Object.fromEntries(
    datasets.map((dataset) => [dataset, rows.find((row) => row.dataset === dataset)?.calls ?? 0]),
  ) as Record<D, number>;
}

/**
 * Adds `calls` to `day`'s counters (atomic per dataset, safe across instances).
 * @returns the day's totals of those datasets after the addition.
 */
async function addCalls<D extends GbisDataset>(
  db: Db,
  day: string,
  calls: Record<D, number>,
): Promise<Record<D, number>> {
  const rows = await db
    .insert(gbisCalls)
    .values(Object.entries<number>(calls).map(([dataset, count]) => ({ day, dataset, calls: count })))
    .onConflictDoUpdate({
      target: [gbisCalls.day, gbisCalls.dataset],
      set: { calls: sql`${gbisCalls.calls} + excluded.calls` },
    })
    .returning({ dataset: gbisCalls.dataset, calls: gbisCalls.calls });
  return Object.fromEntries(rows.map((row) => [row.dataset, row.calls])) as Record<D, number>;
}

const POLL_DATASETS = ['arrivals', 'locations'] as const;
const DISCOVERY_DATASETS = ['routes', 'stations'] as const;
/** Discovery's calls per dataset (api/bus/feed/gbis/setup-discovery.ts). */
export type DiscoveryCalls = Record<(typeof DISCOVERY_DATASETS)[number], number>;

/** The poll's calls spent on `day` ("yyyy-MM-dd" KST) per dataset. */
export function callsSpent(db: Db, day: string): Promise<DatasetCalls> {
  return readCalls(db, day, POLL_DATASETS);
}

/**
 * Adds the calls of one poll to `day`'s counters (atomic per dataset, safe across instances).
 * @returns the day's totals per dataset after the addition.
 */
export function recordCalls(db: Db, day: string, calls: DatasetCalls): Promise<DatasetCalls> {
  return addCalls(db, day, calls);
}

/** Discovery's calls spent on `day` ("yyyy-MM-dd" KST) per dataset. */
export function discoveryCallsSpent(db: Db, day: string): Promise<DiscoveryCalls> {
  return readCalls(db, day, DISCOVERY_DATASETS);
}

/** Every dataset's calls spent on `day` ("yyyy-MM-dd" KST): the polls' and discovery's, in one read (the setup page). */
export function allCallsSpent(db: Db, day: string): Promise<DatasetCalls & DiscoveryCalls> {
  return readCalls(db, day, [...POLL_DATASETS, ...DISCOVERY_DATASETS]);
}

/**
 * Reserves `calls` of discovery in `day`'s counters ("yyyy-MM-dd" KST) if every dataset stays
 * within `quota` once they are added, else reserves nothing. One statement, so two discoveries at
 * once (the admin page twice, the page and `npm run gbis:discover`, two instances) cannot both
 * judge the same calls left: PostgreSQL checks each counter's condition on its latest value, the
 * other discovery's reservation included.
 * @returns whether the calls were reserved.
 */
export async function reserveDiscoveryCalls(
  db: Db,
  day: string,
  calls: DiscoveryCalls,
  quota: number,
): Promise<boolean> {
  if (DISCOVERY_DATASETS.some((dataset) => calls[dataset] > quota)) return false;
  try {
    await db.transaction(async (tx) => {
      const reserved = await tx
        .insert(gbisCalls)
        .values(DISCOVERY_DATASETS.map((dataset) => ({ day, dataset, calls: calls[dataset] })))
        .onConflictDoUpdate({
          target: [gbisCalls.day, gbisCalls.dataset],
          set: { calls: sql`${gbisCalls.calls} + excluded.calls` },
          // A counter this would take past the quota is left as it is, and not returned.
          setWhere: sql`${gbisCalls.calls} + excluded.calls <= ${quota}`,
        })
        .returning({ dataset: gbisCalls.dataset });
      if (reserved.length < DISCOVERY_DATASETS.length) tx.rollback();
    });
    return true;
  } catch (error) {
    if (error instanceof TransactionRollbackError) return false;
    throw error;
  }
}

/** Gives back to `day`'s counters the calls of a reservation (reserveDiscoveryCalls) that were not made. */
export async function releaseDiscoveryCalls(db: Db, day: string, unmade: DiscoveryCalls): Promise<void> {
  for (const dataset of DISCOVERY_DATASETS) {
    if (unmade[dataset] <= 0) continue;
    await db
      .update(gbisCalls)
      .set({ calls: sql`greatest(${gbisCalls.calls} - ${unmade[dataset]}, 0)` })
      .where(and(eq(gbisCalls.day, day), eq(gbisCalls.dataset, dataset)));
  }
}

/** Adds one discovery call of `dataset` to `day`'s counter, before it is made (as the poller reserves its calls). */
export async function recordDiscoveryCall(db: Db, day: string, dataset: keyof DiscoveryCalls): Promise<void> {
  await addCalls(db, day, { [dataset]: 1 } as Record<typeof dataset, number>);
}
