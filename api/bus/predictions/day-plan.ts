/**
 * A service date's day plan: per route, the departures of the day before and of a week before,
 * and the estimate learnt from history (slots) or read from the timetable. Pure, no I/O. Times are
 * KST; a run after midnight belongs to its service day (api/time.ts serviceClock: 00:20 is minute
 * 1460 of the day before). How the estimate is made, and why: docs/predictions.md §How the
 * estimate is made.
 */
import type { DepartureRange, EstimateBasis } from '../../../contract/bus';
import { addServiceDays, dayType } from '../../time';
import { formatKstIso } from '../../../contract/kst';
import type { DepartureRecord } from './departures/detector';
import { DEFAULT_TRANSIT_IDS, timetableMinutes, type RouteConfig } from '../feed/transit-config';
import type { DayType } from '../../../contract/transit';
import { sameWeekdayEffects, slotSpreads, slotSpreadSec, type Slot } from './slots';
import {
  historyDaysOf,
  learntSlotsOf,
  midnightMs,
  MIN_HISTORY_DAYS,
  runsByDate,
  weekdayOf,
  type DateRuns,
} from './history-days';
import { changeShapeOf, shapeOf, timetableChange, type TimetableChange, type TimetableShape } from './changes';
import type { Weighted } from './spread';
import { compressed, dressed, MIN_KERNEL_SEC, rangeHolding } from './spread';
import { learnTerminus, type TerminusModel } from './terminus';

/** What predictions read of an observed departure: a DepartureRecord, or a row of a history CSV. */
export type ObservedDeparture = Pick<DepartureRecord, 'routeNo' | 'serviceDate' | 'departedAt' | 'arrivedAt'>;

/** One predicted departure and what it rests on. */
export type Estimate = {
  /** The point: the departure riders are told. */
  at: Date;
  basis: EstimateBasis;
  /**
   * The departure's predictive distribution (spread.ts): weighted instants, epoch ms, ascending. A history
   * estimate's is its slot's departures moved to the date; a live one's is learnt from the bus's
   * lateness (terminus.ts). Absent for a timetable estimate, which states no range.
   */
  spread?: Weighted[];
  /**
   * The 80 % range (RANGE_QUANTILES) of `spread`, or of it recalibrated (live.ts told), widened to
   * hold `at`; present with it.
   */
  lowerAt?: Date;
  upperAt?: Date;
  /** A history estimate's slot: its index in the plan's terminus model, for the live evidence. */
  slot?: number;
};

/** A route's predicted departures for one service date (docs/product.md §3), every list ascending. */
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
  /**
   * Seconds from passing the campus crossroads (up) to leaving the terminus (down), as observed
   * (turnaroundsOf): the spread of a bus no run explains (an extra run, or a timetable estimate's day).
   */
  turnarounds: Weighted[];
  /** Two times closer than this (seconds, half the usual headway) are taken for the same run. */
  sameRunSec: number;
  /**
   * The route's timetable change seen in the days before the date (changes.ts), or null: the day
   * types it was seen on, and those not seen since, learn as it moved the timetable (changes.ts
   * carriedDay). `before` and `after`: the shape of the date's day type's slots learnt from its days
   * before the change and from those since (null when that day type has none since).
   */
  change: (TimetableChange & { before: TimetableShape | null; after: TimetableShape | null }) | null;
  /**
   * How departures followed passages at the crossroads, learnt with the slots (terminus.ts; the
   * slot indices of history estimates point into its usualArrivals), the same-weekday effect
   * (seconds) added to each slot on this date, and the date's 00:00 KST (epoch ms); null for a
   * timetable estimate.
   */
  terminus: (TerminusModel & { effects: number[]; midnightMs: number }) | null;
  /**
   * The slots the history estimate was learnt as, for the backtest's report: how many, and their
   * spread, the median over the slots of the weighted median |departure − slot| (seconds); null for
   * a timetable estimate.
   */
  slots: { count: number; spreadSec: number } | null;
};

/**
 * Predictions of every route (in the order of the routes planned) for one service date ("yyyy-MM-dd", KST): `routes` for
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
/**
 * A day type seen since a change learns from its days before it too, carried into the new
 * timetable, until it has this many days since: carried days fill in for one or two days' late
 * and skipped runs, but their re-spacing drifts by minutes over a day, which three real days beat.
 */
const CARRY_UNTIL_DAYS_SINCE = 3;
/** Minutes from the campus crossroads to the terminus, added to layoverMin when no turnaround was observed. */
const UP_SECTION_MIN = 8;
/** Observed turnarounds outside (0, this] seconds are mismatched runs and ignored. */
const MAX_TURNAROUND_SEC = 90 * 60;

function atSecond(serviceDate: string, second: number): Date {
  return new Date(midnightMs(serviceDate) + second * 1000);
}

/**
 * The route's timetable for the day type of `serviceDate` (the timetables in use, GBIS route info):
 * `first`, then every mean headway ((minHeadwayMin + maxHeadwayMin) / 2 minutes), then `last`. The
 * stepped runs stop half a headway short of `last`: GBIS states the last bus, which runs whatever
 * the headways before it, and a day's last estimate is the 막차 the home shows (time-left-view.ts
 * lastDeparture). Empty when `last` is before `first`.
 */
export function timetableDepartures(route: RouteConfig, serviceDate: string, type = dayType(serviceDate)): Date[] {
  const { first, last, minHeadwayMin, maxHeadwayMin } = route.timetable[type];
  const headwaySec = ((minHeadwayMin + maxHeadwayMin) / 2) * 60;
  const [firstSec, lastSec] = [timetableMinutes(first) * 60, timetableMinutes(last) * 60];
  if (lastSec < firstSec) return [];
  const seconds = [firstSec];
  for (let second = firstSec + headwaySec; second <= lastSec - headwaySec / 2; second += headwaySec)
    seconds.push(second);
  if (lastSec > firstSec) seconds.push(lastSec);
  return seconds.map((second) => atSecond(serviceDate, second));
}

/**
 * Seconds from passing the campus crossroads (arrivedAt) to leaving the terminus (departedAt), as
 * a spread (spread.ts, compressed; weights 1): the route's departures whose arrivedAt is known (0–90
 * min apart); else the route's layoverMin + UP_SECTION_MIN minutes alone.
 */
export function turnaroundsOf(history: readonly ObservedDeparture[], route: RouteConfig): Weighted[] {
  const observed = history.flatMap(({ routeNo, arrivedAt, departedAt }) => {
    if (routeNo !== route.routeNo || !arrivedAt) return [];
    const seconds = (departedAt.getTime() - arrivedAt.getTime()) / 1000;
    return seconds > 0 && seconds <= MAX_TURNAROUND_SEC ? [{ value: seconds, weight: 1 }] : [];
  });
  const points = observed.length ? observed : [{ value: (route.layoverMin + UP_SECTION_MIN) * 60, weight: 1 }];
  return compressed(dressed(points, MIN_KERNEL_SEC));
}

/**
 * The history-based predictions of every route for `serviceDate` ("yyyy-MM-dd", KST): dayBefore,
 * weekBefore, and the history or timetable estimate (docs/predictions.md §How the estimate is
 * made). Reads only departures of the HISTORY_WINDOW_DAYS service days before `serviceDate`; the
 * rest of `history` is ignored, so a backtest may pass all it has. Never throws; with no history
 * every estimate is the timetable's. `routes` are the routes planned with their timetables: those in
 * use (TransitIdsNow.current().routes: env > saved setup > defaults), the defaults of
 * transit-config.ts unless given. `restarts`: per routeNo, a service date an admin restarted its
 * learning at (restarts.ts); from then on it is the route's change (every day type with a day since
 * then learns from those days only), unless a later change is detected.
 */
export function predictDay(
  history: readonly ObservedDeparture[],
  serviceDate: string,
  routes: readonly RouteConfig[] = DEFAULT_TRANSIT_IDS.routes,
  restarts: Readonly<Record<string, string>> = {},
): DayPlan {
  const from = addServiceDays(serviceDate, -HISTORY_WINDOW_DAYS);
  const window = history.filter((d) => d.serviceDate >= from && d.serviceDate < serviceDate);
  const dates = [...new Set(window.map((d) => d.serviceDate))].sort().reverse();
  const shifted = (byDate: Map<string, DateRuns>, days: number) =>
    (byDate.get(addServiceDays(serviceDate, -days))?.runs ?? []).map((second) => atSecond(serviceDate, second));
  // What does not depend on the day type, once per route.
  const perRoute = routes.map((route) => {
    const byDate = runsByDate(window, route.routeNo);
    const turnarounds = turnaroundsOf(window, route);
    const learntOf = (type: DayType, keep: (date: string) => boolean, minDays: number) =>
      learntSlotsOf(
        historyDaysOf(
          byDate,
          dates.filter((date) => keep(date) && dayType(date) === type),
        ),
        minDays,
      );
    const detected = timetableChange(
      (date) => byDate.get(date)?.runs,
      dates,
      (type, date) => {
        const learnt = learntOf(type, (d) => d < date, MIN_HISTORY_DAYS);
        return learnt && { slots: learnt.slots.map((slot) => slot.second), toleranceSec: learnt.sameRunSec };
      },
    );
    const restart = restarts[route.routeNo];
    const restarted =
      restart && restart < serviceDate && restart >= from && (!detected || detected.since < restart)
        ? {
            since: restart,
            dayTypes: [...new Set(dates.filter((date) => date >= restart).map(dayType))],
            unchangedTypes: [],
          }
        : null;
    const change = restarted ?? detected;
    // How the change moved each day type seen since (its slots before and since, and the shape),
    // once per type; the day types not seen since take the weekdays' when the change was seen there.
    const moved = new Map<DayType, ReturnType<typeof movedOf>>();
    const movedOf = (type: DayType) => {
      const since = change?.since ?? '';
      const before = learntOf(type, (date) => date < since, MIN_HISTORY_DAYS);
      const after = learntOf(type, (date) => date >= since, 1);
      const seconds = (slots: readonly Slot[]) => slots.map((slot) => slot.second);
      const shape =
        before && after && before.slots.length >= 2 && after.slots.length >= 2
          ? changeShapeOf(seconds(before.slots), seconds(after.slots), before.sameRunSec)
          : null;
      return { before, after, shape };
    };
    const changeOf = (type: DayType) => {
      if (!moved.has(type)) moved.set(type, movedOf(type));
      return moved.get(type) as ReturnType<typeof movedOf>;
    };
    return {
      route,
      byDate,
      change,
      changeOf,
      common: {
        routeNo: route.routeNo,
        dayBefore: shifted(byDate, 1),
        weekBefore: shifted(byDate, 7),
        turnarounds,
      },
    };
  });

  const routePlan = (
    { route, byDate, common, change, changeOf }: (typeof perRoute)[number],
    type: DayType,
    sameTypeDates: string[],
  ): RouteDayPlan => {
    // After a change seen on this day type, its days before the change are learnt as they would
    // have run under it (changes.ts carriedDay) until CARRY_UNTIL_DAYS_SINCE, or else left out:
    // as they were, they would put slots where no bus leaves any more. A day type without a day
    // since a change every day type seen since has followed is taken to follow it too, as the
    // weekdays did.
    const since = change?.dayTypes.includes(type) ? change.since : null;
    const source = change && (change.dayTypes.includes('weekday') ? 'weekday' : change.dayTypes[0]);
    const unseen =
      change && !since && !change.unchangedTypes.length && !sameTypeDates.some((date) => date >= change.since);
    const own = since ? changeOf(type) : null;
    const daysSince = since ? sameTypeDates.filter((date) => date >= since).length : 0;
    const shape = own
      ? daysSince < CARRY_UNTIL_DAYS_SINCE
        ? own.shape
        : null
      : unseen && source
        ? changeOf(source).shape
        : null;
    const learnt =
      change && shape
        ? learntSlotsOf(
            historyDaysOf(byDate, sameTypeDates, { since: change.since, shape }),
            since ? 1 : MIN_HISTORY_DAYS,
          )
        : since
          ? (own?.after ?? null)
          : learntSlotsOf(historyDaysOf(byDate, sameTypeDates), MIN_HISTORY_DAYS);
    const seconds = (slots: readonly Slot[] | undefined) => shapeOf(slots?.map((slot) => slot.second) ?? []);
    const changed = change && {
      ...change,
      before: own ? seconds(own.before?.slots) : null,
      after: own ? seconds(own.after?.slots) : null,
    };

    if (!learnt) {
      const { minHeadwayMin, maxHeadwayMin } = route.timetable[type];
      return {
        ...common,
        change: changed,
        estimate: timetableDepartures(route, serviceDate, type).map((at): Estimate => ({ at, basis: 'timetable' })),
        sameRunSec: ((minHeadwayMin + maxHeadwayMin) / 4) * 60,
        terminus: null,
        slots: null,
      };
    }
    const { slots, sameRunSec } = learnt;
    const effects = type === 'weekday' ? sameWeekdayEffects(slots, weekdayOf(serviceDate)) : slots.map(() => 0);
    const midnight = midnightMs(serviceDate);
    const spreads = slotSpreads(slots);
    return {
      ...common,
      change: changed,
      estimate: slots
        .map((slot, i): Estimate => {
          const spread = spreads[i].map((p) => ({ value: midnight + (p.value + effects[i]) * 1000, weight: p.weight }));
          const at = atSecond(serviceDate, slot.second + effects[i]);
          const { lowerMs, upperMs } = rangeHolding(spread, at.getTime());
          return {
            at,
            basis: 'history',
            spread,
            lowerAt: new Date(lowerMs),
            upperAt: new Date(upperMs),
            slot: i,
          };
        })
        .sort((a, b) => a.at.getTime() - b.at.getTime()),
      sameRunSec,
      // Learnt on first use: only the day type a date is served on needs it (observedDayType reads estimates only).
      get terminus() {
        const terminus = { ...learnTerminus(slots), effects, midnightMs: midnight };
        Object.defineProperty(this, 'terminus', { value: terminus });
        return terminus;
      },
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

/** An estimate's 80 % range as the api states it (contract DepartureRange), or null when it states none. */
export function rangeOfEstimate(estimate: Estimate): DepartureRange | null {
  return estimate.lowerAt && estimate.upperAt
    ? { lowerAt: formatKstIso(estimate.lowerAt), upperAt: formatKstIso(estimate.upperAt) }
    : null;
}

/** The first of ascending `times` at or after `now`, or null. */
export function nextAtOrAfter<T extends Date | Estimate>(times: readonly T[], now: Date): T | null {
  const instant = (t: T) => (t instanceof Date ? t : t.at).getTime();
  return times.find((t) => instant(t) >= now.getTime()) ?? null;
}
