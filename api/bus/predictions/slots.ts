/**
 * The slots of a route and day type: the times of day at which a run leaves on most days, learnt
 * from history days, and a weekday's own deviation from them. Pure; seconds of the service day.
 * Why slots, and how they are learnt: docs/predictions.md §How the estimate is made.
 */
import { calibrationOf, compressed, dressed, levelIn, MIN_KERNEL_SEC, MIN_OLDER_DAYS, recalibrated } from './spread';
import type { Weighted } from './spread';
import { align, median, weightedMedian } from './stats';

/** Passes of learnSlots' align-and-re-estimate. */
const SLOT_ITERATIONS = 3;
/** Half-width (seconds) of the span of slots whose deviations make one slot's same-weekday effect. */
const SAME_WEEKDAY_WINDOW_SEC = 45 * 60;
/** Same-weekday days needed, all deviating the same way, for a same-weekday effect. */
const MIN_SAME_WEEKDAY_DAYS = 3;
/** Smallest same-weekday effect applied, seconds. */
const MIN_SAME_WEEKDAY_EFFECT_SEC = 60;

/**
 * One same-day-type day of history: its runs (departures, seconds of day, ascending), when each run
 * passed the campus crossroads (seconds of day, the same order; null when unseen), its recency
 * weight and weekday (0 = Sunday).
 */
export type HistoryDay = { runs: number[]; arrivals: (number | null)[]; weight: number; weekday: number };
/** A departure of a history day (`run`: its index in day.runs), weighted like its day. */
export type Point = { value: number; weight: number; day: HistoryDay; run: number };
/** A learnt slot: where it is (weighted median, seconds of day) and the departures matched to it. */
export type Slot = { second: number; points: Point[] };

const weightOf = (points: readonly Point[]) => points.reduce((sum, p) => sum + p.weight, 0);
/** The weight of the distinct days among `points` (a day counts once). */
const dayWeightOf = (points: readonly Point[]) => weightOf([...new Map(points.map((p) => [p.day, p])).values()]);

/**
 * The slots learnt from `days` (most recent first, at least one) with `tolerance` seconds, ascending
 * by `second`; SLOT_ITERATIONS passes of align-and-re-estimate. Empty when no run recurs on days
 * weighing half of the total.
 */
export function learnSlots(days: readonly HistoryDay[], tolerance: number): Slot[] {
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
        if (j >= 0) matched[i].push({ value: day.runs[j], weight: day.weight, day, run: j });
      });
      day.runs.forEach((value, j) => {
        if (!used.has(j)) loose.push({ value, weight: day.weight, day, run: j });
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
export function slotSpreadSec(slots: readonly Slot[]): number {
  if (slots.length === 0) return 0;
  return median(
    slots.map((slot) => weightedMedian(slot.points.map((p) => ({ ...p, value: Math.abs(p.value - slot.second) })))),
  );
}

/**
 * The kernel bandwidth (seconds) of a slot's points: Silverman's rule, 0.9 × a robust standard
 * deviation (1.4826 × the weighted median absolute deviation) × n^(−1/5), n the points' effective
 * count ((Σw)² / Σw²); at least MIN_KERNEL_SEC.
 */
function bandwidthOf(points: readonly Weighted[]): number {
  const middle = weightedMedian(points);
  const sd = 1.4826 * weightedMedian(points.map((p) => ({ value: Math.abs(p.value - middle), weight: p.weight })));
  const total = points.reduce((sum, p) => sum + p.weight, 0);
  const effective = total ** 2 / points.reduce((sum, p) => sum + p.weight ** 2, 0);
  return Math.max(MIN_KERNEL_SEC, 0.9 * sd * effective ** -0.2);
}

/**
 * Each slot's departure spread (spread.ts; seconds of the day, ascending, at most SPREAD_POINTS):
 * its points dressed with a normal kernel (bandwidthOf) and recalibrated by where each day's own
 * departure fell in the spread of the slot's older departures (at least MIN_OLDER_DAYS of them, as a
 * plan predicts a day from the days before it), pooled over the slots.
 * So that its 80 % range holds on a day it did not see: docs/predictions.md §The range and the
 * rider-safe time.
 */
export function slotSpreads(slots: readonly Slot[]): Weighted[][] {
  const bandwidths = slots.map((slot) => bandwidthOf(slot.points));
  const levels = slots.flatMap((slot, i) =>
    slot.points.flatMap((point) => {
      const older = slot.points.filter((p) => p.day.weight < point.day.weight);
      return older.length >= MIN_OLDER_DAYS ? [levelIn(dressed(older, bandwidths[i]), point.value)] : [];
    }),
  );
  const calibration = calibrationOf(levels);
  return slots.map((slot, i) => recalibrated(compressed(dressed(slot.points, bandwidths[i])), calibration));
}

/**
 * Seconds to add to each slot (same order) on a date of `weekday` (0 = Sunday): the weekday's
 * median deviation from its slots near each slot minus the other days'; 0 unless at least
 * MIN_SAME_WEEKDAY_DAYS such days all deviate the same way by at least MIN_SAME_WEEKDAY_EFFECT_SEC.
 */
export function sameWeekdayEffects(slots: readonly Slot[], weekday: number): number[] {
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
