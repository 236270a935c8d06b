/**
 * Which day type's timetable a service date runs, told from its own departures so far. Pure.
 * Why a date may run another timetable than its calendar's, and how it is told: docs/predictions.md
 * §How the estimate is made, and ADR 017.
 */
import type { DayPlan, ObservedDeparture, RouteDayPlan } from './day-plan';
import { DAY_TYPES, type DayType } from '../../../contract/transit';
import { alignment } from './stats';

/** Runs the calendar's day type must miscount today (all routes) before observedDayType takes another. */
const DAY_TYPE_MIN_MISCOUNT = 6;
/** observedDayType takes another day type whose miscount is at most this fraction of the calendar's. */
const DAY_TYPE_SWITCH_RATIO = 0.6;
/** Tolerance (seconds) of observedDayType's alignment of today's departures with a day type's slots. */
const DAY_TYPE_TOLERANCE_SEC = 5 * 60;

/**
 * The day type `today` (the date's departures observed so far, any order; those after `now`
 * ignored) follows: `plan.dayType` (the calendar's) unless another fits clearly better, compared
 * only over the routes seen today, each over the span it was seen in (first departure −
 * DAY_TYPE_TOLERANCE_SEC to its last), and only on routes whose slots both day types learnt.
 * Plans other day types (plan.planAs) only once the calendar's miscount reaches
 * DAY_TYPE_MIN_MISCOUNT. Never throws.
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
