/**
 * Observed departures from the campus terminus (the down direction's start, before DOWN_STOPS[0]):
 * detection from successive vehicle-location snapshots, storage, and the demo feed's back-filled
 * history.
 */
import { and, asc, between, eq, inArray, lt } from 'drizzle-orm';
import type { FeedSourceName } from '../../../../contract/bus';
import type { Db } from '../../../db/client';
import { departures } from '../../../db/schema';
import { failureLog } from '../../../failure-log';
import type { Logger } from '../../../logger';
import { addServiceDays, serviceClock } from '../../../time';
import { planDay } from '../../feed/demo/simulator';
import { FREE_POLL_SEC } from '../../feed/poll-plan';
import type { FeedSnapshot, VehiclePosition } from '../../feed/snapshot';
import { CAMPUS_TERMINUS } from '../../feed/transit-config';

/** One vehicle run leaving the down terminus (a row of the departures table). */
export type DepartureRecord = {
  source: FeedSourceName;
  routeNo: string;
  vehId: string;
  /** KST service day "yyyy-MM-dd" of the departure (00:00–00:30 belongs to the previous day). */
  serviceDate: string;
  /** Best estimate between the last observation before leaving and the first after. */
  departedAt: Date;
  /** Seconds between those two observations: the estimate's uncertainty. */
  gapSec: number;
  /** When the same run passed the campus crossroads coming up, if it was seen there. */
  arrivedAt: Date | null;
  /** True for the demo feed's simulated back-filled history. */
  backfilled: boolean;
};

/**
 * Longest time, in seconds, between the last observation before a departure and the first after
 * it for the pair to count: a longer gap means the poller was down or the feed failed, and the
 * departure time is too uncertain to record.
 */
export const MAX_DEPARTURE_GAP_SEC = 20 * 60;

/** GBIS stateCd of a vehicle that has left the stop it is reported at (gbis.md, Location fields). */
const LEFT_STOP = 2;

/**
 * stationId of the campus terminus per feed.
 * NOTE: the demo's id is fixed by api/bus/demo/simulator.ts (its module docstring lists its ids).
 */
const TERMINUS_STATION_ID: Record<FeedSourceName, string> = {
  gbis: CAMPUS_TERMINUS.stationId,
  demo: 'demo-terminus',
};

const SEC = 1000;

/** What the detector remembers of a vehicle's current run. */
type Run = {
  /** takenAt (ms) of the vehicle's latest observation. */
  lastSeenMs: number;
  /** The latest observation before the departure: takenAt (ms) and stationSeq. */
  before: { atMs: number; stationSeq: number } | null;
  /** takenAt (ms) of the run's first observation in the up section. */
  arrivedAtMs: number | null;
  /** Set by the run's first after-observation: the run departs at most once. */
  departed: boolean;
};

/**
 * Where one observation puts a vehicle relative to its departure:
 * - before: on the up section, or at the terminus not yet left (stateCd other than 2);
 * - after: at the terminus with stateCd 2 (left), on the down section, or at another stop with a
 *   stationSeq greater than the run's last before-observation (beyond the down section);
 * - road: any other stop, on its way toward the campus as far as the feed tells.
 */
type Phase = 'before' | 'after' | 'road';

function phaseOf(vehicle: VehiclePosition, run: Run | undefined, terminusId: string): Phase {
  if (vehicle.section) return vehicle.section.direction === 'up' ? 'before' : 'after';
  if (vehicle.stationId === terminusId) return vehicle.stateCd === LEFT_STOP ? 'after' : 'before';
  return run?.before && vehicle.stationSeq > run.before.stationSeq ? 'after' : 'road';
}

/**
 * Detects departures from the campus terminus in successive snapshots of one feed, one record
 * per vehicle run. Per vehicle (routeNo, vehId), each observation is classified (see Phase):
 * before (up section, or waiting at the terminus), after (left the terminus: GBIS stateCd 2 there,
 * the down section, or a stop further along the route by stationSeq), or road.
 *
 * - A departure is the pair (last before-observation, first after-observation) of a run:
 *   departedAt is their midpoint, gapSec their distance in seconds, serviceDate the KST service
 *   day of departedAt (serviceClock: 00:10 belongs to the day before), arrivedAt the run's first
 *   observation in the up section (the campus crossroads passed; late by up to one poll), else null.
 * - A run departs once: after-observations that follow (the down section, a stateCd flicker at the
 *   terminus) add nothing, and a bus seen many times at the terminus departs once.
 * - A new run starts when the vehicle is seen on the road with a stationSeq not above its last
 *   before-observation (it turned back, or starts its next trip from the far end), or in the up
 *   section after its departure. The pair is then broken: no departure.
 * - Nothing is recorded when the pair is more than MAX_DEPARTURE_GAP_SEC apart (the poller was
 *   down, the feed failed, the vehicle vanished), nor when the run was first seen after it left
 *   (the first snapshot after a restart has no before-observation).
 *
 * The terminus is told by stationId (CAMPUS_TERMINUS for GBIS, `demo-terminus` for the demo), not
 * by stationSeq. Departures are timed when the bus leaves the terminus rather than DOWN_STOPS[0]
 * (파란지붕): that is the timetable's and the demo's departure, and the stop 1–3 min later would
 * add that travel time to every estimate. stationSeq is compared only off the campus section:
 * routes that start at the campus (1117, see gbis/discover.ts campusTerminusOf) number the terminus
 * 1, so a real departure may lower it.
 * NOTE: CAMPUS_TERMINUS's GBIS id is unverified. With a wrong id, a bus waiting at the real
 * terminus reads as a stop past the up section (after), so departures would be timed at its
 * arrival there: verify the id (npm run gbis:discover) before trusting GBIS departures.
 *
 * Deterministic: the records depend only on the snapshots, so two detectors over the same
 * sequence return the same records, which saveDepartures stores once. Snapshots not newer than
 * the last one are ignored; vehicles unseen for MAX_DEPARTURE_GAP_SEC are forgotten.
 */
export class DepartureDetector {
  private readonly runs = new Map<string, Run>();
  private readonly terminusId: string;
  private lastTakenMs = -Infinity;

  constructor(readonly source: FeedSourceName) {
    this.terminusId = TERMINUS_STATION_ID[source];
  }

  /**
   * Feeds one snapshot (in takenAt order) and returns the departures it completes.
   * @throws Error when the snapshot comes from another source than the detector's.
   */
  observe(snapshot: FeedSnapshot): DepartureRecord[] {
    if (snapshot.source !== this.source) {
      throw new Error(`DepartureDetector(${this.source}) got a ${snapshot.source} snapshot`);
    }
    const atMs = Date.parse(snapshot.takenAt);
    if (atMs <= this.lastTakenMs) return [];
    this.lastTakenMs = atMs;

    const records: DepartureRecord[] = [];
    for (const vehicle of snapshot.vehicles) {
      const key = `${vehicle.routeNo}|${vehicle.vehId}`;
      const known = this.runs.get(key);
      const phase = phaseOf(vehicle, known, this.terminusId);
      const comingBack = known?.departed && vehicle.section?.direction === 'up';
      const run: Run =
        !known || phase === 'road' || comingBack
          ? { lastSeenMs: atMs, before: null, arrivedAtMs: null, departed: false }
          : known;
      run.lastSeenMs = atMs;
      this.runs.set(key, run);
      if (run.departed || phase === 'road') continue;

      if (phase === 'before') {
        run.before = { atMs, stationSeq: vehicle.stationSeq };
        if (vehicle.section && run.arrivedAtMs === null) run.arrivedAtMs = atMs;
        continue;
      }
      run.departed = true;
      const gapMs = run.before ? atMs - run.before.atMs : Infinity;
      if (!run.before || gapMs > MAX_DEPARTURE_GAP_SEC * SEC) continue;
      const departedAt = new Date(Math.round(run.before.atMs + gapMs / 2));
      records.push({
        source: this.source,
        routeNo: vehicle.routeNo,
        vehId: vehicle.vehId,
        serviceDate: serviceClock(departedAt).serviceDate,
        departedAt,
        gapSec: Math.round(gapMs / SEC),
        arrivedAt: run.arrivedAtMs === null ? null : new Date(run.arrivedAtMs),
        backfilled: false,
      });
    }

    for (const [key, run] of this.runs) {
      if (atMs - run.lastSeenMs > MAX_DEPARTURE_GAP_SEC * SEC) this.runs.delete(key);
    }
    return records;
  }
}

/** Rows per INSERT: 8 parameters each, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1000;

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
 * The stored departures of one feed whose KST service dates ("yyyy-MM-dd") lie in
 * [fromDate, toDate], both inclusive, ordered by departedAt (then routeNo, vehId).
 */
export async function loadDepartures(
  db: Db,
  range: { source: FeedSourceName; fromDate: string; toDate: string },
): Promise<DepartureRecord[]> {
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
    .where(and(eq(departures.source, range.source), between(departures.serviceDate, range.fromDate, range.toDate)))
    .orderBy(asc(departures.departedAt), asc(departures.routeNo), asc(departures.vehId));
  return rows.map((row) => ({ source: range.source, ...row }));
}

/**
 * Gives a fresh demo deployment a history to predict from: when the database holds no demo
 * departure before today (the running poller may have stored some of today's), stores the departures of the `days` service days before the service day of
 * `now` as planned by the simulator (planDay with `seed`): departedAt = the trip's departure,
 * arrivedAt = its time at the campus crossroads (UP_STOPS[0]), gapSec = FREE_POLL_SEC (the demo's
 * poll interval), backfilled true. One transaction; several instances starting at once store each
 * row once.
 * @returns how many rows were stored (0 when demo departures already existed).
 */
export async function backfillDemoHistory(
  db: Db,
  options: { seed: number; now: Date; days?: number },
): Promise<number> {
  const { seed, now, days = 28 } = options;
  const today = serviceClock(now).serviceDate;
  // Past days only: the running demo poller may already have stored some of today's.
  const existing = await db
    .select({ id: departures.id })
    .from(departures)
    .where(and(eq(departures.source, 'demo'), lt(departures.serviceDate, today)))
    .limit(1);
  if (existing.length > 0) return 0;

  const records: DepartureRecord[] = [];
  for (let back = days; back >= 1; back -= 1) {
    for (const trip of planDay(seed, addServiceDays(today, -back))) {
      records.push({
        source: 'demo',
        routeNo: trip.routeNo,
        vehId: trip.vehicle.vehId,
        serviceDate: trip.serviceDate,
        departedAt: trip.departure,
        gapSec: FREE_POLL_SEC,
        arrivedAt: trip.upStops[0],
        backfilled: true,
      });
    }
  }
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
