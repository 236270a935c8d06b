/**
 * A route's timetable change, told from its departures (docs/predictions.md §Following a changed
 * timetable): the latest service days no longer fit the slots learnt from the days before them, on
 * CHANGE_MIN_DAYS or more consecutive days with departures, not one odd day. Pure; no I/O.
 */
import { dayType } from '../../time';
import type { DayType } from '../../../contract/transit';
import type { HistoryDay } from './slots';
import { align, alignment, median } from './stats';

/** Consecutive misfit days (with departures, of day types with slots to fit) that make a change. */
export const CHANGE_MIN_DAYS = 2;
/** Service days before the planned date in which a change is looked for. */
export const CHANGE_LOOKBACK_DAYS = 10;
/**
 * A day misfits its slots above this: the alignment's cost (matched differences, half the
 * tolerance per unmatched run or slot) over its cost with nothing matched. A usual day costs
 * 0.1–0.3 (a minute or two of noise, a skipped run); a timetable moved or re-spaced, 0.5 and more.
 */
export const MISFIT_ABOVE = 0.4;

/** The slots a day type had before a date (seconds of day, ascending) and the tolerance they were learnt with (seconds). */
export type LearntSlots = { slots: number[]; toleranceSec: number };

/**
 * A detected change: the first day of the new timetable, the day types whose days since then
 * misfit, and those whose days since then fit (running as before: the change is not theirs).
 */
export type TimetableChange = { since: string; dayTypes: DayType[]; unchangedTypes: DayType[] };

/** A timetable's shape, for the admins: its first departure (seconds of day) and its median headway (seconds). */
export type TimetableShape = { firstSec: number; headwaySec: number };

/** The shape of `slots` (seconds of day, ascending), or null with fewer than two. */
export function shapeOf(slots: readonly number[]): TimetableShape | null {
  if (slots.length < 2) return null;
  const gaps = slots
    .slice(1)
    .map((second, i) => second - slots[i])
    .sort((a, b) => a - b);
  return { firstSec: slots[0], headwaySec: gaps[Math.floor(gaps.length / 2)] };
}

/** How far `runs` (seconds of day) are from `learnt`: 0 (every run on a slot) to 1 (nothing matched). */
export function misfitOf(runs: readonly number[], learnt: LearntSlots): number {
  const { slots, toleranceSec } = learnt;
  if (runs.length + slots.length === 0) return 0;
  const { cost } = alignment(slots, runs, toleranceSec);
  return cost / ((runs.length + slots.length) * (toleranceSec / 2));
}

/**
 * The change of one route as of a planned date, or null. Each day of the lookback is set against
 * the slots its day type had before the lookback began, so a change stays seen through its first
 * CHANGE_LOOKBACK_DAYS days, however many of them the slots would have taken in by then; after
 * that the usual learning (recent days weigh most) has the new timetable anyway.
 *
 * The days are walked from the most recent back. A misfit day joins the change; a day that fits
 * marks its day type as running as before, and the walk ends at an earlier day of a type so marked
 * (one odd day behind days that fit is no change). So a change of weekdays alone (a vacation
 * timetable) is followed across the weekend that fits in between.
 * @param runsOf the route's departures (seconds of day) per service date.
 * @param datesDesc the service dates before the planned one, most recent first.
 * @param learnBefore the slots the route's days of `type` had before `date` (only earlier dates), or
 *   null when too few days of that type are known: a day of such a type neither fits nor misfits.
 * @returns null unless CHANGE_MIN_DAYS or more days misfit, and either two of one day type or all
 *   with no day that fits between them. since: the earliest misfit day; dayTypes: the misfit days'
 *   types (api/time.ts dayType); unchangedTypes: those of days since then that fit.
 */
export function timetableChange(
  runsOf: (date: string) => readonly number[] | undefined,
  datesDesc: readonly string[],
  learnBefore: (type: DayType, date: string) => LearntSlots | null,
): TimetableChange | null {
  const lookback = datesDesc.slice(0, CHANGE_LOOKBACK_DAYS);
  const start = lookback[lookback.length - 1];
  const reference = new Map<DayType, LearntSlots | null>();
  const misfits: { date: string; type: DayType }[] = [];
  const fitOn = new Map<DayType, string>();
  for (const date of lookback) {
    const runs = runsOf(date);
    if (!runs?.length) continue;
    const type = dayType(date);
    if (fitOn.has(type)) break;
    if (!reference.has(type)) reference.set(type, learnBefore(type, start));
    const learnt = reference.get(type);
    if (!learnt) continue;
    if (misfitOf(runs, learnt) <= MISFIT_ABOVE) fitOn.set(type, date);
    else misfits.push({ date, type });
  }
  if (misfits.length < CHANGE_MIN_DAYS) return null;
  const since = misfits[misfits.length - 1].date;
  const latest = misfits[0].date;
  const dayTypes = [...new Set(misfits.map((m) => m.type))];
  const fitBetween = [...fitOn.values()].some((date) => date > since && date < latest);
  if (fitBetween && dayTypes.length === misfits.length) return null;
  return {
    since,
    dayTypes,
    unchangedTypes: [...fitOn].flatMap(([type, date]) => (date > since ? [type] : [])),
  };
}

/** Seconds either side of a time of day over which a change's shift (changeShapeOf) and a day's headway are told. */
const SHAPE_WINDOW_SEC = 90 * 60;
/** A change's rate counts as 1 (no re-spacing) within this of it. */
const SAME_RATE_WITHIN = 0.15;

/**
 * How a change moved one day type's timetable: the first departure's shift, the shift of the others
 * as a function of the time of day (seconds of day, the timetable before), and the rate (the median
 * headway since over the median headway before). For carrying the change to the days before it.
 */
export type ChangeShape = {
  firstShiftSec: number;
  shiftAt: (second: number) => number;
  rate: number;
};

/** The median headway of `slots` (ascending, seconds; two or more). */
function medianHeadway(slots: readonly number[]): number {
  return median(slots.slice(1).map((second, i) => second - slots[i]));
}

/** The mean headway of `slots` (ascending, seconds) within SHAPE_WINDOW_SEC of `second`, or of all of them with fewer than three there. */
function headwayNear(slots: readonly number[], second: number): number {
  const near = slots.filter((s) => Math.abs(s - second) <= SHAPE_WINDOW_SEC);
  const from = near.length >= 3 ? near : slots;
  return (from[from.length - 1] - from[0]) / (from.length - 1);
}

/**
 * The ChangeShape of a day type whose slots were `before` and are `after` (seconds of day,
 * ascending, two or more each; `toleranceSec` as they were learnt with): the shift at a time is the
 * ends' mean shift when both moved alike (within half the tolerance), else the median difference of
 * the other slots matched (align) within SHAPE_WINDOW_SEC of it (the nearest pair's past that, 0
 * without any); the rate is clamped to 0.5–2. One rate for the whole day: a rate told per hour
 * from the headways near it swings where a peak begins or ends, and a weekend has no peaks.
 */
export function changeShapeOf(before: readonly number[], after: readonly number[], toleranceSec: number): ChangeShape {
  const pairs = align(before.slice(1), after.slice(1), toleranceSec).flatMap((j, i) =>
    j >= 0 ? [{ second: before[i + 1], shift: after[j + 1] - before[i + 1] }] : [],
  );
  const firstShiftSec = after[0] - before[0];
  const lastShiftSec = after[after.length - 1] - before[before.length - 1];
  // Both ends moved alike: the whole day moved, which the pairs cannot tell from a shift by a
  // headway less (a timetable moved 30 min with 20 min headways matches its slots 10 min on).
  const wholeDay = Math.abs(firstShiftSec - lastShiftSec) <= toleranceSec / 2;
  const shiftAt = (second: number) => {
    if (wholeDay) return (firstShiftSec + lastShiftSec) / 2;
    if (!pairs.length) return 0;
    const near = pairs.filter((p) => Math.abs(p.second - second) <= SHAPE_WINDOW_SEC);
    if (near.length) return median(near.map((p) => p.shift));
    return pairs.reduce((a, b) => (Math.abs(b.second - second) < Math.abs(a.second - second) ? b : a)).shift;
  };
  return {
    firstShiftSec,
    shiftAt,
    rate: Math.min(2, Math.max(0.5, medianHeadway(after) / medianHeadway(before))),
  };
}

/**
 * A history day of another day type as it would have run under `shape`: its first departure moved
 * by the first shift, the others by the shift at their time (dropping those it brings within a
 * third of a headway of the first), each passage moved with its departure. When the rate is not 1
 * (SAME_RATE_WITHIN) the day is re-spaced instead: from its moved first departure, each headway is
 * the day's own near that time times the rate, up to its moved last
 * departure, and a passage is its departure less the day's median turnaround. Days with fewer than
 * two runs are returned as they are.
 */
export function carriedDay(day: HistoryDay, shape: ChangeShape): HistoryDay {
  const { runs, arrivals } = day;
  if (runs.length < 2) return day;
  const first = runs[0] + shape.firstShiftSec;
  const last = runs[runs.length - 1] + shape.shiftAt(runs[runs.length - 1]);
  if (Math.abs(shape.rate - 1) <= SAME_RATE_WITHIN) {
    const moved = runs.map((second, i) => ({
      second: i === 0 ? first : second + shape.shiftAt(second),
      arrival: arrivals[i] === null ? null : arrivals[i] + (i === 0 ? first - runs[0] : shape.shiftAt(second)),
    }));
    const kept = moved.filter((run, i) => i === 0 || run.second > first + headwayNear(runs, runs[i]) / 3);
    return { ...day, runs: kept.map((run) => run.second), arrivals: kept.map((run) => run.arrival) };
  }
  const turnarounds = runs.flatMap((second, i) => (arrivals[i] === null ? [] : [second - (arrivals[i] as number)]));
  const turnaround = turnarounds.length ? median(turnarounds) : null;
  const respaced = [first];
  for (;;) {
    const at = respaced[respaced.length - 1];
    const next = at + headwayNear(runs, at - shape.shiftAt(at)) * shape.rate;
    // A window of runs at one second has no headway: stop rather than step in place.
    if (!(next > at) || next > last - (next - at) / 2) break;
    respaced.push(next);
  }
  if (last > first) respaced.push(last);
  return {
    ...day,
    runs: respaced,
    arrivals: respaced.map((second) => (turnaround === null ? null : second - turnaround)),
  };
}
