/**
 * How a run's departure from the campus terminus follows its passage at the campus crossroads,
 * learnt per route and day type from the slots' history (slots.ts): the departure's deviation from
 * its slot given how late the bus passed the crossroads against the slot's usual passage, or, before
 * it is seen, given how late the day's previous run was. Pure apart from deviationsGiven's memo;
 * seconds of the service day (KST).
 * Why it is learnt and not assumed: docs/predictions.md §How the estimate is made.
 */
import type { HistoryDay, Slot } from './slots';
import { compressed, dressed, MIN_KERNEL_SEC } from './spread';
import type { Weighted } from './spread';
import { median, weightedMedian } from './stats';

/** A departure of the history, matched to a slot, whose passage at the crossroads was seen. */
export type TerminusSample = {
  /** The slot's second of the day (its weighted median departure). */
  slotSecond: number;
  /** Passage at the crossroads − the slot's usual passage (usualArrivals), seconds (positive: late). */
  lateness: number;
  /** Departure − the slot's second, seconds. */
  deviation: number;
  /**
   * The lateness of the same day's previous run seen at the crossroads, when it passed at most
   * PREVIOUS_RUN_SEC before this one; else null.
   */
  previousLateness: number | null;
  /** The day's recency weight. */
  weight: number;
  /** The history day it was seen on. */
  day: HistoryDay;
};

/** What a departure's deviation is conditioned on: its bus's lateness, or the day's previous run's. */
type ConditionKey = 'lateness' | 'previousLateness';
/**
 * A density tabulated one table per DENSITY_HOUR_SEC of the day from `fromSecond` (the samples
 * weighted for its middle as deviationsGiven's): the density (per second) every DENSITY_STEP_SEC
 * from `fromSec`.
 */
type DensityTables = { fromSecond: number; tables: DensityTable[] };
/** One hour's table: the density at fromSec + i × DENSITY_STEP_SEC, and its tail (the share at or above that value). */
type DensityTable = { fromSec: number; values: Float64Array; tails: Float64Array };

/** What learnTerminus learnt for a route and day type. */
export type TerminusModel = {
  /**
   * Per slot (in the slots' order): its usual passage at the crossroads (second of the day), its
   * second less the route's usual turnaround; null when no passage of the route was seen.
   */
  usualArrivals: (number | null)[];
  samples: TerminusSample[];
  /** The samples ascending by lateness, and those with a previousLateness ascending by it. */
  byLateness: TerminusSample[];
  byPreviousLateness: TerminusSample[];
  /** The weighted share of the slots' departures whose passage went unseen, MIN_SHARE–1. */
  unseenShare: number;
  /** The weighted share of slot-days without a departure (a skipped run), MIN_SHARE–1. */
  missingShare: number;
  /** densityOf's tables. */
  density: Record<DensityKey, DensityTables>;
  /** deviationsGiven's answers by their arguments (at most REMEMBERED_SPREADS). */
  remembered: Map<string, Weighted[]>;
};

/**
 * The least share of runs taken to go unseen, and to be skipped: never impossible, however clean
 * the history (a feed gap, a cancelled run).
 */
const MIN_SHARE = 0.02;
/**
 * A previous run that passed the crossroads further back than this (seconds) before a run's passage
 * (or, before it is seen, its usual passage) tells nothing of its lateness.
 */
export const PREVIOUS_RUN_SEC = 90 * 60;
/** Samples of slots within this many seconds of the asked time of day weigh fully; others TIME_SHRINK. */
const TIME_WINDOW_SEC = 90 * 60;
/** The weight of samples outside TIME_WINDOW_SEC: the route's whole day, as shrinkage. */
const TIME_SHRINK = 0.3;
/** The nearest samples (by the conditioning lateness) holding this share of the weight set the bandwidth. */
const NEIGHBOUR_SHARE = 0.3;
/** The smallest bandwidth, seconds of lateness. */
const MIN_BANDWIDTH_SEC = 30;

/**
 * What the departures of `slots` (ascending by second, as learnSlots returns them) tell of the
 * terminus: each slot's usual passage, the samples (sorted both ways), the lateness and deviation
 * densities, the unseen and missing shares, and an empty memo.
 */
export function learnTerminus(slots: readonly Slot[]): TerminusModel {
  // The route's usual turnaround: over the slots seen, the median of the slot's second less its
  // weighted median passage. A slot's own median passage is noisier than its departures' (the
  // lateness varies more than the departure), so each slot's usual passage is its second less it.
  const turnarounds = slots.flatMap((slot) => {
    const seen = slot.points.flatMap((p) => {
      const arrival = p.day.arrivals[p.run];
      return arrival === null ? [] : [{ value: arrival, weight: p.weight }];
    });
    return seen.length ? [slot.second - weightedMedian(seen)] : [];
  });
  const turnaround = turnarounds.length ? median(turnarounds) : null;
  const usualArrivals = slots.map((slot) => (turnaround === null ? null : slot.second - turnaround));
  // Per day, its seen runs in passage order with their lateness, for previousLateness.
  const byDay = new Map<
    Slot['points'][number]['day'],
    { arrival: number; lateness: number; sample: TerminusSample }[]
  >();
  slots.forEach((slot, index) => {
    const usual = usualArrivals[index];
    if (usual === null) return;
    for (const point of slot.points) {
      const arrival = point.day.arrivals[point.run];
      if (arrival === null) continue;
      const sample: TerminusSample = {
        slotSecond: slot.second,
        lateness: arrival - usual,
        deviation: point.value - slot.second,
        previousLateness: null,
        weight: point.weight,
        day: point.day,
      };
      byDay.set(point.day, [...(byDay.get(point.day) ?? []), { arrival, lateness: sample.lateness, sample }]);
    }
  });
  const samples: TerminusSample[] = [];
  for (const runs of byDay.values()) {
    runs.sort((a, b) => a.arrival - b.arrival);
    runs.forEach(({ arrival, sample }, i) => {
      const previous = runs[i - 1];
      if (previous && arrival - previous.arrival <= PREVIOUS_RUN_SEC) sample.previousLateness = previous.lateness;
      samples.push(sample);
    });
  }
  const byLateness = [...samples].sort((a, b) => a.lateness - b.lateness);
  const byPreviousLateness = samples
    .filter((s) => s.previousLateness !== null)
    .sort((a, b) => (a.previousLateness as number) - (b.previousLateness as number));
  const points = slots.flatMap((slot) => slot.points);
  const pointWeight = points.reduce((sum, p) => sum + p.weight, 0);
  const unseenWeight = points.reduce((sum, p) => sum + (p.day.arrivals[p.run] === null ? p.weight : 0), 0);
  const dayWeight = [...new Set(points.map((p) => p.day))].reduce((sum, day) => sum + day.weight, 0);
  return {
    usualArrivals,
    samples,
    byLateness,
    byPreviousLateness,
    remembered: new Map(),
    density: { lateness: densityTables(samples, 'lateness'), deviation: densityTables(samples, 'deviation') },
    unseenShare: Math.max(MIN_SHARE, pointWeight ? unseenWeight / pointWeight : 0),
    missingShare: Math.max(MIN_SHARE, slots.length && dayWeight ? 1 - pointWeight / (slots.length * dayWeight) : 0),
  };
}

/** Bandwidth (seconds) of densityOf's Gaussian kernel. */
const DENSITY_BANDWIDTH_SEC = 60;
/** Step (seconds) of densityOf's tables. */
const DENSITY_STEP_SEC = 10;

/** The Gaussian kernel at 0, 1, 2, … steps from its centre, to 3.5 bandwidths. */
const KERNEL = Float64Array.from(
  { length: Math.floor((3.5 * DENSITY_BANDWIDTH_SEC) / DENSITY_STEP_SEC) + 1 },
  (_, step) => Math.exp(-0.5 * ((step * DENSITY_STEP_SEC) / DENSITY_BANDWIDTH_SEC) ** 2),
);

/** The span of the day (seconds) one table of densityOf covers. */
const DENSITY_HOUR_SEC = 3600;

/** What densityOf gives the density of: a bus's lateness at the crossroads, or its departure's deviation from its slot. */
type DensityKey = 'lateness' | 'deviation';

/** densityOf's tables of one key for the samples (TerminusModel.density). */
function densityTables(samples: readonly TerminusSample[], key: DensityKey): DensityTables {
  if (samples.length === 0) return { fromSecond: 0, tables: [] };
  const seconds = samples.map((s) => s.slotSecond);
  const fromSecond = Math.floor(Math.min(...seconds) / DENSITY_HOUR_SEC) * DENSITY_HOUR_SEC;
  const count = Math.floor((Math.max(...seconds) - fromSecond) / DENSITY_HOUR_SEC) + 1;
  const reach = 3.5 * DENSITY_BANDWIDTH_SEC;
  const values = samples.map((s) => s[key]);
  const fromSec = Math.min(...values) - reach;
  const length = Math.ceil((Math.max(...values) + reach - fromSec) / DENSITY_STEP_SEC) + 1;
  const tables = Array.from({ length: count }, (_, hour) => {
    const middle = fromSecond + (hour + 0.5) * DENSITY_HOUR_SEC;
    const table = new Float64Array(length);
    const weights = samples.map((sample) => timeWeighted(sample, middle));
    const norm = weights.reduce((sum, w) => sum + w, 0) * DENSITY_BANDWIDTH_SEC * Math.sqrt(2 * Math.PI);
    // Each sample at its nearest step (at most half a step off, a twelfth of the bandwidth), so
    // that one kernel serves every sample.
    values.forEach((value, k) => {
      const centre = Math.round((value - fromSec) / DENSITY_STEP_SEC);
      const weight = weights[k] / norm;
      for (let offset = -KERNEL.length + 1; offset < KERNEL.length; offset++) {
        const i = centre + offset;
        if (i >= 0 && i < length) table[i] += weight * KERNEL[Math.abs(offset)];
      }
    });
    const tails = new Float64Array(length);
    for (let i = length - 1; i >= 0; i--) tails[i] = (i + 1 < length ? tails[i + 1] : 0) + table[i] * DENSITY_STEP_SEC;
    return { fromSec, values: table, tails };
  });
  return { fromSecond, tables };
}

/**
 * The density (per second) of `key` being `value` seconds for a run due at `second` of the day:
 * its lateness at the crossroads against its slot's usual passage, or its departure's deviation
 * from its slot. From the samples near that time of day (a Gaussian kernel of
 * DENSITY_BANDWIDTH_SEC, tabulated per DENSITY_HOUR_SEC); 0 far from every sample.
 */
export function densityOf(model: TerminusModel, key: DensityKey, second: number, value: number): number {
  const table = tableOf(model, key, second);
  if (!table) return 0;
  const index = Math.round((value - table.fromSec) / DENSITY_STEP_SEC);
  return index >= 0 && index < table.values.length ? table.values[index] : 0;
}

/** The density table of `key` for `second` of the day, or undefined without samples. */
function tableOf(model: TerminusModel, key: DensityKey, second: number): DensityTable | undefined {
  const { fromSecond, tables } = model.density[key];
  return tables[Math.min(tables.length - 1, Math.max(0, Math.floor((second - fromSecond) / DENSITY_HOUR_SEC)))];
}

/** A sample's weight for a departure at `second` of the day: its own, times TIME_SHRINK outside TIME_WINDOW_SEC. */
const timeWeighted = (sample: TerminusSample, second: number) =>
  sample.weight * (Math.abs(sample.slotSecond - second) <= TIME_WINDOW_SEC ? 1 : TIME_SHRINK);

/**
 * The share (0–1) of buses near `second` of the day (weighted as densityOf's) passing the
 * crossroads at least `lateness` seconds after their slot's usual passage: the lateness density's
 * tail (DensityTables.tails); 0 without samples.
 */
export function latenessShareAtLeast(model: TerminusModel, second: number, lateness: number): number {
  const table = tableOf(model, 'lateness', second);
  if (!table) return 0;
  const index = Math.ceil((lateness - table.fromSec) / DENSITY_STEP_SEC);
  return index <= 0 ? 1 : index < table.tails.length ? Math.min(1, table.tails[index]) : 0;
}

/**
 * The deviations from its slot (seconds, weighted) of a departure at `second` of the day whose
 * `key` (its own lateness, or the previous run's) is `target`, seconds: the samples with a key,
 * those of slots within TIME_WINDOW_SEC weighing fully and the rest TIME_SHRINK, each by a kernel
 * in |key − target| whose bandwidth takes in NEIGHBOUR_SHARE of that weight (neighbours). With
 * `atLeast` (a bus due and not yet seen is at least that late; `target` is then not read), every
 * sample whose own lateness is at least it, weighted for the time of day alone. Each deviation is
 * dressed with a kernel of MIN_KERNEL_SEC. Empty when no sample qualifies.
 */
export function deviationsGiven(
  model: TerminusModel,
  second: number,
  key: ConditionKey,
  target: number,
  atLeast = -Infinity,
): Weighted[] {
  // With `atLeast`, the spread depends on the first sample it takes, not on `atLeast` itself: a bus
  // overdue by one more second asks again each second, and mostly gets the same samples.
  const from =
    atLeast > -Infinity ? firstAtLeast(model.byLateness.length, (i) => model.byLateness[i].lateness, atLeast) : -1;
  const memoKey = from >= 0 ? `atLeast ${second} ${from}` : `${key} ${second} ${target}`;
  let spread = model.remembered.get(memoKey);
  if (!spread) {
    const points =
      from >= 0
        ? model.byLateness
            .slice(from)
            .map((sample) => ({ value: sample.deviation, weight: timeWeighted(sample, second) }))
        : neighbours(key === 'lateness' ? model.byLateness : model.byPreviousLateness, second, key, target);
    spread = compressed(dressed(points, MIN_KERNEL_SEC));
    if (model.remembered.size >= REMEMBERED_SPREADS) model.remembered.clear();
    model.remembered.set(memoKey, spread);
  }
  return spread;
}

/**
 * Spreads deviationsGiven remembers per model, at most: a bus's spread is asked for on every
 * request while it waits (and by the backtest for every query).
 */
const REMEMBERED_SPREADS = 2000;

/** deviationsGiven's neighbours, from `sorted` (ascending by `key`). */
function neighbours(sorted: readonly TerminusSample[], second: number, key: ConditionKey, target: number): Weighted[] {
  const keyOf = (i: number) => sorted[i][key] as number;
  let total = 0;
  for (const sample of sorted) total += timeWeighted(sample, second);
  if (total === 0) return [];
  // Widen from the target, nearest first, until NEIGHBOUR_SHARE of the weight is in.
  let low = firstAtLeast(sorted.length, keyOf, target) - 1;
  let high = low + 1;
  const nextNearest = (): { index: number; distance: number } | null => {
    const below = low >= 0 ? target - keyOf(low) : Infinity;
    const above = high < sorted.length ? keyOf(high) - target : Infinity;
    if (below === Infinity && above === Infinity) return null;
    return below <= above ? { index: low--, distance: below } : { index: high++, distance: above };
  };
  let cumulative = 0;
  let bandwidth = MIN_BANDWIDTH_SEC;
  const taken: { index: number; distance: number }[] = [];
  for (let next = nextNearest(); next; next = nextNearest()) {
    taken.push(next);
    cumulative += timeWeighted(sorted[next.index], second);
    if (cumulative >= total * NEIGHBOUR_SHARE) {
      bandwidth = Math.max(MIN_BANDWIDTH_SEC, next.distance);
      break;
    }
  }
  // Epanechnikov's kernel over 1.5 bandwidths, so the nearest share all weigh.
  const reach = 1.5 * bandwidth;
  for (let next = nextNearest(); next && next.distance < reach; next = nextNearest()) taken.push(next);
  const kept = taken.flatMap(({ index, distance }) =>
    distance < reach
      ? [{ sample: sorted[index], weight: timeWeighted(sorted[index], second) * (1 - (distance / reach) ** 2) }]
      : [],
  );
  // Local linear: each neighbour's deviation moved along the neighbourhood's slope to the target,
  // not beyond the neighbours' own keys (no extrapolation past the data).
  const keys = kept.map(({ sample }) => sample[key] as number);
  const slope = slopeOf(kept.map(({ sample, weight }, i) => ({ x: keys[i], y: sample.deviation, weight })));
  const to = Math.min(Math.max(...keys), Math.max(Math.min(...keys), target));
  return kept.map(({ sample, weight }, i) => ({ value: sample.deviation + slope * (to - keys[i]), weight }));
}

/**
 * The weighted least-squares slope of y on x, as the data has it (clamping it to [0, 1], "a later
 * bus leaves no earlier, and by at most its delay later", changed the ETA score by at most 0.1
 * point on either generator: not a rule the data needs); 0 when x does not vary.
 */
function slopeOf(points: readonly { x: number; y: number; weight: number }[]): number {
  const total = points.reduce((sum, p) => sum + p.weight, 0);
  if (total === 0) return 0;
  const meanX = points.reduce((sum, p) => sum + p.weight * p.x, 0) / total;
  const meanY = points.reduce((sum, p) => sum + p.weight * p.y, 0) / total;
  let covariance = 0;
  let variance = 0;
  for (const p of points) {
    covariance += p.weight * (p.x - meanX) * (p.y - meanY);
    variance += p.weight * (p.x - meanX) ** 2;
  }
  return variance > 0 ? covariance / variance : 0;
}

/** The first index in [0, length) whose value (ascending) is at least `target`; `length` when none. */
function firstAtLeast(length: number, valueAt: (index: number) => number, target: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (valueAt(mid) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
