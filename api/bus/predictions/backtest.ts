/**
 * Backtest of the departure predictions (day-plan.ts, day-type.ts, live.ts) on observed history.
 * Pure: ObservedDeparture[] in, a BacktestReport out. Per route and overall, for `estimate`,
 * `history` and the baselines day before, week before and timetable: MAE in seconds and the TransitApp
 * ETA score in percent, over queries 0–15 min before each observed departure (QUERY_LEADS_SEC,
 * ETA_BUCKETS), and, for the methods that state ranges, their coverage and mean width; with the
 * calibration of the estimate's ranges it learnt on the way (rangeCalibration). The CLI is scripts/backtest.ts; the admin JSON GET /api/admin/backtest. The query
 * model, the metrics and the live evidence the backtest can and cannot rebuild:
 * docs/predictions.md §Measuring it.
 */
import { setImmediate } from 'node:timers/promises';
import { addServiceDays, SERVICE_HOURS } from '../../time';
import { kstInstant } from '../../../contract/kst';
import {
  HISTORY_WINDOW_DAYS,
  nextAtOrAfter,
  PLAN_REFRESH_MS,
  predictDay,
  timetableDepartures,
  type DayPlan,
  type ObservedDeparture,
} from './day-plan';
import { observedDayType } from './day-type';
import { applyLiveEvidence } from './live';
import { calibrationOf, ETA_BUCKETS, levelIn, type Calibration } from './spread';
import type { Weighted } from './spread';

import { BACKTEST_METHODS } from '../../../contract/admin';
import { DEFAULT_TRANSIT_IDS, type RouteConfig } from '../feed/transit-config';
import { LocationPlan } from '../feed/location-plan';
import { callsLeft, FREE_POLL_SEC } from '../feed/poll-plan';
import type { FeedSourceName } from '../../../contract/bus';
import { DAY_TYPES, type DayType } from '../../../contract/transit';

/** Seconds before a departure at which riders ask: the middle of each minute from 0 to 15. */
export const QUERY_LEADS_SEC = Array.from({ length: 15 }, (_, minute) => minute * 60 + 30);

/** The methods scored, in the reports' order (contract BACKTEST_METHODS, which the admin page reads). */
const METHODS = BACKTEST_METHODS;
export type Method = (typeof METHODS)[number];

/** Figures of one method over a set of queries. */
export type MethodScore = {
  queries: number;
  /** Queries for which the method had a time at or after the query. */
  answered: number;
  /** Mean absolute error in seconds over the answered queries; null when none. */
  maeSec: number | null;
  /** Percentage of accurate queries per ETA_BUCKETS entry; null for a bucket without queries. */
  bucketPercent: (number | null)[];
  /** Unweighted mean of the bucket percentages; null without queries. */
  etaScore: number | null;
  /**
   * Percentage of the answers stating a range whose actual departure fell inside that 80 %
   * range (lowerAt–upperAt, inclusive); null for a method that states none.
   */
  coverage: number | null;
  /** Mean width of the stated ranges, seconds; null for a method that states none. */
  meanRangeSec: number | null;
};

export type BacktestScores = { departures: number; methods: Record<Method, MethodScore> };

export type BacktestReport = {
  /** The service dates evaluated ("yyyy-MM-dd", ascending). */
  days: string[];
  routes: ({ routeNo: string } & BacktestScores)[];
  overall: BacktestScores;
  /**
   * The slots learnt per route and day type (RouteDayPlan.slots), as of the last evaluated date of
   * that type; routes and day types whose estimate was the timetable's are left out.
   */
  slots: { routeNo: string; dayType: DayType; serviceDate: string; count: number; spreadSec: number }[];
  /**
   * The Calibration (spread.ts; CALIBRATION_KNOTS + 1 levels) of the estimate's spreads as learnt
   * over all the days evaluated, for the live predictions to state their ranges by (service.ts);
   * null when no estimate had a spread.
   */
  rangeCalibration: number[] | null;
};

/** The ETA_BUCKETS index of a lead (seconds before the actual departure), or -1 past 15 min. */
export function bucketOf(leadSec: number): number {
  return ETA_BUCKETS.findIndex((bucket) => leadSec >= bucket.fromSec && leadSec < bucket.toSec);
}

/** Whether `errorSec` = actual − predicted (seconds) is inside the bucket's inclusive window. */
export function isAccurate(bucket: number, errorSec: number): boolean {
  const { earlySec, lateSec } = ETA_BUCKETS[bucket];
  return errorSec >= -earlySec && errorSec <= lateSec;
}

/**
 * Running totals of one method: per bucket queries and accurate ones, absolute errors, and of the
 * answers with a range, how many, how many covered the actual departure, and their widths.
 */
type Tally = {
  queries: number[];
  accurate: number[];
  answered: number;
  absErrorSec: number;
  ranged: number;
  covered: number;
  widthSec: number;
};

const newTally = (): Tally => ({
  queries: ETA_BUCKETS.map(() => 0),
  accurate: ETA_BUCKETS.map(() => 0),
  answered: 0,
  absErrorSec: 0,
  ranged: 0,
  covered: 0,
  widthSec: 0,
});

function addTally(into: Tally, from: Tally): void {
  ETA_BUCKETS.forEach((_, b) => {
    into.queries[b] += from.queries[b];
    into.accurate[b] += from.accurate[b];
  });
  into.answered += from.answered;
  into.absErrorSec += from.absErrorSec;
  into.ranged += from.ranged;
  into.covered += from.covered;
  into.widthSec += from.widthSec;
}

function scoreOf(tally: Tally): MethodScore {
  const bucketPercent = tally.queries.map((n, b) => (n ? (100 * tally.accurate[b]) / n : null));
  const present = bucketPercent.filter((p): p is number => p !== null);
  return {
    queries: tally.queries.reduce((sum, n) => sum + n, 0),
    answered: tally.answered,
    maeSec: tally.answered ? tally.absErrorSec / tally.answered : null,
    bucketPercent,
    etaScore: present.length ? present.reduce((sum, p) => sum + p, 0) / present.length : null,
    coverage: tally.ranged ? (100 * tally.covered) / tally.ranged : null,
    meanRangeSec: tally.ranged ? tally.widthSec / tally.ranged : null,
  };
}

/**
 * observedDayType of the date at q from the departures observed before it, as the prediction
 * service has it: decided at each plan refresh (PLAN_REFRESH_MS of the day), so the last decision
 * at or before q.
 */
function observedDayTypes(plan: DayPlan, observed: readonly ObservedDeparture[]): (q: Date) => DayType {
  const known = new Map<number, DayType>();
  return (q) => {
    const check = Math.floor(q.getTime() / PLAN_REFRESH_MS) * PLAN_REFRESH_MS;
    let type = known.get(check);
    if (!type) {
      type = observedDayType(plan, observed, new Date(check));
      known.set(check, type);
    }
    return type;
  };
}

/**
 * The backtest yields to its thread's event loop after this many departures of a route-day (~15 ms
 * of queries): the thread that runs it (the api's worker thread, the CLI, a test process) goes on
 * answering its messages meanwhile.
 */
const YIELD_EVERY_DEPARTURES = 8;

/**
 * Days evaluated before the first scored one only to learn the calibration of the estimate's
 * ranges (levels), so that the first scored day's ranges are calibrated too.
 */
const CALIBRATION_DAYS = 3;

/** A method's answer: the departure it predicts, and the 80 % range it states and the spread behind it, if any. */
type Answer = { at: Date; lowerAt?: Date; upperAt?: Date; spread?: Weighted[] };

/**
 * How soon after a bus leaves the service knows it: LiveTracker sees it on the down line at the
 * first location read after the departure (docs/predictions.md §Measuring it).
 * - `seenAfterSec`: always that long after;
 * - `readEverySec`: the route is read that often, so at a point of that interval after it: uniform,
 *   and fixed per departure (a hash of its route and time), so a run is repeatable;
 * - `dailyQuota`: as the location plan of a key of that many calls a day per dataset reads a route
 *   while its bus may leave (api/bus/feed/location-plan.ts hotSec on a fresh quota at 05:00, its
 *   leads learnt from the departures of the two days before), read every that many seconds.
 */
export type Cadence = { seenAfterSec: number } | { readEverySec: number } | { dailyQuota: number };

/** Calls a day per dataset of a development key (GBIS_DAILY_QUOTA's default, docs/gbis.md §Quota). */
export const DEVELOPMENT_KEY_QUOTA = 1000;
/** The cadence the product has on a development key. */
export const DEVELOPMENT_KEY_CADENCE: Cadence = { dailyQuota: DEVELOPMENT_KEY_QUOTA };

/**
 * Seconds after each departure of `serviceDate` at which `cadence` sees it, as a function of the
 * departure; `earlier` are departures of the days before (a key's plan learns its leads from them).
 */
function seenAfterOf(
  cadence: Cadence,
  routes: readonly RouteConfig[],
  serviceDate: string,
  earlier: readonly ObservedDeparture[],
): (routeNo: string, departedAt: Date) => number {
  if ('seenAfterSec' in cadence) return () => cadence.seenAfterSec;
  let intervalSec: number;
  if ('readEverySec' in cadence) intervalSec = cadence.readEverySec;
  else {
    const plan = new LocationPlan('gbis');
    const latest = [...earlier].sort((a, b) => a.departedAt.getTime() - b.departedAt.getTime());
    for (const { routeNo, arrivedAt, departedAt } of latest) {
      if (arrivedAt) plan.learnLead(routeNo, departedAt.getTime() - arrivedAt.getTime());
    }
    const now = kstInstant(serviceDate, SERVICE_HOURS.startMin);
    intervalSec = plan.hotSec({ now, snapshot: null, routes, callsLeft: callsLeft(cadence.dailyQuota, 0) });
  }
  return (routeNo, departedAt) => intervalSec * unitHash(`${routeNo}|${departedAt.getTime()}`);
}

/**
 * The cadence a deployment has: the GBIS source's by its key (GBIS_DAILY_QUOTA), the demo
 * simulator's every FREE_POLL_SEC.
 */
export function cadenceOf(source: FeedSourceName, dailyQuota: number): Cadence {
  return source === 'gbis' ? { dailyQuota } : { readEverySec: FREE_POLL_SEC };
}

/** A number in [0, 1) from `text` (FNV-1a, 32 bits): the same text, the same number. */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

/**
 * Each method's answer at query time q for the route at `index` of the plan: its first predicted departure
 * at or after q.
 */
function answerers(
  dayPlan: DayPlan,
  route: RouteConfig,
  index: number,
  observed: readonly ObservedDeparture[],
  dayTypeAt: (q: Date) => DayType,
  calibration: Calibration | null,
  seenAfterSec: (routeNo: string, departedAt: Date) => number,
): Record<Method, (q: Date) => Answer | null> {
  const serviceDate = dayPlan.serviceDate;
  const plan = dayPlan.routes[index];
  const timetable = timetableDepartures(route, serviceDate);
  const seen = observed.flatMap(({ arrivedAt, departedAt }) => (arrivedAt ? [{ arrivedAt, departedAt }] : []));
  const watchingSince = kstInstant(serviceDate, SERVICE_HOURS.startMin);
  const time = (at: Date | null) => (at ? { at } : null);
  return {
    estimate: (q) => {
      const passages = seen
        .filter(({ arrivedAt }) => arrivedAt <= q)
        .map(({ arrivedAt, departedAt }) => {
          const seenAtMs = departedAt.getTime() + seenAfterSec(route.routeNo, departedAt) * 1000;
          return { at: arrivedAt, leftAt: seenAtMs <= q.getTime() ? departedAt : null };
        });
      const live = dayPlan.planAs(dayTypeAt(q))[index];
      return nextAtOrAfter(applyLiveEvidence(live, passages, q, watchingSince, calibration), q);
    },
    history: (q) => nextAtOrAfter(plan.estimate, q),
    dayBefore: (q) => time(nextAtOrAfter(plan.dayBefore, q)),
    weekBefore: (q) => time(nextAtOrAfter(plan.weekBefore, q)),
    timetable: (q) => time(nextAtOrAfter(timetable, q)),
  };
}

/**
 * The history a backtest of the `days` service dates before `before` ("yyyy-MM-dd", KST) reads:
 * those dates and the HISTORY_WINDOW_DAYS before the first, up to the day before `before`.
 */
export function backtestHistoryRange(days: number, before: string): { fromDate: string; toDate: string } {
  return {
    fromDate: addServiceDays(before, -(days + CALIBRATION_DAYS + HISTORY_WINDOW_DAYS)),
    toDate: addServiceDays(before, -1),
  };
}

/**
 * Runs the backtest (docs/predictions.md §Measuring it) over the last `days` service dates before
 * `before` ("yyyy-MM-dd", exclusive: pass today's service date so its partial day is left out) that
 * have observations. Each date is predicted with predictDay from the departures of earlier dates only;
 * `onDayPlan`, when given, receives each date's plan as it is made (for `--predictions-out`);
 * `cadence` is how soon a departure is seen (Cadence; default the development key's);
 * `routes` are the routes scored with their timetables (the timetable baseline and estimates): those
 * in use (TransitIdsNow.current().routes), the defaults of transit-config.ts unless given.
 * CPU-bound (~50 ms per date on a 2-core machine, ~130 ms on a date whose other day types are
 * planned): a server runs it in its worker thread (worker.ts), never on the serving thread; it
 * yields every few departures (YIELD_EVERY_DEPARTURES).
 */
export async function backtest(
  history: readonly ObservedDeparture[],
  options: {
    days: number;
    before: string;
    onDayPlan?: (plan: DayPlan) => void;
    routes?: readonly RouteConfig[];
    cadence?: Cadence;
  },
): Promise<BacktestReport> {
  const { routes = DEFAULT_TRANSIT_IDS.routes, cadence = DEVELOPMENT_KEY_CADENCE } = options;
  const dates = [...new Set(history.map((d) => d.serviceDate))]
    .filter((date) => date < options.before)
    .sort()
    .slice(-(options.days + CALIBRATION_DAYS));
  const firstScored = Math.max(0, dates.length - options.days);
  const tallies = new Map(routes.map(({ routeNo }) => [routeNo, { departures: 0, byMethod: METHODS.map(newTally) }]));
  const slots = new Map<string, BacktestReport['slots'][number]>();
  // Where each actual departure fell in the spread the estimate told for it (its level, 0–1), on
  // the days evaluated so far (CALIBRATION_DAYS of them before the first scored): each day's ranges
  // are recalibrated by the days before it.
  const levels: number[] = [];

  for (const [d, date] of dates.entries()) {
    const scored = d >= firstScored;
    const calibration = levels.length ? calibrationOf(levels) : null;
    const plan = predictDay(history, date, routes);
    if (scored) options.onDayPlan?.(plan);
    const ofDate = history.filter((d) => d.serviceDate === date);
    const dayTypeAt = observedDayTypes(plan, ofDate);
    const seenAfter = seenAfterOf(
      cadence,
      routes,
      date,
      history.filter((d) => d.serviceDate < date && d.serviceDate >= addServiceDays(date, -2)),
    );
    for (const [index, routePlan] of plan.routes.entries()) {
      if (scored && routePlan.slots) {
        slots.set(`${routePlan.routeNo}|${plan.dayType}`, {
          routeNo: routePlan.routeNo,
          dayType: plan.dayType,
          serviceDate: date,
          ...routePlan.slots,
        });
      }
      const observed = ofDate
        .filter((d) => d.routeNo === routePlan.routeNo)
        .sort((a, b) => a.departedAt.getTime() - b.departedAt.getTime());
      const answer = answerers(plan, routes[index], index, observed, dayTypeAt, calibration, seenAfter);
      // A calibration day's figures only feed the levels.
      const tally = scored ? tallies.get(routePlan.routeNo) : { departures: 0, byMethod: METHODS.map(newTally) };
      if (!tally) continue;
      tally.departures += observed.length;
      for (const [k, { departedAt }] of observed.entries()) {
        if (k % YIELD_EVERY_DEPARTURES === 0) await setImmediate();
        const previous = k > 0 ? observed[k - 1].departedAt.getTime() : -Infinity;
        for (const leadSec of QUERY_LEADS_SEC) {
          const q = new Date(departedAt.getTime() - leadSec * 1000);
          if (previous >= q.getTime()) continue;
          const bucket = bucketOf(leadSec);
          METHODS.forEach((method, m) => {
            const t = tally.byMethod[m];
            t.queries[bucket] += 1;
            const predicted = answer[method](q);
            if (!predicted) return;
            const errorSec = (departedAt.getTime() - predicted.at.getTime()) / 1000;
            t.answered += 1;
            t.absErrorSec += Math.abs(errorSec);
            if (isAccurate(bucket, errorSec)) t.accurate[bucket] += 1;
            if (method === 'estimate' && predicted.spread) levels.push(levelIn(predicted.spread, departedAt.getTime()));
            if (predicted.lowerAt && predicted.upperAt) {
              t.ranged += 1;
              t.widthSec += (predicted.upperAt.getTime() - predicted.lowerAt.getTime()) / 1000;
              if (departedAt >= predicted.lowerAt && departedAt <= predicted.upperAt) t.covered += 1;
            }
          });
        }
      }
    }
  }

  const total = { departures: 0, byMethod: METHODS.map(newTally) };
  const scores = (t: { departures: number; byMethod: Tally[] }): BacktestScores => ({
    departures: t.departures,
    methods: Object.fromEntries(METHODS.map((method, m) => [method, scoreOf(t.byMethod[m])])) as Record<
      Method,
      MethodScore
    >,
  });
  const perRoute = [...tallies].map(([routeNo, t]) => {
    total.departures += t.departures;
    t.byMethod.forEach((tally, m) => addTally(total.byMethod[m], tally));
    return { routeNo, ...scores(t) };
  });
  const order = (entry: BacktestReport['slots'][number]) =>
    routes.findIndex((route) => route.routeNo === entry.routeNo) * 3 + DAY_TYPES.indexOf(entry.dayType);
  return {
    days: dates.slice(firstScored),
    routes: perRoute,
    overall: scores(total),
    slots: [...slots.values()].sort((a, b) => order(a) - order(b)),
    rangeCalibration: levels.length ? Array.from(calibrationOf(levels)) : null,
  };
}
