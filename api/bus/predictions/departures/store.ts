/**
 * Observed departures in the database: storing them once, loading a feed's service dates, the demo
 * feed's back-filled history, and the poller's hook that detects (detector.ts) and stores.
 */
import { setImmediate } from 'node:timers/promises';
import { and, asc, between, eq, inArray, lt } from 'drizzle-orm';
import type { FeedSourceName } from '../../../../contract/bus';
import type { Db } from '../../../db/client';
import { departures } from '../../../db/schema';
import { failureLog } from '../../../../lib/failure-log';
import type { Logger } from '../../../logger';
import { addServiceDays, serviceClock } from '../../../time';
import type { PredictionJobs } from '../jobs';
import type { FeedSnapshot } from '../../../../contract/feed-snapshot';
import { DepartureDetector, MAX_DEPARTURE_GAP_SEC, type DepartureRecord } from './detector';

const SEC = 1000;

/**
 * Rows per INSERT, with a turn of the event loop between two: building and running one costs the
 * serving thread ~25 ms (drizzle's query builder, PGlite's own work on the same thread), so that a
 * long list (the demo back-fill's 5,452 rows) does not hold the pages up for a second and a half.
 */
const INSERT_BATCH = 100;

/**
 * Stores departures, skipping those already stored: an identical row (unique on source, routeNo,
 * vehId, departedAt), or one of the same source, route and vehicle less than
 * MAX_DEPARTURE_GAP_SEC from a stored or earlier-listed departure, which is the same departure
 * seen again at other poll instants (a restart under CLOCK_START replays the same minutes; no bus
 * comes round in 20 min). Storing the same records twice stores nothing new.
 * @returns how many rows were inserted.
 * @throws on a database error (earlier batches of a long list stay stored).
 */
export async function saveDepartures(db: Db, records: readonly DepartureRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const windowMs = MAX_DEPARTURE_GAP_SEC * SEC;
  const times = records.map((record) => record.departedAt.getTime());
  const nearby = await db
    .select({
      source: departures.source,
      routeNo: departures.routeNo,
      vehId: departures.vehId,
      departedAt: departures.departedAt,
    })
    .from(departures)
    .where(
      and(
        inArray(departures.source, [...new Set(records.map((record) => record.source))]),
        between(
          departures.departedAt,
          new Date(Math.min(...times) - windowMs),
          new Date(Math.max(...times) + windowMs),
        ),
      ),
    );
  // Departure instants (ms) per source, route and vehicle: the stored ones nearby, then those kept.
  const instants = new Map<string, number[]>();
  const instantsOf = (run: { source: string; routeNo: string; vehId: string }) => {
    const key = `${run.source}|${run.routeNo}|${run.vehId}`;
    const list = instants.get(key) ?? [];
    instants.set(key, list);
    return list;
  };
  for (const row of nearby) instantsOf(row).push(row.departedAt.getTime());
  const fresh = records.filter((record) => {
    const ms = record.departedAt.getTime();
    const list = instantsOf(record);
    if (list.some((other) => Math.abs(other - ms) < windowMs)) return false;
    list.push(ms);
    return true;
  });

  let stored = 0;
  for (let from = 0; from < fresh.length; from += INSERT_BATCH) {
    // PGlite's promises resolve without a turn of the event loop: make one.
    if (from > 0) await setImmediate();
    const inserted = await db
      .insert(departures)
      .values(fresh.slice(from, from + INSERT_BATCH))
      .onConflictDoNothing()
      .returning({ id: departures.id });
    stored += inserted.length;
  }
  return stored;
}

/**
 * Service dates read per query by loadDepartures, with a turn of the event loop between two: a
 * query's rows are made on the serving thread (PGlite, drizzle's mapping), ~5 ms per day of a
 * feed's departures, where a whole window in one query (35 days) held the pages up for 140 ms.
 */
const LOAD_DAYS_PER_QUERY = 3;

/**
 * The stored departures of one feed whose KST service dates ("yyyy-MM-dd") lie in
 * [fromDate, toDate], both inclusive, ordered by departedAt (then routeNo, vehId), read
 * LOAD_DAYS_PER_QUERY dates at a time.
 * @throws on a database error.
 */
export async function loadDepartures(
  db: Db,
  range: { source: FeedSourceName; fromDate: string; toDate: string },
): Promise<DepartureRecord[]> {
  const records: DepartureRecord[] = [];
  for (let from = range.fromDate; from <= range.toDate; from = addServiceDays(from, LOAD_DAYS_PER_QUERY)) {
    if (from > range.fromDate) await setImmediate();
    const last = addServiceDays(from, LOAD_DAYS_PER_QUERY - 1);
    const rows = await db
      .select({
        routeNo: departures.routeNo,
        vehId: departures.vehId,
        serviceDate: departures.serviceDate,
        departedAt: departures.departedAt,
        gapSec: departures.gapSec,
        arrivedAt: departures.arrivedAt,
        backfilled: departures.backfilled,
      })
      .from(departures)
      .where(
        and(
          eq(departures.source, range.source),
          between(departures.serviceDate, from, last < range.toDate ? last : range.toDate),
        ),
      )
      .orderBy(asc(departures.departedAt), asc(departures.routeNo), asc(departures.vehId));
    for (const row of rows) records.push({ source: range.source, ...row });
  }
  return records;
}

/**
 * Gives a fresh demo deployment a history to predict from: when the database holds no demo
 * departure before today (the running poller may have stored some of today's), stores the
 * departures of the `days` service days before the service day of `now`, as the worker thread's
 * `demoHistory` job (jobs.ts) simulates them with `seed`. One transaction; several instances
 * starting at once store each row once.
 * @returns how many rows were stored (0 when demo departures already existed).
 * @throws what the job or the database throws (nothing is stored).
 */
export async function backfillDemoHistory(
  db: Db,
  options: { seed: number; now: Date; days: number; jobs: Pick<PredictionJobs, 'demoHistory'> },
): Promise<number> {
  const { seed, now, days, jobs } = options;
  const today = serviceClock(now).serviceDate;
  // Past days only: the running demo poller may already have stored some of today's.
  const existing = await db
    .select({ id: departures.id })
    .from(departures)
    .where(and(eq(departures.source, 'demo'), lt(departures.serviceDate, today)))
    .limit(1);
  if (existing.length > 0) return 0;
  const records = await jobs.demoHistory({ seed, today, days });
  return db.transaction((tx) => saveDepartures(tx, records));
}

/** Departures kept for retry while the database fails: about two days of all routes' runs. */
export const MAX_UNSAVED_DEPARTURES = 500;

/**
 * The poller's snapshot hook for one feed: runs a DepartureDetector over each good snapshot and
 * stores what it detects. Never throws: a failure (database down) is logged once until storing
 * works again, and the unsaved departures are retried with the next snapshot; at most
 * MAX_UNSAVED_DEPARTURES of them are kept (the newest), the count dropped logged on recovery.
 */
export function departureRecorder(
  db: Db,
  source: FeedSourceName,
  logger: Logger,
): (snapshot: FeedSnapshot) => Promise<void> {
  const detector = new DepartureDetector(source);
  let unsaved: DepartureRecord[] = [];
  let dropped = 0;
  const storing = failureLog(logger, {
    failing: `[departures] ${source}: cannot detect or store departures; retrying with the next snapshot`,
    recovered: `[departures] ${source}: storing departures works again.`,
  });
  return async (snapshot) => {
    try {
      unsaved = [...unsaved, ...detector.observe(snapshot)];
      dropped += Math.max(0, unsaved.length - MAX_UNSAVED_DEPARTURES);
      unsaved = unsaved.slice(-MAX_UNSAVED_DEPARTURES);
      if (unsaved.length > 0) await saveDepartures(db, unsaved);
      unsaved = [];
      storing.ok();
      if (dropped > 0)
        logger.warn(`[departures] ${source}: ${dropped} departures detected meanwhile were dropped (the oldest).`);
      dropped = 0;
    } catch (error) {
      storing.fail(error);
    }
  };
}
