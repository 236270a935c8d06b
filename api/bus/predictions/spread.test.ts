import {
  calibrationOf,
  compressed,
  dressed,
  levelIn,
  quantileOf,
  rangeHolding,
  rangeOf,
  recalibrated,
  riderSafeAt,
  spreadOf,
  SPREAD_POINTS,
} from './spread';
import type { Weighted } from './spread';

/** Points of weight 1 at `values`. */
const unit = (values: number[]): Weighted[] => values.map((value) => ({ value, weight: 1 }));
const totalOf = (points: readonly Weighted[]) => points.reduce((sum, p) => sum + p.weight, 0);
/** 0, 1, …, 19, weight 1 each: its 80 % range is [1, 17]. */
const twenty = unit(Array.from({ length: 20 }, (_, i) => i));
/** Departures at both extremes of their spreads: G(u) = (10 + 10u) / 30 inside (0, 1), a widening map. */
const widening = calibrationOf([...Array(10).fill(0), ...Array(10).fill(1)]);

describe('calibrationOf', () => {
  // With no departures to learn from, a spread is taken as it is.
  it('is the identity for no levels', () => {
    expect(Array.from(calibrationOf([]))).toEqual(Array.from({ length: 21 }, (_, k) => k / 20));
  });

  // 90 departures all at their spread's median: G is (count at or below u + 10u) / (90 + 10).
  it('is the empirical CDF of the levels, shrunk toward the identity by a prior of 10', () => {
    const g = calibrationOf(Array(90).fill(0.5));
    expect(g[9]).toBeCloseTo(4.5 / 100, 12); // u = 0.45: none at or below, only the prior's 10 × 0.45
    expect(g[10]).toBeCloseTo(95 / 100, 12); // u = 0.5: all 90, plus 10 × 0.5
    expect(g[15]).toBeCloseTo(97.5 / 100, 12);
    // One level between knots (0.32) counts from the next knot (0.35) on, not the one below (0.3).
    const one = calibrationOf([0.32]);
    expect(one[6]).toBeCloseTo(3 / 11, 12); // (0 + 10 × 0.3) / (1 + 10)
    expect(one[7]).toBeCloseTo(4.5 / 11, 12); // (1 + 10 × 0.35) / (1 + 10)
  });

  // Whatever the levels (0 and 1 included), G runs from 0 to 1 without going down.
  it('is monotone with G(0) = 0 and G(1) = 1', () => {
    const g = calibrationOf([0, 0, 0.1, 0.3, 0.3, 0.32, 0.9, 1, 1]);
    expect(g).toHaveLength(21);
    expect([g[0], g[20]]).toEqual([0, 1]);
    for (let k = 1; k <= 20; k++) expect(g[k]).toBeGreaterThanOrEqual(g[k - 1]);
  });
});

describe('recalibrated', () => {
  // The identity map leaves each point's share of the spread as it was.
  it('keeps the weights under the identity', () => {
    const spread = [0.1, 0.2, 0.3, 0.4].map((weight, i) => ({ value: i * 60, weight }));
    const same = recalibrated(spread, calibrationOf([]));
    expect(same.map((p) => p.value)).toEqual([0, 60, 120, 180]);
    same.forEach((p, i) => expect(p.weight).toBeCloseTo(spread[i].weight, 12));
  });

  // G(0.05) = 0.35: the lowest point of twenty (weight 1 each) takes 35 % of the weight, the highest likewise.
  it('moves weight to the tails under a widening map, so that the 80 % range widens; the total stays', () => {
    expect(rangeOf(twenty)).toEqual({ lowerMs: 1, upperMs: 17 });
    const wider = recalibrated(twenty, widening);
    expect(wider[0].weight).toBeCloseTo(0.35 * 20, 12);
    expect(wider[19].weight).toBeCloseTo(0.35 * 20, 12);
    expect(wider[10].weight).toBeCloseTo((0.3 / 18) * 20, 12);
    expect(rangeOf(wider)).toEqual({ lowerMs: 0, upperMs: 19 });
    expect(totalOf(wider)).toBeCloseTo(20, 12);
  });
});

describe('levelIn', () => {
  const points = [
    { value: 30, weight: 1 },
    { value: 10, weight: 1 },
    { value: 20, weight: 2 },
  ];
  // The weight below a value, half the weight at it, over the total; 0.5 for no points.
  it('is the share below, half of the share at, the value', () => {
    expect([5, 10, 15, 20, 25, 30, 40].map((v) => levelIn(points, v))).toEqual([0, 0.125, 0.25, 0.5, 0.75, 0.875, 1]);
    expect(levelIn([], 10)).toBe(0.5);
  });
});

describe('dressed', () => {
  const z = [-1.2816, -0.5244, 0, 0.5244, 1.2816];
  // Given out of order, and near enough that their kernels interleave.
  const points = [
    { value: 115, weight: 1 },
    { value: 100, weight: 2 },
  ];
  // Each point becomes five of a fifth of its weight at its value ± z × bandwidth, as a spread.
  it('spreads each point over five normal quantiles, keeping the weight and the mean, ascending', () => {
    const result = dressed(points, 10);
    const expected = points.flatMap((from) =>
      z.map((zk) => ({ value: from.value + zk * 10, weight: from.weight / 5 })),
    );
    expect(result).toEqual(spreadOf(expected));
    const mean = (ps: Weighted[]) => ps.reduce((sum, p) => sum + p.value * p.weight, 0) / totalOf(ps);
    expect(mean(result)).toBeCloseTo(mean(points), 9);
    expect(totalOf(result)).toBeCloseTo(3, 12);
  });

  // A wider kernel gives a wider 80 % range: 1.2816 × bandwidth either side of a single point.
  it('widens with the bandwidth', () => {
    const at = (bandwidth: number) => rangeOf(spreadOf(dressed([{ value: 0, weight: 1 }], bandwidth)));
    expect(at(10).lowerMs).toBeCloseTo(-12.816, 9);
    expect(at(20)).toEqual({ lowerMs: -25.632, upperMs: 25.632 });
  });
});

describe('compressed', () => {
  // A large spread keeps SPREAD_POINTS equal-weight points at its quantiles, of the same total weight.
  it('keeps at most SPREAD_POINTS equal-weight points at the quantiles, of the same total', () => {
    // 150 points of weight 1 (shuffled): 50 of weight 3, at the quantiles (i + 0.5) / 50 (value 3i + 1).
    const values = Array.from({ length: 150 }, (_, i) => (i * 37) % 150);
    const result = compressed(unit(values));
    expect(result).toHaveLength(SPREAD_POINTS);
    expect(result.map((p) => p.value)).toEqual(Array.from({ length: 50 }, (_, i) => 3 * i + 1));
    expect(result.every((p) => p.weight === 3)).toBe(true);
    expect(compressed(unit(values), 8)).toHaveLength(8);
  });

  // No more points than the count: all of them, ascending, as they were.
  it('keeps a small spread whole, sorted', () => {
    expect(compressed([{ value: 3, weight: 2 }, ...unit([1, 2])])).toEqual([...unit([1, 2]), { value: 3, weight: 2 }]);
  });
});

describe('quantileOf and rangeOf', () => {
  // The first value whose cumulative weight reaches q of the total.
  it('read a known spread', () => {
    const ten = unit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([0.1, 0.5, 0.9, 1].map((q) => quantileOf(ten, q))).toEqual([1, 5, 9, 10]);
    expect(rangeOf(ten)).toEqual({ lowerMs: 1, upperMs: 9 });
    const heavy = [
      { value: 0, weight: 1 },
      { value: 60, weight: 6 },
      { value: 120, weight: 3 },
    ];
    expect([0.05, 0.15, 0.65, 0.75].map((q) => quantileOf(heavy, q))).toEqual([0, 60, 60, 120]);
  });
});

describe('riderSafeAt', () => {
  const nowMs = Date.UTC(2026, 10, 18, 23, 0, 0); // 08:00 KST
  /** Points of weight 1 `seconds` after now. */
  const ahead = (seconds: number[]) => unit(seconds.map((s) => nowMs + s * 1000));

  // A concentrated spread gets a point inside every departure's window: of those, the median.
  it('a spread concentrated 5 min ahead: a point inside every departure’s window, the median', () => {
    // 4:50–5:10 ahead (3–6 min bucket: 60 s early, 150 s late): any p in [+160 s, +350 s] catches all three.
    const spread = ahead([290, 300, 310]);
    const at = riderSafeAt(spread, nowMs);
    for (const { value } of spread) {
      expect(value - at).toBeGreaterThanOrEqual(-60_000);
      expect(value - at).toBeLessThanOrEqual(150_000);
    }
    expect(at).toBe(nowMs + 300_000);
  });

  // A symmetric spread's point is no later than its median: a bus a little late is forgiven, not one gone.
  it('a spread symmetric around now + 2 min: the point before the median that the late side still allows', () => {
    // 70–170 s ahead (0–3 min: 30 s early, 90 s late): all five fit p in [+80 s, +100 s]; the one
    // nearest the median (+120 s) is +100 s.
    const at = riderSafeAt(ahead([70, 95, 120, 145, 170]), nowMs);
    expect(at - nowMs).toBe(100_000);
    expect(at).toBeLessThanOrEqual(quantileOf(ahead([70, 95, 120, 145, 170]), 0.5));
  });

  // Each departure counts in the ETA window of its own lead only, both bounds included.
  it('judges each departure by the window of its own lead', () => {
    // 170 s ahead (0–3 min: p in [+80 s, +200 s]) and 400 s ahead (6–10 min: p in [+190 s, +460 s]): both at +190 s.
    expect(riderSafeAt(ahead([170, 400]), nowMs) - nowMs).toBe(190_000);
    // 90 s and 330 s ahead (p ≤ +120 s; p ≥ +180 s): one at a time, so the median, +90 s.
    expect(riderSafeAt(ahead([90, 330]), nowMs) - nowMs).toBe(90_000);
  });

  // Nothing to catch: wholly before now gives now; wholly past the 15-min windows, the median.
  it('gives now for a spread wholly before now, and the median past the windows', () => {
    expect(riderSafeAt(ahead([-60, -30]), nowMs)).toBe(nowMs);
    expect(riderSafeAt(ahead([1200, 1260, 1320]), nowMs)).toBe(nowMs + 1_260_000);
  });
});

describe('rangeHolding', () => {
  // A point inside the 80 % range leaves it as it is; one outside widens it to the point, no more.
  it('widens the range to hold its point', () => {
    expect(rangeHolding(twenty, 5)).toEqual({ lowerMs: 1, upperMs: 17 });
    expect(rangeHolding(twenty, 0)).toEqual({ lowerMs: 0, upperMs: 17 });
    expect(rangeHolding(twenty, 19)).toEqual({ lowerMs: 1, upperMs: 19 });
  });
});
