/**
 * Observed departures from the campus terminus (the down direction's start, before down stop 0):
 * their detection from successive vehicle-location snapshots. Pure; storage is store.ts.
 */
import type { FeedSourceName } from '../../../../contract/bus';
import { serviceClock } from '../../../time';
import { locationsReadMs, type FeedSnapshot, type VehiclePosition } from '../../../../contract/feed-snapshot';

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
  /**
   * When the same run passed the campus crossroads coming up: as the arrival list last put it there
   * (takenAt + predictTimeSec of its latest arrival, read far more often than the locations), else
   * its first location read in the up section; null when neither saw it.
   */
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

/**
 * A crossroads pass (from the arrival list) counts as the run's arrivedAt when it is at most this
 * long before the departure: longer, and it was the vehicle's previous run.
 */
const MAX_PASS_LEAD_MS = 60 * 60 * 1000;

/** GBIS stateCd of a vehicle that has left the stop it is reported at (docs/gbis.md §Field names). */
const LEFT_STOP = 2;

const SEC = 1000;

/** What the detector remembers of a vehicle's current run. */
type Run = {
  /** Read time (ms, the route's location read) of the vehicle's latest observation. */
  lastSeenMs: number;
  /** The latest observation before the departure: read time (ms) and stationSeq. */
  before: { atMs: number; stationSeq: number } | null;
  /** Read time (ms) of the run's first observation in the up section. */
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

function phaseOf(vehicle: VehiclePosition, run: Run | undefined, terminusId: string | undefined): Phase {
  if (vehicle.section) return vehicle.section.direction === 'up' ? 'before' : 'after';
  if (vehicle.stationId === terminusId) return vehicle.stateCd === LEFT_STOP ? 'after' : 'before';
  return run?.before && vehicle.stationSeq > run.before.stationSeq ? 'after' : 'road';
}

/**
 * Detects departures from the campus terminus (each snapshot's terminusStationId: the ids the source
 * polled with, so a GBIS setup saved on the admin page applies from its next poll) in successive snapshots
 * of one feed: `observe` returns at most one DepartureRecord per vehicle run (routeNo, vehId), the
 * pair of its last before- and first after-observation (Phase): departedAt their midpoint, gapSec
 * their distance in seconds, serviceDate the KST service day of departedAt (serviceClock), arrivedAt
 * its first up-section observation or null. Nothing is recorded for a pair more than
 * MAX_DEPARTURE_GAP_SEC apart, a pair broken by a new run, or a run first seen after it left.
 * Deterministic: the same snapshots give the same records. Why the terminus and not 파란지붕, the
 * unverified default terminus id, and the run and gap rules: docs/predictions.md §Observed departures.
 */
export class DepartureDetector {
  private readonly runs = new Map<string, Run>();
  /** Per routeNo, the latest location read seen (ms): a snapshot that did not read a route again tells nothing new of it. */
  private readonly lastReadMs = new Map<string, number>();
  /** Per "routeNo|vehId", when the arrival list last put the bus at the campus crossroads (ms): takenAt + predictTimeSec. */
  private readonly passes = new Map<string, number>();
  private lastArrivalsMs = -Infinity;

  constructor(readonly source: FeedSourceName) {}

  /**
   * Feeds one snapshot (in order) and returns the departures it completes. Each vehicle counts as
   * observed at its route's location read (FeedSnapshot.locationsTakenAt), and only a route read
   * since the previous snapshot is looked at.
   * @throws Error when the snapshot comes from another source than the detector's.
   */
  observe(snapshot: FeedSnapshot): DepartureRecord[] {
    if (snapshot.source !== this.source) {
      throw new Error(`DepartureDetector(${this.source}) got a ${snapshot.source} snapshot`);
    }
    const takenMs = Date.parse(snapshot.takenAt);
    if (takenMs > this.lastArrivalsMs) {
      this.lastArrivalsMs = takenMs;
      for (const arrival of snapshot.arrivals) {
        const id = arrival.vehId ?? arrival.plateNo;
        if (id !== null) this.passes.set(`${arrival.routeNo}|${id}`, takenMs + arrival.predictTimeSec * SEC);
      }
    }
    const fresh = new Map<string, number>();
    for (const { routeNo } of snapshot.vehicles) {
      const readMs = locationsReadMs(snapshot, routeNo);
      if (readMs > (this.lastReadMs.get(routeNo) ?? -Infinity)) fresh.set(routeNo, readMs);
    }
    for (const [routeNo, readMs] of fresh) this.lastReadMs.set(routeNo, readMs);

    const records: DepartureRecord[] = [];
    for (const vehicle of snapshot.vehicles) {
      const atMs = fresh.get(vehicle.routeNo);
      if (atMs === undefined) continue;
      const key = `${vehicle.routeNo}|${vehicle.vehId}`;
      const known = this.runs.get(key);
      const phase = phaseOf(vehicle, known, snapshot.terminusStationId);
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
      const passMs = this.passes.get(key);
      const passed =
        passMs !== undefined && passMs <= departedAt.getTime() && departedAt.getTime() - passMs <= MAX_PASS_LEAD_MS;
      const arrivedAtMs = passed ? passMs : run.arrivedAtMs;
      records.push({
        source: this.source,
        routeNo: vehicle.routeNo,
        vehId: vehicle.vehId,
        serviceDate: serviceClock(departedAt).serviceDate,
        departedAt,
        gapSec: Math.round(gapMs / SEC),
        arrivedAt: arrivedAtMs === null ? null : new Date(arrivedAtMs),
        backfilled: false,
      });
    }

    const latestMs = Math.max(...this.lastReadMs.values());
    for (const [key, run] of this.runs) {
      if (latestMs - run.lastSeenMs > MAX_DEPARTURE_GAP_SEC * SEC) this.runs.delete(key);
    }
    for (const [key, passMs] of this.passes) if (takenMs - passMs > MAX_PASS_LEAD_MS) this.passes.delete(key);
    return records;
  }
}
