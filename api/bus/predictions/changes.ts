/**
 * A route's timetable change, told from its departures (docs/predictions.md §Following a changed
 * timetable): the latest service days no longer fit the slots learnt from the days before them, on
 * CHANGE_MIN_DAYS or more consecutive days with departures, not one odd day. Pure; no I/O.
 */
import { dayType } from '../../time';
import type { DayType } from '../../../contract/transit';
import { alignment } from './stats';

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

/** A detected change: the first day of the new timetable, and the day types whose days since then misfit. */
export type TimetableChange = { since: string; dayTypes: DayType[] };

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
 * @param runsOf the route's departures (seconds of day) per service date.
 * @param datesDesc the service dates before the planned one, most recent first.
 * @param learnBefore the slots the route's days of `type` had before `date` (only earlier dates), or
 *   null when too few days of that type are known: a day of such a type neither fits nor misfits.
 * @returns since: the first of the lookback's trailing misfit days (every later day with departures
 *   misfits too), when they are CHANGE_MIN_DAYS or more; dayTypes: their day types (api/time.ts dayType).
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
  for (const date of lookback) {
    const runs = runsOf(date);
    if (!runs?.length) continue;
    const type = dayType(date);
    if (!reference.has(type)) reference.set(type, learnBefore(type, start));
    const learnt = reference.get(type);
    if (!learnt) continue;
    if (misfitOf(runs, learnt) <= MISFIT_ABOVE) break;
    misfits.push({ date, type });
  }
  if (misfits.length < CHANGE_MIN_DAYS) return null;
  return { since: misfits[misfits.length - 1].date, dayTypes: [...new Set(misfits.map((m) => m.type))] };
}
