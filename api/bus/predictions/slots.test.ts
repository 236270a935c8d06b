import { slotSpreads, type HistoryDay, type Slot } from './slots';
import { compressed, dressed, rangeOf, SPREAD_POINTS } from './spread';
import { weightedQuantile } from './stats';

const EIGHT = 8 * 3600; // 08:00, seconds of the day

/** A slot at 08:00 whose day of age k (0: the most recent, weight 0.8^k) left `offsets[k]` seconds after it. */
function slotOf(offsets: number[]): Slot {
  const points = offsets.map((offset, age) => {
    const day: HistoryDay = { runs: [EIGHT + offset], arrivals: [null], weight: 0.8 ** age, weekday: 1 };
    return { value: EIGHT + offset, weight: day.weight, day, run: 0 };
  });
  return { second: EIGHT, points };
}

describe('slotSpreads', () => {
  // No variation: the least kernel (20 s) alone, so its 80 % range is 08:00 ± 20 × 1.2816 s.
  it('gives a slot that never varied a narrow spread around its second', () => {
    const [spread] = slotSpreads([slotOf(Array(10).fill(0))]);
    const { lowerMs, upperMs } = rangeOf(spread);
    expect(lowerMs).toBeCloseTo(EIGHT - 25.632, 6);
    expect(upperMs).toBeCloseTo(EIGHT + 25.632, 6);
  });

  // A drift later widens the range past the empirical one and, by the calibration, past the kernel's alone.
  it('widens the range of a slot whose newest days drift later than the older ones', () => {
    // The three newest days a minute later each (+60, +120, +180 s): each fell at the top of what the
    // older days' spread said, so the recalibrated range reaches later than the kernel alone takes it.
    const slot = slotOf([180, 120, 60, 0, 0, 0, 0, 0, 0, 0]);
    const [spread] = slotSpreads([slot]);
    const range = rangeOf(spread);
    // The plain weighted 10–90 %: 08:00:00–08:03:00.
    const empirical = [0.1, 0.9].map((q) => weightedQuantile(slot.points, q));
    expect(empirical).toEqual([EIGHT, EIGHT + 180]);
    expect(range.upperMs - range.lowerMs).toBeGreaterThan(180);
    // The kernel alone: Silverman's bandwidth, 0.9 × 1.4826 × 60 s (the weighted MAD) × n^(−1/5),
    // n = (Σw)² / Σw² ≈ 7.2: about 54 s.
    const weights = slot.points.map((p) => p.weight);
    const n = weights.reduce((a, w) => a + w, 0) ** 2 / weights.reduce((a, w) => a + w * w, 0);
    const kernelOnly = rangeOf(compressed(dressed(slot.points, 0.9 * 1.4826 * 60 * n ** -0.2)));
    expect(range.lowerMs).toBeCloseTo(kernelOnly.lowerMs, 6);
    expect(range.upperMs).toBeGreaterThan(kernelOnly.upperMs + 30);
  });

  // Each slot's spread is ascending and compressed to at most SPREAD_POINTS points.
  it('returns one ascending spread of at most SPREAD_POINTS points per slot', () => {
    const twenty = slotOf(Array.from({ length: 20 }, (_, k) => ((k * 37) % 11) * 15 - 75));
    const two = slotOf([30, -30]);
    const spreads = slotSpreads([twenty, two]);
    expect(spreads.map((s) => s.length)).toEqual([SPREAD_POINTS, 10]); // 20 × 5 kernel points, compressed; 2 × 5
    for (const spread of spreads) {
      spread.slice(1).forEach((p, i) => expect(p.value).toBeGreaterThanOrEqual(spread[i].value));
    }
  });
});
