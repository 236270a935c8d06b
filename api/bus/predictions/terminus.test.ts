import { deviationsGiven, type TerminusModel, type TerminusSample } from './terminus';

/** A model of five samples late by 0, 60, 120, 180 and 240 s at 08:00, each departure 30 s after its lateness. */
const model = (): TerminusModel => {
  const byLateness = [0, 60, 120, 180, 240].map((lateness): TerminusSample => ({
    slotSecond: 8 * 3600,
    lateness,
    deviation: lateness + 30,
    previousLateness: null,
    weight: 1,
    day: {} as TerminusSample['day'],
  }));
  return {
    usualArrivals: [],
    samples: byLateness,
    byLateness,
    byPreviousLateness: [],
    unseenShare: 0.02,
    missingShare: 0.02,
    density: {} as TerminusModel['density'],
    remembered: new Map(),
  };
};

describe('deviationsGiven for a bus at least so late', () => {
  it('answers each lateness as a fresh model would, remembering one answer while it takes the same samples', () => {
    const shared = model();
    const at = (atLeast: number, from = shared) => deviationsGiven(from, 8 * 3600, 'lateness', 0, atLeast);
    // 61 s and 119 s late take the same samples (120 s and later): one answer, kept.
    const overdue61 = at(61);
    expect(at(119)).toBe(overdue61);
    expect(overdue61).toEqual(at(119, model()));
    // 121 s takes fewer: another answer, as a fresh model gives it.
    const overdue121 = at(121);
    expect(overdue121).not.toEqual(overdue61);
    expect(overdue121).toEqual(at(121, model()));
    expect(Math.min(...overdue121.map((point) => point.value))).toBeGreaterThan(
      Math.min(...overdue61.map((point) => point.value)),
    );
  });
});
