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
 *   1. history: the slots learnt (learnSlots) from the last SLOT_DAYS earlier days of the same
 *      day type (weekday / Saturday / Sunday or public holiday, api/time.ts dayType) within
 *      HISTORY_WINDOW_DAYS that have enough runs (at least half the median of those days), a day
 *      weighing RECENCY_DECAY^k (k = 0 for the most recent day, 1 for the next…). A weekday's
 *      slots move by the same-weekday effect (sameWeekdayEffects) of the date's weekday.
 *   2. timetable: with fewer than MIN_HISTORY_DAYS such days, the route's timetable for the day
 *      type (transit-config): `first`, then every mean headway ((min + max) / 2), up to `last`.
 *   The date can be planned as any day type (DayPlan.planAs); the live part takes the one today's
 *   departures so far follow (observedDayType), the calendar's unless another fits clearly better.
 *   3. live (applyLiveEvidence, at request time): an up bus coming to, or past, the campus
 *      crossroads makes the next run of the plan; it leaves at the later of its ready time
 *      (arrival + the shortest turnaround learnt for that time of day: a late bus shortens its
 *      layover) and that run's on-time departure (an early bus waits). It counts until seen
 *      leaving, or LIVE_GRACE_SEC past the later of that and arrival + the route's median
 *      turnaround (median of departedAt − arrivedAt in the history, else layoverMin +
 *      UP_SECTION_MIN); a run that left keeps its run taken. Where every bus has been watched,
 *      the estimates before it that no bus was seen for are dropped.
 */
import type { EstimateBasis } from '../../../contract/bus';
import { addServiceDays, dayType, kstInstant } from '../../time';
import type { DepartureRecord } from './departures/detector';
import { DAY_TYPES, ROUTES, SERVICE_HOURS, timetableMinutes, type DayType, type RouteConfig } from '../feed/transit-config';

/** What predictions read of an observed departure: a DepartureRecord, or a row of a history CSV. */
export type ObservedDeparture = Pick<DepartureRecord, 'routeNo' | 'serviceDate' | 'departedAt' | 'arrivedAt'>;

/** One predicted departure and what it rests on. */
export type Estimate = {
  at: Date;
  basis: EstimateBasis;
  /**
   * A history estimate's on-time departure: its slot's early quantile (ON_TIME_QUANTILE), when a
   * bus known to be early leaves (it waits for its time). Absent for other bases.
   */
  onTimeAt?: Date;
};

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
  /**
   * The shortest turnaround (seconds from the crossroads to leaving, a late bus's) by time of day:
   * from `from` until the next entry's (ascending; the first also before its `from`).
   */
  minTurnarounds: { from: Date; seconds: number }[];
  /**
   * The slots the history estimate was learnt as (issue 12 report): how many, and their spread,
   * the median over the slots of the weighted median |departure − slot| (seconds); null for a
   * timetable estimate.
   */
  slots: { count: number; spreadSec: number } | null;
};

/**
 * Predictions of every route (ROUTES order) for one service date ("yyyy-MM-dd", KST): `routes` for
 * the date's day type (api/time.ts dayType); `planAs(type)` plans the same date as any day type
 * (its own: `routes`), computed on the first call and then kept, for a day that turns out to run
 * another timetable (observedDayType).
 */
export type DayPlan = {
  serviceDate: string;
  dayType: DayType;
  routes: RouteDayPlan[];
  planAs: (type: DayType) => RouteDayPlan[];
};

/**
 * How long a day plan, and the day type it is served on (observedDayType), stand before the
 * prediction service recomputes them from the stored departures (new departures, a late back-fill).
 */
export const PLAN_REFRESH_MS = 10 * 60_000;

/** Service days of history a prediction may read: 5 weeks, so 5 of each weekday and day type. */
export const HISTORY_WINDOW_DAYS = 35;
/** Same-day-type days the slots are learnt from, most recent first (4 weeks of weekdays). */
const SLOT_DAYS = 20;
/** Passes of learnSlots' align-and-re-estimate. */
const SLOT_ITERATIONS = 3;
/** Half-width (seconds) of the span of slots whose deviations make one slot's same-weekday effect. */
const SAME_WEEKDAY_WINDOW_SEC = 45 * 60;
/** Same-weekday days needed, all deviating the same way, for a same-weekday effect. */
const MIN_SAME_WEEKDAY_DAYS = 3;
/** Smallest same-weekday effect applied, seconds. */
const MIN_SAME_WEEKDAY_EFFECT_SEC = 60;
/** Fewer same-day-type days than this → timetable estimate. */
const MIN_HISTORY_DAYS = 2;
/** Weight of a day relative to the next more recent one in the weighted median. */
const RECENCY_DECAY = 0.8;
/** Minutes from the campus crossroads to the terminus, added to layoverMin when no turnaround was observed. */
const UP_SECTION_MIN = 8;
/** The quantile of a slot's departures taken as its on-time departure (Estimate.onTimeAt). */
const ON_TIME_QUANTILE = 0.2;
/** Width (seconds) of the time-of-day buckets of minTurnarounds. */
const TURNAROUND_BUCKET_SEC = 3 * 3600;
/** The quantile of observed turnarounds taken as the shortest (a late bus's). */
const MIN_TURNAROUND_QUANTILE = 0.15;
/** Turnarounds a time-of-day bucket needs for its own minimum. */
const MIN_TURNAROUND_SAMPLES = 20;
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
/** Day of the week of a KST date, 0 = Sunday (the UTC day of its KST noon shifted by 9 h). */
const weekdayOf = perDate((dateKey) => new Date(midnightMs(dateKey) + 21 * 3_600_000).getUTCDay());

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

/** The `q` quantile of `values` (nearest rank). */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The smallest value whose cumulative weight (values ascending) reaches the fraction `q` of the total. */
function weightedQuantile(points: readonly { value: number; weight: number }[], q: number): number {
  const sorted = [...points].sort((a, b) => a.value - b.value);
  const target = sorted.reduce((sum, p) => sum + p.weight, 0) * q;
  let cumulative = 0;
  for (const point of sorted) {
    cumulative += point.weight;
    if (cumulative >= target) return point.value;
  }
  return sorted[sorted.length - 1].value;
}

const weightedMedian = (points: readonly { value: number; weight: number }[]) => weightedQuantile(points, 0.5);

/**
 * An order-preserving match of two ascending sequences (seconds) minimising the total time
 * difference, each unmatched element costing tolerance / 2, pairs further apart than `tolerance`
 * never matched. Returns, per element of `reference`, the index of its match in `day` or -1.
 */
function align(reference: readonly number[], day: readonly number[], tolerance: number): number[] {
  return alignment(reference, day, tolerance).matched;
}

/** align's match and its total cost (seconds: matched differences plus tolerance / 2 per unmatched element of either). */
function alignment(
  reference: readonly number[],
  day: readonly number[],
  tolerance: number,
): { matched: number[]; cost: number } {
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
  const matched: number[] = new Array(n).fill(-1);
  for (let i = n, j = m; i > 0 && j > 0;) {
    const difference = Math.abs(reference[i - 1] - day[j - 1]);
    if (difference <= tolerance && cost[i][j] === cost[i - 1][j - 1] + difference) {
      matched[i - 1] = j - 1;
      i--;
      j--;
    } else if (cost[i][j] === cost[i - 1][j] + gap) i--;
    else j--;
  }
  return { matched, cost: cost[n][m] };
}

/** One same-day-type day of history: its runs (seconds of day, ascending), recency weight and weekday (0 = Sunday). */
type HistoryDay = { runs: number[]; weight: number; weekday: number };
/** A departure of a history day, weighted like its day. */
type Point = { value: number; weight: number; day: HistoryDay };
/** A learnt slot: where it is (weighted median, seconds of day) and the departures matched to it. */
type Slot = { second: number; points: Point[] };

const weightOf = (points: readonly Point[]) => points.reduce((sum, p) => sum + p.weight, 0);
/** The weight of the distinct days among `points` (a day counts once). */
const dayWeightOf = (points: readonly Point[]) => weightOf([...new Map(points.map((p) => [p.day, p])).values()]);

/**
 * The slots of a route and day type (issue 12, item 2): times of day at which a run leaves on
 * most days, learnt by aligning every day to a template and re-estimating it (SLOT_ITERATIONS
 * times). A template slot matched on days weighing at least half of all is kept at the weighted
 * median of its matches; runs matched to no slot that recur (within `tolerance` / 2 of each
 * other on days weighing at least half) become new slots. So a skipped or an inserted run moves
 * no other slot, and a timetable change is followed once the days after it weigh half.
 * `tolerance` in seconds; days most recent first.
 */
function learnSlots(days: readonly HistoryDay[], tolerance: number): Slot[] {
  const total = days.reduce((sum, day) => sum + day.weight, 0);
  const counts = days.slice(0, 5).map((day) => day.runs.length);
  const typical = median(counts);
  let template = (days.find((day) => day.runs.length === Math.round(typical)) ?? days[0]).runs;
  let slots: Slot[] = [];
  for (let iteration = 0; iteration < SLOT_ITERATIONS; iteration++) {
    const matched: Point[][] = template.map(() => []);
    const loose: Point[] = [];
    for (const day of days) {
      const match = align(template, day.runs, tolerance);
      const used = new Set(match);
      match.forEach((j, i) => {
        if (j >= 0) matched[i].push({ value: day.runs[j], weight: day.weight, day });
      });
      day.runs.forEach((value, j) => {
        if (!used.has(j)) loose.push({ value, weight: day.weight, day });
      });
    }
    const found = matched.filter((points) => dayWeightOf(points) >= total / 2);
    loose.sort((a, b) => a.value - b.value);
    for (let start = 0; start < loose.length;) {
      let end = start + 1;
      while (end < loose.length && loose[end].value - loose[start].value <= tolerance / 2) end++;
      const group = loose.slice(start, end);
      if (dayWeightOf(group) >= total / 2) {
        found.push(group);
        start = end;
      } else start++;
    }
    slots = found.map((points) => ({ second: weightedMedian(points), points })).sort((a, b) => a.second - b.second);
    template = slots.map((slot) => slot.second);
  }
  return slots;
}

/** The slots' spread (RouteDayPlan.slots): the median over slots of the weighted median |departure − slot|, seconds; 0 without slots. */
function slotSpreadSec(slots: readonly Slot[]): number {
  if (slots.length === 0) return 0;
  return median(
    slots.map((slot) => weightedMedian(slot.points.map((p) => ({ ...p, value: Math.abs(p.value - slot.second) })))),
  );
}

/**
 * The same-weekday effect of each slot (issue 12: a weekly disrupted evening), seconds to add:
 * around the slot (SAME_WEEKDAY_WINDOW_SEC either side), the median deviation of the `weekday`'s
 * departures from their slots minus that of the other days. Kept only when at least
 * MIN_SAME_WEEKDAY_DAYS such days all deviate the same way and the effect is at least
 * MIN_SAME_WEEKDAY_EFFECT_SEC; else 0.
 */
function sameWeekdayEffects(slots: readonly Slot[], weekday: number): number[] {
  const deviations = slots.flatMap((slot) =>
    slot.points.map((p) => ({ at: slot.second, deviation: p.value - slot.second, day: p.day })),
  );
  return slots.map((slot) => {
    const near = deviations.filter((d) => Math.abs(d.at - slot.second) <= SAME_WEEKDAY_WINDOW_SEC);
    const same = near.filter((d) => d.day.weekday === weekday);
    const others = near.filter((d) => d.day.weekday !== weekday);
    if (same.length === 0 || others.length === 0) return 0;
    const baseline = median(others.map((d) => d.deviation));
    const byDay = new Map<HistoryDay, number[]>();
    for (const d of same) byDay.set(d.day, [...(byDay.get(d.day) ?? []), d.deviation - baseline]);
    const dayEffects = [...byDay.values()].map(median);
    if (dayEffects.length < MIN_SAME_WEEKDAY_DAYS) return 0;
    const effect = median(same.map((d) => d.deviation)) - baseline;
    if (Math.abs(effect) < MIN_SAME_WEEKDAY_EFFECT_SEC) return 0;
    return dayEffects.every((e) => Math.sign(e) === Math.sign(effect)) ? effect : 0;
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
export function timetableDepartures(route: RouteConfig, serviceDate: string, type = dayType(serviceDate)): Date[] {
  const { first, last, minHeadwayMin, maxHeadwayMin } = route.timetable[type];
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
 * The shortest turnaround by time of day (RouteDayPlan.minTurnarounds; issue 12: late buses
 * shorten their layover): per TURNAROUND_BUCKET_SEC of the day from SERVICE_HOURS' start, the
 * MIN_TURNAROUND_QUANTILE of the turnarounds observed then, with at least MIN_TURNAROUND_SAMPLES;
 * else that of the whole day; else `fallbackSec` (the median turnaround or the configured one).
 * The buckets are placed on `serviceDate`.
 */
function minTurnaroundsOf(
  window: readonly ObservedDeparture[],
  route: RouteConfig,
  fallbackSec: number,
  serviceDate: string,
): RouteDayPlan['minTurnarounds'] {
  const observed = window.flatMap((departure) => {
    if (departure.routeNo !== route.routeNo || !departure.arrivedAt) return [];
    const seconds = (departure.departedAt.getTime() - departure.arrivedAt.getTime()) / 1000;
    return seconds > 0 && seconds <= MAX_TURNAROUND_SEC ? [{ second: secondOfDay(departure), seconds }] : [];
  });
  const low = (values: number[], otherwise: number) =>
    values.length >= MIN_TURNAROUND_SAMPLES ? quantile(values, MIN_TURNAROUND_QUANTILE) : otherwise;
  const wholeDay = low(
    observed.map((o) => o.seconds),
    fallbackSec,
  );
  const buckets: RouteDayPlan['minTurnarounds'] = [];
  for (let from = SERVICE_HOURS.startMin * 60; from < SERVICE_HOURS.endMin * 60; from += TURNAROUND_BUCKET_SEC) {
    const inBucket = observed.filter((o) => o.second >= from && o.second < from + TURNAROUND_BUCKET_SEC);
    buckets.push({
      from: atSecond(serviceDate, from),
      seconds: low(
        inBucket.map((o) => o.seconds),
        wholeDay,
      ),
    });
  }
  return buckets;
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
  const dates = [...new Set(window.map((d) => d.serviceDate))].sort().reverse();
  const shifted = (byDate: Map<string, number[]>, days: number) =>
    (byDate.get(addServiceDays(serviceDate, -days)) ?? []).map((second) => atSecond(serviceDate, second));
  // What does not depend on the day type, once per route.
  const perRoute = ROUTES.map((route) => {
    const byDate = runsByDate(window, route.routeNo);
    const turnaround = turnaroundSec(window, route);
    return {
      route,
      byDate,
      common: {
        routeNo: route.routeNo,
        dayBefore: shifted(byDate, 1),
        weekBefore: shifted(byDate, 7),
        turnaroundSec: turnaround,
        minTurnarounds: minTurnaroundsOf(window, route, turnaround, serviceDate),
      },
    };
  });

  const routePlan = ({ route, byDate, common }: (typeof perRoute)[number], type: DayType, sameTypeDates: string[]) => {
    const sameType = sameTypeDates.flatMap((date) => {
      const runs = byDate.get(date);
      return runs ? [{ date, runs }] : [];
    });
    const enough = sameType.length ? median(sameType.map(({ runs }) => runs.length)) / 2 : 0;
    const days = sameType
      .filter(({ runs }) => runs.length >= enough)
      .slice(0, SLOT_DAYS)
      .map(({ date, runs }, age): HistoryDay => ({ runs, weight: RECENCY_DECAY ** age, weekday: weekdayOf(date) }));
    const headways = days.flatMap(({ runs }) => runs.slice(1).map((second, i) => second - runs[i]));

    if (days.length < MIN_HISTORY_DAYS || headways.length === 0) {
      const { minHeadwayMin, maxHeadwayMin } = route.timetable[type];
      return {
        ...common,
        estimate: timetableDepartures(route, serviceDate, type).map((at): Estimate => ({ at, basis: 'timetable' })),
        sameRunSec: ((minHeadwayMin + maxHeadwayMin) / 4) * 60,
        slots: null,
      };
    }
    const sameRunSec = median(headways) / 2;
    const slots = learnSlots(days, sameRunSec);
    const effects = type === 'weekday' ? sameWeekdayEffects(slots, weekdayOf(serviceDate)) : slots.map(() => 0);
    return {
      ...common,
      estimate: slots
        .map((slot, i) => ({
          second: slot.second + effects[i],
          onTime: weightedQuantile(slot.points, ON_TIME_QUANTILE) + effects[i],
        }))
        .sort((a, b) => a.second - b.second)
        .map(({ second, onTime }): Estimate => ({
          at: atSecond(serviceDate, second),
          basis: 'history',
          onTimeAt: atSecond(serviceDate, Math.min(second, onTime)),
        })),
      sameRunSec,
      slots: { count: slots.length, spreadSec: slotSpreadSec(slots) },
    };
  };

  const planned = new Map<DayType, RouteDayPlan[]>();
  const planAs = (type: DayType): RouteDayPlan[] => {
    let routes = planned.get(type);
    if (!routes) {
      const sameTypeDates = dates.filter((date) => dayType(date) === type);
      routes = perRoute.map((route) => routePlan(route, type, sameTypeDates));
      planned.set(type, routes);
    }
    return routes;
  };
  const type = dayType(serviceDate);
  return { serviceDate, dayType: type, routes: planAs(type), planAs };
}

/** The plan's shortest turnaround (seconds) for a bus reaching the crossroads at `arrival`. */
function minTurnaroundAt(plan: RouteDayPlan, arrival: Date): number {
  let seconds = plan.minTurnarounds[0]?.seconds ?? plan.turnaroundSec;
  for (const bucket of plan.minTurnarounds) if (arrival >= bucket.from) seconds = bucket.seconds;
  return seconds;
}

/**
 * A run of the route seen coming to the campus terminus today: `at`, when it passes (or passed)
 * the campus crossroads; `left`, whether it has been seen leaving (on the down line).
 */
export type CrossroadsPassage = { at: Date; left: boolean };

/**
 * A route's estimates with live evidence applied (issue 12, item 3). `passages` are the route's
 * runs seen at the campus crossroads this service day, up to `now`, live or not. Buses keep their
 * order, so each, in passage order, makes the earliest remaining estimate from its ready time
 * (arrival + the shortest turnaround at that time of day, minTurnarounds) less plan.sameRunSec, up
 * to arrival + plan.turnaroundSec + plan.sameRunSec: a run that has left takes its estimate away,
 * so the next bus cannot take a run already gone. A bus leaves at the later of its ready time (a
 * late bus shortens its layover) and that estimate's on-time departure (an early bus waits), and
 * at `now` at the earliest; a bus with no such estimate (an extra run), or whose estimate is the
 * timetable's, at arrival + plan.turnaroundSec. It is live until seen leaving, or until
 * LIVE_GRACE_SEC past the later of that departure and arrival + plan.turnaroundSec: then it is
 * taken to have left unseen.
 *
 * `watchingSince`: since when every bus coming to the crossroads has been seen (snapshots without
 * a gap), or null when unknown. A turnaround later the evidence is complete: every run leaving
 * between then and the last live departure is among `arrivals`, so the other estimates in that
 * span are dropped too. Returns a new ascending list; `plan` is not changed.
 */
export function applyLiveEvidence(
  plan: RouteDayPlan,
  passages: readonly CrossroadsPassage[],
  now: Date,
  watchingSince: Date | null,
): Estimate[] {
  if (passages.length === 0) return plan.estimate;
  const rest = [...plan.estimate];
  const live: number[] = [];
  for (const { at: arrival, left } of [...passages].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const ready = arrival.getTime() + minTurnaroundAt(plan, arrival) * 1000;
    const typical = arrival.getTime() + plan.turnaroundSec * 1000;
    const from = ready - plan.sameRunSec * 1000;
    const to = typical + plan.sameRunSec * 1000;
    const index = rest.findIndex(({ at }) => at.getTime() >= from && at.getTime() <= to);
    const run = index >= 0 ? rest.splice(index, 1)[0] : undefined;
    const leaves = run?.onTimeAt ? Math.max(ready, run.onTimeAt.getTime()) : typical;
    // Not seen leaving, it is taken to have left unseen LIVE_GRACE_SEC after it should have.
    const liveUntil = Math.max(leaves, typical) + LIVE_GRACE_SEC * 1000;
    if (!left && now.getTime() < liveUntil) live.push(Math.max(now.getTime(), leaves));
  }
  if (live.length === 0) return rest;
  live.sort((a, b) => a - b);
  const spanFrom = watchingSince
    ? Math.max(now.getTime(), watchingSince.getTime() + plan.turnaroundSec * 1000)
    : Infinity;
  const spanTo = live[live.length - 1];
  return [
    ...rest.filter(({ at }) => at.getTime() < spanFrom || at.getTime() > spanTo),
    ...live.map((at): Estimate => ({ at: new Date(at), basis: 'live' })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** Runs the calendar's day type must miscount today (all routes) before observedDayType takes another. */
const DAY_TYPE_MIN_MISCOUNT = 6;
/** observedDayType takes another day type whose miscount is at most this fraction of the calendar's. */
const DAY_TYPE_SWITCH_RATIO = 0.6;
/** Tolerance (seconds) of observedDayType's alignment of today's departures with a day type's slots. */
const DAY_TYPE_TOLERANCE_SEC = 5 * 60;

/**
 * The day type whose timetable `today` (the service date's departures observed so far, any
 * order; those after `now` ignored) follows: the calendar's (DayPlan.dayType) unless another fits
 * clearly better. A date may run another timetable than its calendar says: a holiday declared at
 * short notice (임시공휴일), an election day, a calendar error (ADR 017).
 *
 * Only routes seen today count, each over the span it was seen in (its first departure less
 * DAY_TYPE_TOLERANCE_SEC to its last), so a route unseen, a feed outage or a late start tells
 * nothing. Over those routes, a day type's miscount is the sum of |departures − its estimates| in
 * the spans, and its cost that of aligning the two (align, DAY_TYPE_TOLERANCE_SEC). Another day
 * type is compared over the routes whose slots both it and the calendar's learnt (not a timetable
 * fallback), and taken when there the calendar's miscount is at least DAY_TYPE_MIN_MISCOUNT, the
 * other's at most DAY_TYPE_SWITCH_RATIO of it, and its cost lower too (skipped runs alone make a
 * sparser day type count better, not align better); of several, the lowest cost relative to the
 * calendar's. The other day types are planned (DayPlan.planAs) only once the calendar's miscount
 * over every route seen reaches DAY_TYPE_MIN_MISCOUNT.
 */
export function observedDayType(plan: DayPlan, today: readonly ObservedDeparture[], now: Date): DayType {
  const spans = plan.routes.flatMap(({ routeNo }, index) => {
    const seen = today
      .filter((d) => d.routeNo === routeNo && d.departedAt <= now)
      .map((d) => d.departedAt.getTime() / 1000)
      .sort((a, b) => a - b);
    return seen.length
      ? [{ index, seen, fromSec: seen[0] - DAY_TYPE_TOLERANCE_SEC, toSec: seen[seen.length - 1] }]
      : [];
  });
  const fit = (routes: readonly RouteDayPlan[], of: typeof spans) => {
    let miscount = 0;
    let cost = 0;
    for (const { index, seen, fromSec, toSec } of of) {
      const planned = routes[index].estimate
        .map(({ at }) => at.getTime() / 1000)
        .filter((second) => second >= fromSec && second <= toSec);
      miscount += Math.abs(seen.length - planned.length);
      cost += alignment(planned, seen, DAY_TYPE_TOLERANCE_SEC).cost;
    }
    return { miscount, cost };
  };
  if (fit(plan.routes, spans).miscount < DAY_TYPE_MIN_MISCOUNT) return plan.dayType;

  let best = { type: plan.dayType, relativeCost: 1 };
  for (const type of DAY_TYPES) {
    if (type === plan.dayType) continue;
    const other = plan.planAs(type);
    const learnt = spans.filter(({ index }) => plan.routes[index].slots && other[index].slots);
    const calendar = fit(plan.routes, learnt);
    const candidate = fit(other, learnt);
    const relativeCost = candidate.cost / calendar.cost;
    if (
      calendar.miscount >= DAY_TYPE_MIN_MISCOUNT &&
      candidate.miscount <= DAY_TYPE_SWITCH_RATIO * calendar.miscount &&
      relativeCost < best.relativeCost
    ) {
      best = { type, relativeCost };
    }
  }
  return best.type;
}

/** The first of ascending `times` at or after `now`, or null. */
export function nextAtOrAfter<T extends Date | Estimate>(times: readonly T[], now: Date): T | null {
  const instant = (t: T) => (t instanceof Date ? t : t.at).getTime();
  return times.find((t) => instant(t) >= now.getTime()) ?? null;
}
