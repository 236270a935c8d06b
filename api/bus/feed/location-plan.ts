/**
 * When to read each route's location list (getBusLocationListv2, one call per route): the calls go
 * where they time departures from the campus terminus (docs/gbis.md §Quota, ADR 031). The arrival
 * list, read far more often, says when each bus passes the campus crossroads; a bus leaves the
 * terminus some minutes after that (the campus section, then its layover). So a route is read once
 * before the earliest moment its bus can leave, to see it still there, then every `hotSec` until it
 * is seen gone, and otherwise rarely. What "some minutes" is, is learnt per route from the
 * departures this plan has seen (the lead, from the crossroads to the departure).
 */
import { DepartureDetector } from '../predictions/departures/detector';
import { dayType, serviceClock } from '../../time';
import { timetableMinutes, type RouteConfig } from './transit-config';
import { MAX_POLL_SEC, MIN_POLL_SEC, serviceSecondsLeftToday } from './poll-plan';
import { formatKstDate } from '../../../contract/kst';
import { locationsReadMs, type FeedSnapshot, type VehiclePosition } from '../../../contract/feed-snapshot';
import type { FeedSourceName } from '../../../contract/bus';

const SEC = 1000;
const MIN = 60 * SEC;

/** With nothing coming, a route is read at this many times its even share of the calls left. */
const IDLE_SHARE_FACTOR = 2;
/** Ceiling of the interval while a bus may be leaving, in seconds: a departure is timed within half of it. */
const HOT_MAX_SEC = 5 * 60;

/**
 * Lead from the crossroads to the departure before any is learnt for a route, in minutes: the
 * earliest and the spread (the campus section takes a few minutes, the layover of transit-config
 * 6–10; docs/gbis.md §Quota).
 */
const DEFAULT_LEAD_MIN = { earliest: 6, spread: 14 } as const;
/** Leads kept per route (the latest), and how many make a learnt lead. */
const LEADS_KEPT = 30;
const LEADS_LEARNT = 5;
/** A pass this long ago whose departure was never seen is forgotten (the bus went unseen). */
const PASS_FORGOTTEN_MS = 60 * MIN;

/** One bus passing (or due to pass) the campus crossroads, from the arrival list. */
type Pass = { routeNo: string; atMs: number; seenWaiting: boolean };

/** A route's learnt lead, ms: the earliest departure after its crossroads pass, and the window to watch. */
type Lead = { earliestMs: number; spreadMs: number };

export type LocationPlanInput = {
  now: Date;
  /** The merged feed so far (FeedSnapshot.locationsTakenAt gives each route's last read). */
  snapshot: FeedSnapshot | null;
  /** The routes whose location lists can be read, with their timetables. */
  routes: readonly RouteConfig[];
  /** Location calls the quota still allows today (after its reserve). */
  callsLeft: number;
};

/**
 * Follows the feed's snapshots (observe, in order) and tells when each route's location list is
 * due (dueMs). Memory only: after a restart it starts from the defaults and learns again.
 */
export class LocationPlan {
  private readonly passes = new Map<string, Pass>();
  private readonly leads = new Map<string, number[]>();
  private readonly detector: DepartureDetector;

  constructor(source: FeedSourceName) {
    this.detector = new DepartureDetector(source);
  }

  /**
   * Learns from a new snapshot: each arrival's crossroads pass (takenAt + predictTimeSec, by routeNo
   * and vehId), which waiting buses were seen, and the lead of each departure completed.
   */
  observe(snapshot: FeedSnapshot): void {
    const takenMs = Date.parse(snapshot.takenAt);
    for (const arrival of snapshot.arrivals) {
      const id = arrival.vehId ?? arrival.plateNo;
      if (id === null) continue;
      const key = `${arrival.routeNo}|${id}`;
      const atMs = takenMs + arrival.predictTimeSec * SEC;
      const known = this.passes.get(key);
      this.passes.set(key, { routeNo: arrival.routeNo, atMs, seenWaiting: known?.seenWaiting ?? false });
    }
    for (const vehicle of snapshot.vehicles) {
      const pass = this.passes.get(`${vehicle.routeNo}|${vehicle.vehId}`);
      if (pass && waiting(vehicle, snapshot) && locationsReadMs(snapshot, vehicle.routeNo) >= pass.atMs) {
        pass.seenWaiting = true;
      }
    }
    for (const departure of this.detector.observe(snapshot)) {
      const key = `${departure.routeNo}|${departure.vehId}`;
      const pass = this.passes.get(key);
      if (!pass) continue;
      this.passes.delete(key);
      this.learnLead(departure.routeNo, departure.departedAt.getTime() - pass.atMs);
    }
    for (const [key, pass] of this.passes) if (takenMs - pass.atMs > PASS_FORGOTTEN_MS) this.passes.delete(key);
  }

  /** Learns one lead of `routeNo` (ms from a crossroads pass to the departure), keeping the LEADS_KEPT latest. */
  learnLead(routeNo: string, leadMs: number): void {
    this.leads.set(routeNo, [...(this.leads.get(routeNo) ?? []), leadMs].slice(-LEADS_KEPT));
  }

  /**
   * When each route's location list is next due, ms since the epoch, per routeNo of `routes`; a
   * route never read is due at `now`. Infinity when no call is left today.
   * - a bus of the route passed the crossroads (or will) and has not been seen leaving: at its
   *   earliest departure less `hotSec` until seen waiting (so a read sees it before it leaves), then
   *   at its earliest departure, then every `hotSec`;
   * - a bus waiting in the campus section or at the terminus, with no pass known: every `hotSec`;
   * - else every `idleSec`.
   * Never sooner than MIN_POLL_SEC after the route's last read.
   */
  dueMs(input: LocationPlanInput): Map<string, number> {
    const { now, snapshot, routes, callsLeft } = input;
    const nowMs = now.getTime();
    const hotMs = this.hotSec(input) * SEC;
    const idleMs = idleSec(input) * SEC;
    const due = new Map<string, number>();
    for (const { routeNo } of routes) {
      if (callsLeft <= 0) {
        due.set(routeNo, Infinity);
        continue;
      }
      if (!snapshot || (snapshot.locationsTakenAt && !(routeNo in snapshot.locationsTakenAt))) {
        due.set(routeNo, nowMs);
        continue;
      }
      const lastMs = locationsReadMs(snapshot, routeNo);
      const lead = this.leadOf(routeNo);
      let next = lastMs + idleMs;
      for (const pass of this.passes.values()) {
        if (pass.routeNo !== routeNo) continue;
        const earliestMs = pass.atMs + lead.earliestMs;
        const passDue = pass.seenWaiting ? Math.max(lastMs + hotMs, earliestMs) : earliestMs - hotMs;
        next = Math.min(next, passDue);
      }
      const unannounced = snapshot.vehicles.some(
        (vehicle) =>
          vehicle.routeNo === routeNo &&
          waiting(vehicle, snapshot) &&
          !this.passes.has(`${vehicle.routeNo}|${vehicle.vehId}`),
      );
      if (unannounced) next = Math.min(next, lastMs + hotMs);
      due.set(routeNo, Math.max(next, lastMs + MIN_POLL_SEC * SEC));
    }
    return due;
  }

  /**
   * Seconds between reads while a bus may be leaving: the window to watch (the lead's spread)
   * over the calls each departure left today can have, one of them spent seeing the bus wait, the
   * rest watching; within [MIN_POLL_SEC, HOT_MAX_SEC].
   */
  hotSec(input: LocationPlanInput): number {
    const departures = Math.max(1, departuresLeft(input.routes, input.now));
    const perDeparture = input.callsLeft / departures;
    const spreadMs = Math.max(...input.routes.map((route) => this.leadOf(route.routeNo).spreadMs));
    const watching = Math.max(1, perDeparture - 1);
    return Math.round(Math.min(HOT_MAX_SEC, Math.max(MIN_POLL_SEC, spreadMs / SEC / watching)));
  }

  /** The route's lead: from its learnt leads (10th percentile, and the 90th less it) once LEADS_LEARNT, else the default. */
  leadOf(routeNo: string): Lead {
    const leads = [...(this.leads.get(routeNo) ?? [])].sort((a, b) => a - b);
    if (leads.length < LEADS_LEARNT) {
      return { earliestMs: DEFAULT_LEAD_MIN.earliest * MIN, spreadMs: DEFAULT_LEAD_MIN.spread * MIN };
    }
    const at = (q: number) => leads[Math.min(leads.length - 1, Math.floor(q * leads.length))];
    const earliestMs = at(0.1) - MIN;
    return { earliestMs, spreadMs: Math.max(2 * MIN, at(0.9) - earliestMs) };
  }
}

/**
 * Seconds between reads of a route with nothing coming: IDLE_SHARE_FACTOR times its even share of
 * the calls left over the service time left in the quota day, within [MIN_POLL_SEC, MAX_POLL_SEC].
 */
function idleSec({ now, routes, callsLeft }: LocationPlanInput): number {
  const evenSec = (serviceSecondsLeftToday(now) * routes.length) / Math.max(1, callsLeft);
  return Math.round(Math.min(MAX_POLL_SEC, Math.max(MIN_POLL_SEC, IDLE_SHARE_FACTOR * evenSec)));
}

/** A vehicle that has not left the campus yet: in the up campus section, or at the terminus not left (stateCd ≠ 2). */
function waiting(vehicle: VehiclePosition, snapshot: FeedSnapshot): boolean {
  if (vehicle.section) return vehicle.section.direction === 'up';
  return vehicle.stationId === snapshot.terminusStationId && vehicle.stateCd !== 2;
}

/**
 * Departures the routes' timetables still hold in `now`'s quota day (the KST calendar day: the rest
 * of its service day and, from 00:00 to 00:30, the next whole one): per route and service day, the
 * minutes from then (or its first bus) to its last bus over its mean headway (GBIS
 * getBusRouteInfoItemv2 fields of transit-config), plus one.
 */
export function departuresLeft(routes: readonly RouteConfig[], now: Date): number {
  const { serviceDate, minuteOfDay } = serviceClock(now);
  const today = formatKstDate(now);
  const next = today === serviceDate ? 0 : departuresFrom(routes, today, 0);
  return departuresFrom(routes, serviceDate, minuteOfDay) + next;
}

function departuresFrom(routes: readonly RouteConfig[], serviceDate: string, minuteOfDay: number): number {
  const day = dayType(serviceDate);
  return routes.reduce((sum, route) => {
    const { first, last, minHeadwayMin, maxHeadwayMin } = route.timetable[day];
    const fromMin = Math.max(minuteOfDay, timetableMinutes(first));
    const lastMin = timetableMinutes(last);
    if (fromMin > lastMin) return sum;
    return sum + Math.floor((lastMin - fromMin) / ((minHeadwayMin + maxHeadwayMin) / 2)) + 1;
  }, 0);
}
