/**
 * Predicted departures from the campus terminus (spec §3 Predicted departure / Predicted times):
 * pure functions over observed departures (api/bus/departures.ts), no I/O. All times are KST; a
 * run after midnight belongs to its service day (api/time.ts serviceClock: 00:20 is minute 1460 of
 * the day before).
 *
 * For a route and a service date:
 * - dayBefore / weekBefore: the departures observed on the previous service day / 7 days before,
 *   moved to the date at the same KST wall-clock time (whatever those days' day types).
 * - estimate, TransitClock's fallback chain (anchors.md) live → history → timetable:
 *   1. history: the last HISTORY_DAYS earlier days of the same day type (weekday / Saturday /
 *      Sunday or public holiday, api/time.ts dayType) within HISTORY_WINDOW_DAYS that have enough
 *      runs (at least half the median of those days). Each day's runs are matched to a reference
 *      day's (the median-sized day) in order, by nearest time within half the usual headway. A
 *      reference run matched on days weighing at least half of all is kept; its estimate is the
 *      weighted median of the matched times, weighting a day RECENCY_DECAY^k (k = 0 for the
 *      most recent day, 1 for the next…).
 *   2. timetable: with fewer than MIN_HISTORY_DAYS such days, the route's timetable for the day
 *      type (transit-config): `first`, then every mean headway ((min + max) / 2), up to `last`.
 *   3. live (applyLiveEvidence, at request time): an up bus coming to, or past, the campus
 *      crossroads leaves at its arrival there + the route's turnaround (median of departedAt −
 *      arrivedAt in the history, else layoverMin + UP_SECTION_MIN); it counts until LIVE_GRACE_SEC
 *      after that (isLive). It replaces the history or timetable estimate of the same run; and
 *      where every bus has been watched, the estimates before it that no bus was seen for are dropped.
 */
import type { EstimateBasis } from '../../contract/bus';
import { addServiceDays, dayType, kstInstant } from '../time';
import type { DepartureRecord } from './departures';
import { ROUTES, timetableMinutes, type RouteConfig } from './transit-config';

/** What predictions read of an observed departure: a DepartureRecord, or a row of a history CSV. */
export type ObservedDeparture = Pick<DepartureRecord, 'routeNo' | 'serviceDate' | 'departedAt' | 'arrivedAt'>;

/** One predicted departure and what it rests on. */
export type Estimate = { at: Date; basis: EstimateBasis };

/** A route's predicted departures for one service date (spec §3), every list ascending. */
export type RoutePredictions = {
  routeNo: string;
  /** Departures observed on the previous service day, at the same KST wall-clock time on this date. */
  dayBefore: Date[];
  /** Likewise from 7 days before. */
  weekBefore: Date[];
  estimate: Estimate[];
};

/**
 * The history-based prediction of one route for one service date; `estimate` has basis 'history'
 * or 'timetable' (live evidence is applied per request by applyLiveEvidence).
 */
export type RouteDayPlan = RoutePredictions & {
  /** Seconds from passing the campus crossroads (up) to leaving the terminus (down). */
  turnaroundSec: number;
  /** Two times closer than this (seconds, half the usual headway) are taken for the same run. */
  sameRunSec: number;
};

/** Predictions of every route (ROUTES order) for one service date ("yyyy-MM-dd", KST). */
export type DayPlan = { serviceDate: string; routes: RouteDayPlan[] };

/** Service days of history a prediction may read: 5 weeks, so 5 of each weekday and day type. */
export const HISTORY_WINDOW_DAYS = 35;
/** Same-day-type days the history estimate combines, most recent first. */
const HISTORY_DAYS = 6;
/** Fewer same-day-type days than this → timetable estimate. */
const MIN_HISTORY_DAYS = 2;
/** Weight of a day relative to the next more recent one in the weighted median. */
const RECENCY_DECAY = 0.8;
/** Minutes from the campus crossroads to the terminus, added to layoverMin when no turnaround was observed. */
const UP_SECTION_MIN = 8;
/** Observed turnarounds outside (0, this] seconds are mismatched runs and ignored. */
const MAX_TURNAROUND_SEC = 90 * 60;
/** How long past its live departure (arrival + turnaround) a bus not seen leaving still counts as waiting. */
const LIVE_GRACE_SEC = 2 * 60;
/**
 * `fn` remembering its answer per date key. For the KST midnight of a date (tens of microseconds),
 * which a day's plan and a backtest look up thousands of times. NOTE: grows by one entry per distinct date, a few hundred a year.
 */
function perDate<T>(fn: (dateKey: string) => T): (dateKey: string) => T {
  const known = new Map<string, T>();
  return (dateKey) => {
    if (!known.has(dateKey)) known.set(dateKey, fn(dateKey));
    return known.get(dateKey) as T;
  };
}

const midnightMs = perDate((dateKey) => kstInstant(dateKey, 0).getTime());

/** Seconds after 00:00 KST of its service date (above 86,400 for a run after midnight). */
function secondOfDay(departure: ObservedDeparture): number {
  return Math.round((departure.departedAt.getTime() - midnightMs(departure.serviceDate)) / 1000);
}

function atSecond(serviceDate: string, second: number): Date {
  return new Date(midnightMs(serviceDate) + second * 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The smallest value whose cumulative weight (values ascending) reaches half the total. */
function weightedMedian(points: readonly { value: number; weight: number }[]): number {
  const sorted = [...points].sort((a, b) => a.value - b.value);
  const half = sorted.reduce((sum, p) => sum + p.weight, 0) / 2;
  let cumulative = 0;
  for (const point of sorted) {
    cumulative += point.weight;
    if (cumulative >= half) return point.value;
  }
  return sorted[sorted.length - 1].value;
}

/**
 * An order-preserving match of two ascending sequences (seconds) minimising the total time
 * difference, each unmatched element costing tolerance / 2, pairs further apart than `tolerance`
 * never matched. Returns, per element of `reference`, its match in `day` or undefined.
 */
function align(reference: readonly number[], day: readonly number[], tolerance: number): (number | undefined)[] {
  const gap = tolerance / 2;
  const n = reference.length;
  const m = day.length;
  // cost[i][j]: best cost of aligning the first i reference runs with the first j runs of the day.
  const cost = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i + j) * gap));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const difference = Math.abs(reference[i - 1] - day[j - 1]);
      const match = difference <= tolerance ? cost[i - 1][j - 1] + difference : Infinity;
      cost[i][j] = Math.min(match, cost[i - 1][j] + gap, cost[i][j - 1] + gap);
    }
  }
  const matched: (number | undefined)[] = new Array(n).fill(undefined);
  for (let i = n, j = m; i > 0 && j > 0;) {
    const difference = Math.abs(reference[i - 1] - day[j - 1]);
    if (difference <= tolerance && cost[i][j] === cost[i - 1][j - 1] + difference) {
      matched[i - 1] = day[j - 1];
      i--;
      j--;
    } else if (cost[i][j] === cost[i - 1][j] + gap) i--;
    else j--;
  }
  return matched;
}

/**
 * The history estimate from same-day-type days (seconds of day, ascending, most recent day
 * first): see the module docstring, step 1. `tolerance` is in seconds.
 */
function combineDays(days: readonly number[][], tolerance: number): number[] {
  const weights = days.map((_, age) => RECENCY_DECAY ** age);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const bySize = days.map((_, index) => index).sort((a, b) => days[a].length - days[b].length || a - b);
  const ref = bySize[(bySize.length - 1) >> 1];
  const matches = days.map((day, index) => (index === ref ? day : align(days[ref], day, tolerance)));
  return days[ref].flatMap((_, slot) => {
    const points = matches.flatMap((match, index) => {
      const value = match[slot];
      return value === undefined ? [] : [{ value, weight: weights[index] }];
    });
    const weight = points.reduce((sum, p) => sum + p.weight, 0);
    return weight >= total / 2 ? [weightedMedian(points)] : [];
  });
}

/** Departures of one route grouped by service date, in seconds of day, ascending. */
function runsByDate(history: readonly ObservedDeparture[], routeNo: string): Map<string, number[]> {
  const byDate = new Map<string, number[]>();
  for (const departure of history) {
    if (departure.routeNo !== routeNo) continue;
    const runs = byDate.get(departure.serviceDate) ?? [];
    runs.push(secondOfDay(departure));
    byDate.set(departure.serviceDate, runs);
  }
  for (const runs of byDate.values()) runs.sort((a, b) => a - b);
  return byDate;
}

/**
 * The route's timetable for the day type of `serviceDate` (transit-config, GBIS route info):
 * `first`, then every mean headway ((minHeadwayMin + maxHeadwayMin) / 2 minutes), up to `last`.
 */
export function timetableDepartures(route: RouteConfig, serviceDate: string): Date[] {
  const { first, last, minHeadwayMin, maxHeadwayMin } = route.timetable[dayType(serviceDate)];
  const headwaySec = ((minHeadwayMin + maxHeadwayMin) / 2) * 60;
  const times: Date[] = [];
  for (let second = timetableMinutes(first) * 60; second <= timetableMinutes(last) * 60; second += headwaySec) {
    times.push(atSecond(serviceDate, second));
  }
  return times;
}

/**
 * Seconds from passing the campus crossroads (arrivedAt) to leaving the terminus (departedAt):
 * the median over the route's departures whose arrivedAt is known (0–90 min apart), else the
 * route's layoverMin + UP_SECTION_MIN minutes.
 */
export function turnaroundSec(history: readonly ObservedDeparture[], route: RouteConfig): number {
  const observed = history.flatMap(({ routeNo, arrivedAt, departedAt }) => {
    if (routeNo !== route.routeNo || !arrivedAt) return [];
    const seconds = (departedAt.getTime() - arrivedAt.getTime()) / 1000;
    return seconds > 0 && seconds <= MAX_TURNAROUND_SEC ? [seconds] : [];
  });
  return observed.length ? Math.round(median(observed)) : (route.layoverMin + UP_SECTION_MIN) * 60;
}

/**
 * The history-based predictions of every route for `serviceDate` ("yyyy-MM-dd", KST): dayBefore,
 * weekBefore, and the history or timetable estimate (module docstring). Reads only departures of
 * the HISTORY_WINDOW_DAYS service days before `serviceDate`; the rest of `history` is ignored, so
 * a backtest may pass all it has. Never throws; with no history every estimate is the timetable's.
 */
export function predictDay(history: readonly ObservedDeparture[], serviceDate: string): DayPlan {
  const from = addServiceDays(serviceDate, -HISTORY_WINDOW_DAYS);
  const window = history.filter((d) => d.serviceDate >= from && d.serviceDate < serviceDate);
  const type = dayType(serviceDate);
  const sameTypeDates = [...new Set(window.map((d) => d.serviceDate))]
    .filter((date) => dayType(date) === type)
    .sort()
    .reverse();
  const shifted = (byDate: Map<string, number[]>, days: number) =>
    (byDate.get(addServiceDays(serviceDate, -days)) ?? []).map((second) => atSecond(serviceDate, second));

  const routes = ROUTES.map((route): RouteDayPlan => {
    const byDate = runsByDate(window, route.routeNo);
    const sameType = sameTypeDates.flatMap((date) => {
      const runs = byDate.get(date);
      return runs ? [runs] : [];
    });
    const enough = sameType.length ? median(sameType.map((runs) => runs.length)) / 2 : 0;
    const days = sameType.filter((runs) => runs.length >= enough).slice(0, HISTORY_DAYS);
    const headways = days.flatMap((runs) => runs.slice(1).map((second, i) => second - runs[i]));
    const common = { routeNo: route.routeNo, dayBefore: shifted(byDate, 1), weekBefore: shifted(byDate, 7) };
    const turnaround = turnaroundSec(window, route);

    if (days.length < MIN_HISTORY_DAYS || headways.length === 0) {
      const { minHeadwayMin, maxHeadwayMin } = route.timetable[type];
      return {
        ...common,
        estimate: timetableDepartures(route, serviceDate).map((at) => ({ at, basis: 'timetable' })),
        turnaroundSec: turnaround,
        sameRunSec: ((minHeadwayMin + maxHeadwayMin) / 4) * 60,
      };
    }
    const sameRunSec = median(headways) / 2;
    return {
      ...common,
      estimate: combineDays(days, sameRunSec).map((second) => ({
        at: atSecond(serviceDate, second),
        basis: 'history',
      })),
      turnaroundSec: turnaround,
      sameRunSec,
    };
  });
  return { serviceDate, routes };
}

/**
 * Whether a bus reaching (or having reached) the campus crossroads at `arrival` is live evidence
 * at `now`: until LIVE_GRACE_SEC after its live departure, arrival + turnaroundSec; later it is
 * taken to have left unseen. The one rule of the prediction service (the buses it follows) and
 * the backtest (the runs seen at the crossroads by the query).
 */
export function isLive(arrival: Date, now: Date, turnaroundSec: number): boolean {
  return now.getTime() < arrival.getTime() + (turnaroundSec + LIVE_GRACE_SEC) * 1000;
}

/**
 * A route's estimates with live evidence applied. `arrivals` are the instants up buses of the
 * route pass (or passed) the campus crossroads on their way to the terminus, for live runs
 * (isLive); each leaves at arrival + plan.turnaroundSec, and at `now` at the earliest (a bus
 * known to be waiting has not left). Each live departure takes the place of the nearest
 * history/timetable estimate within plan.sameRunSec (the same run, not a second one).
 *
 * `watchingSince`: since when every bus coming to the crossroads has been seen (snapshots without
 * a gap), or null when unknown. A turnaround later the evidence is complete: every run leaving
 * between then and the last live departure is among `arrivals` (buses keep their order between
 * the crossroads and the terminus), so the other estimates in that span are dropped too. Returns
 * a new ascending list; `plan` is not changed.
 */
export function applyLiveEvidence(
  plan: RouteDayPlan,
  arrivals: readonly Date[],
  now: Date,
  watchingSince: Date | null,
): Estimate[] {
  if (arrivals.length === 0) return plan.estimate;
  const live = arrivals
    .map((arrival) => Math.max(now.getTime(), arrival.getTime() + plan.turnaroundSec * 1000))
    .sort((a, b) => a - b);
  const rest = [...plan.estimate];
  for (const at of live) {
    let nearest = -1;
    for (let i = 0; i < rest.length; i++) {
      const distance = Math.abs(rest[i].at.getTime() - at);
      if (distance <= plan.sameRunSec * 1000 && (nearest < 0 || distance < Math.abs(rest[nearest].at.getTime() - at))) {
        nearest = i;
      }
    }
    if (nearest >= 0) rest.splice(nearest, 1);
  }
  const spanFrom = watchingSince
    ? Math.max(now.getTime(), watchingSince.getTime() + plan.turnaroundSec * 1000)
    : Infinity;
  const spanTo = live[live.length - 1];
  return [
    ...rest.filter(({ at }) => at.getTime() < spanFrom || at.getTime() > spanTo),
    ...live.map((at): Estimate => ({ at: new Date(at), basis: 'live' })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The first of ascending `times` at or after `now`, or null. */
export function nextAtOrAfter<T extends Date | Estimate>(times: readonly T[], now: Date): T | null {
  const instant = (t: T) => (t instanceof Date ? t : t.at).getTime();
  return times.find((t) => instant(t) >= now.getTime()) ?? null;
}
