/**
 * A predicted departure's spread (its predictive distribution: weighted instants, epoch ms,
 * ascending by value, so that quantiles need no sort) and
 * what riders are told of it: the 80 % range (RANGE_QUANTILES) and the rider-safe point, the time
 * most likely to be right by the ETA windows riders judge an answer by. Pure. Why these:
 * docs/predictions.md §The range and the rider-safe time.
 */

/**
 * Lead buckets (seconds before the departure) with the window an answer is accurate in: the bus
 * leaves at most `earlySec` before or `lateSec` after it. The TransitApp ETA Accuracy Benchmark's;
 * wider on the late side, as a rider forgives a bus a little late far more than one gone early.
 */
export const ETA_BUCKETS = [
  { label: '0-3 min', fromSec: 0, toSec: 180, earlySec: 30, lateSec: 90 },
  { label: '3-6 min', fromSec: 180, toSec: 360, earlySec: 60, lateSec: 150 },
  { label: '6-10 min', fromSec: 360, toSec: 600, earlySec: 60, lateSec: 210 },
  { label: '10-15 min', fromSec: 600, toSec: 900, earlySec: 90, lateSec: 270 },
] as const;

/** A value with its weight, for the weighted quantiles (a spread's points: epoch ms, or seconds). */
export type Weighted = { value: number; weight: number };

/** The percentiles a stated range runs between (lowerAt, upperAt): an 80 % range. */
export const RANGE_QUANTILES = { lower: 0.1, upper: 0.9 } as const;

/** How many points a learnt spread keeps (compressed): equal-weight quantiles, enough for a 2 % step. */
export const SPREAD_POINTS = 50;

/** Weighted points as a spread: ascending by value. */
export function spreadOf(points: readonly Weighted[]): Weighted[] {
  return [...points].sort((a, b) => a.value - b.value);
}

/**
 * `points` (any order) as a spread of at most SPREAD_POINTS equal-weight points at its quantiles
 * ((i + 0.5) / n), the same total weight; all of them, ascending, when there are no more than that.
 */
export function compressed(points: readonly Weighted[], count = SPREAD_POINTS): Weighted[] {
  const sorted = spreadOf(points);
  if (sorted.length <= count) return sorted;
  const total = sorted.reduce((sum, p) => sum + p.weight, 0);
  const result: Weighted[] = [];
  let cumulative = 0;
  let index = 0;
  for (let i = 0; i < count; i++) {
    const target = ((i + 0.5) / count) * total;
    while (index < sorted.length - 1 && cumulative + sorted[index].weight < target)
      cumulative += sorted[index++].weight;
    result.push({ value: sorted[index].value, weight: total / count });
  }
  return result;
}

/**
 * A recalibration map G of probability levels, learnt from departures a spread did not see: G[k] is
 * the share of them that fell at or below their spread's level k / CALIBRATION_KNOTS; increasing
 * from 0 to 1. Why: docs/predictions.md §The range and the rider-safe time.
 */
export type Calibration = Float64Array;

/**
 * A day's departures are checked (for a Calibration) against what at least this many older days
 * predicted: as a plan predicts a day after all it learnt from, so that drift counts.
 */
export const MIN_OLDER_DAYS = 4;

/** Knots of a Calibration: levels 0, 1 / CALIBRATION_KNOTS, …, 1. */
const CALIBRATION_KNOTS = 20;
/** Weight (in levels) of the identity map calibrationOf shrinks toward. */
const CALIBRATION_PRIOR = 10;

/**
 * The Calibration of `levels` (each a left-out departure's level, 0–1, in the spread that did not
 * see it): their empirical CDF at the knots, shrunk toward the identity by CALIBRATION_PRIOR
 * levels. The identity for none.
 */
export function calibrationOf(levels: readonly number[]): Calibration {
  const calibration = new Float64Array(CALIBRATION_KNOTS + 1);
  const atOrBelow = new Float64Array(CALIBRATION_KNOTS + 1);
  for (const level of levels) atOrBelow[Math.max(0, Math.ceil(level * CALIBRATION_KNOTS - 1e-9))] += 1;
  for (let k = 1; k <= CALIBRATION_KNOTS; k++) atOrBelow[k] += atOrBelow[k - 1];
  for (let k = 0; k <= CALIBRATION_KNOTS; k++) {
    const u = k / CALIBRATION_KNOTS;
    const at = atOrBelow[k];
    calibration[k] = (at + CALIBRATION_PRIOR * u) / (levels.length + CALIBRATION_PRIOR);
  }
  calibration[0] = 0;
  calibration[CALIBRATION_KNOTS] = 1;
  return calibration;
}

/** G at level `u` (0–1), linear between knots. */
function levelOf(calibration: Calibration, u: number): number {
  const x = Math.min(1, Math.max(0, u)) * CALIBRATION_KNOTS;
  const k = Math.min(CALIBRATION_KNOTS - 1, Math.floor(x));
  return calibration[k] + (calibration[k + 1] - calibration[k]) * (x - k);
}

/**
 * A spread (ascending) reweighted so that its CDF F becomes G(F): each point's share of levels
 * mapped through `calibration`; the same total weight.
 */
export function recalibrated(spread: readonly Weighted[], calibration: Calibration): Weighted[] {
  const total = spread.reduce((sum, p) => sum + p.weight, 0);
  let cumulative = 0;
  return spread.map(({ value, weight }) => {
    const from = cumulative / total;
    cumulative += weight;
    return { value, weight: (levelOf(calibration, cumulative / total) - levelOf(calibration, from)) * total };
  });
}

/** The level (0–1) of `value` in a spread (any order): the weight below it, half the weight at it. */
export function levelIn(points: readonly Weighted[], value: number): number {
  let below = 0;
  let total = 0;
  for (const point of points) {
    total += point.weight;
    if (point.value < value) below += point.weight;
    else if (point.value === value) below += point.weight / 2;
  }
  return total ? below / total : 0.5;
}

/**
 * The least kernel bandwidth (seconds) a spread learnt from departures is dressed with: no learnt
 * spread is a single instant, however alike the days it was learnt from.
 */
export const MIN_KERNEL_SEC = 20;

/** Standard normal quantiles at (k + 0.5) / 5: a point dressed with them stands for a normal kernel. */
const KERNEL_Z = [-1.2816, -0.5244, 0, 0.5244, 1.2816];

/**
 * `points` (any order) each spread over a normal kernel of `bandwidth` (in the values' unit), as
 * KERNEL_Z.length points of equal weight, so that a spread learnt from a few days reaches past its
 * extremes: a spread (ascending). Merged from the kernel points' ascending runs rather than sorted,
 * as most of a backtest's time went to sorting dressed points.
 */
export function dressed(points: readonly Weighted[], bandwidth: number): Weighted[] {
  const ascending = spreadOf(points);
  const shifts = KERNEL_Z.map((z) => z * bandwidth);
  const next = shifts.map(() => 0);
  const result: Weighted[] = [];
  for (let left = ascending.length * shifts.length; left > 0; left--) {
    let run = -1;
    let value = Infinity;
    for (let k = 0; k < shifts.length; k++) {
      if (next[k] === ascending.length) continue;
      const candidate = ascending[next[k]].value + shifts[k];
      if (run < 0 || candidate < value) [run, value] = [k, candidate];
    }
    result.push({ value, weight: ascending[next[run]++].weight / shifts.length });
  }
  return result;
}

/** The `q` quantile of a spread (ascending): the first value whose cumulative weight reaches q of the total. */
export function quantileOf(spread: readonly Weighted[], q: number): number {
  const target = spread.reduce((sum, p) => sum + p.weight, 0) * q;
  let cumulative = 0;
  for (const point of spread) {
    cumulative += point.weight;
    if (cumulative >= target) return point.value;
  }
  return spread[spread.length - 1].value;
}

/** The 80 % range of a spread (ascending, not empty), epoch ms. */
export function rangeOf(spread: readonly Weighted[]): { lowerMs: number; upperMs: number } {
  return { lowerMs: quantileOf(spread, RANGE_QUANTILES.lower), upperMs: quantileOf(spread, RANGE_QUANTILES.upper) };
}

/**
 * The 80 % range of a spread (ascending, not empty) as stated with its point `atMs`: widened to hold
 * it, as the point may lie outside (a slot's second beside its dressed spread, a point chosen before
 * a calibration moved the ends). Epoch ms.
 */
export function rangeHolding(spread: readonly Weighted[], atMs: number): { lowerMs: number; upperMs: number } {
  const { lowerMs, upperMs } = rangeOf(spread);
  return { lowerMs: Math.min(lowerMs, atMs), upperMs: Math.max(upperMs, atMs) };
}

/**
 * The rider-safe point of a spread (ascending, not empty, epoch ms) asked at `nowMs`: the instant p ≥ nowMs most likely
 * to be judged accurate, a departure D counting when D − p lies in the ETA window of its own lead
 * D − nowMs (ETA_BUCKETS; leads past 15 min count in none); of equal ones, the nearest to the
 * spread's median (the smallest absolute error). Never throws; a spread wholly before nowMs gives
 * nowMs.
 */
export function riderSafeAt(points: readonly Weighted[], nowMs: number): number {
  const cumulative: number[] = [0];
  for (const point of points) cumulative.push(cumulative[cumulative.length - 1] + point.weight);
  /** Weight of the points in [from, to). */
  const within = (from: number, to: number) =>
    to > from ? cumulative[lowerIndex(points, to)] - cumulative[lowerIndex(points, from)] : 0;
  const scoreOf = (at: number) =>
    ETA_BUCKETS.reduce(
      (sum, { fromSec, toSec, earlySec, lateSec }) =>
        sum +
        within(
          Math.max(nowMs + fromSec * 1000, at - earlySec * 1000),
          Math.min(nowMs + toSec * 1000, at + lateSec * 1000 + 1),
        ),
      0,
    );
  const median = quantileOf(points, 0.5);
  // The score changes only where a point enters or leaves the window of its own lead's bucket, or
  // where a bucket's edge meets a window's.
  const candidates = [nowMs, median];
  for (const point of points) {
    const bucket = ETA_BUCKETS.find(({ toSec }) => point.value < nowMs + toSec * 1000);
    if (bucket) candidates.push(point.value + bucket.earlySec * 1000, point.value - bucket.lateSec * 1000);
  }
  for (const { fromSec, toSec, earlySec, lateSec } of ETA_BUCKETS) {
    for (const edge of [nowMs + fromSec * 1000, nowMs + toSec * 1000]) {
      candidates.push(edge + earlySec * 1000, edge - lateSec * 1000);
    }
  }
  let best = { at: nowMs, score: -1, distance: Infinity };
  for (const candidate of candidates) {
    const at = Math.max(nowMs, candidate);
    const score = scoreOf(at);
    const distance = Math.abs(at - median);
    if (score > best.score + 1e-9 || (Math.abs(score - best.score) <= 1e-9 && distance < best.distance)) {
      best = { at, score, distance };
    }
  }
  return best.at;
}

/** The index of the first point at or after `value` (points ascending). */
function lowerIndex(points: readonly Weighted[], value: number): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (points[mid].value < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
