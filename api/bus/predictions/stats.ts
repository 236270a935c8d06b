/** Order statistics and sequence alignment over seconds, for the predictions. Pure; no I/O. */
import { quantileOf, spreadOf, type Weighted } from './spread';

/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `q` quantile of `values` (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The smallest value whose cumulative weight (values ascending) reaches the fraction `q` of the total. */
export const weightedQuantile = (points: readonly Weighted[], q: number): number => quantileOf(spreadOf(points), q);

export const weightedMedian = (points: readonly Weighted[]) => weightedQuantile(points, 0.5);

/**
 * An order-preserving match of two ascending sequences (seconds) minimising the total time
 * difference, each unmatched element costing tolerance / 2, pairs further apart than `tolerance`
 * never matched. Returns, per element of `reference`, the index of its match in `day` or -1.
 */
export function align(reference: readonly number[], day: readonly number[], tolerance: number): number[] {
  return alignment(reference, day, tolerance).matched;
}

/** align's match and its total cost (seconds: matched differences plus tolerance / 2 per unmatched element of either). */
export function alignment(
  reference: readonly number[],
  day: readonly number[],
  tolerance: number,
): { matched: number[]; cost: number } {
  const gap = tolerance / 2;
  const n = reference.length;
  const m = day.length;
  // cost[i][j]: best cost of aligning the first i reference runs with the first j runs of the day.
  const cost = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
  for (let i = 0; i <= n; i++) cost[i][0] = i * gap;
  for (let j = 0; j <= m; j++) cost[0][j] = j * gap;
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
