/**
 * A predicted departure's spread (its predictive distribution: weighted instants, epoch ms,
 * ascending by value, so that quantiles need no sort) and
 * what riders are told of it: the 80 % range (RANGE_QUANTILES) and the rider-safe point, the time
 * most likely to be right by the ETA windows riders judge an answer by. Pure. Why these:
 * docs/predictions.md §The range and the rider-safe time.
 */
import type { Weighted } from './stats';

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
 * The rider-safe point of a spread (ascending, epoch ms) asked at `nowMs`: the instant p ≥ nowMs most likely
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
