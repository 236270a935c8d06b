import {
  CHANGE_MIN_DAYS,
  carriedDay,
  changeShapeOf,
  misfitOf,
  MISFIT_ABOVE,
  timetableChange,
  type LearntSlots,
} from './changes';

/** Every 20 min from 06:00 to 22:00, seconds of day; tolerance half the headway. */
const OLD: LearntSlots = {
  slots: Array.from({ length: 49 }, (_, i) => 6 * 3600 + i * 1200),
  toleranceSec: 600,
};
const jittered = (slots: number[], seconds: number) => slots.map((s, i) => s + (i % 2 ? seconds : -seconds));
/** The new timetable: every 14 min from 06:30. */
const NEW = Array.from({ length: 66 }, (_, i) => 6 * 3600 + 1800 + i * 840).filter((s) => s <= 22 * 3600);

describe('misfitOf', () => {
  it('is 0 on the slots, small with a minute of noise or a skipped run, large on a new timetable', () => {
    expect(misfitOf(OLD.slots, OLD)).toBe(0);
    expect(
      misfitOf(
        jittered(OLD.slots, 60).filter((_, i) => i !== 10),
        OLD,
      ),
    ).toBeLessThan(0.3);
    expect(misfitOf(NEW, OLD)).toBeGreaterThan(MISFIT_ABOVE);
    expect(misfitOf([], OLD)).toBe(1);
  });
});

describe('timetableChange', () => {
  // Mondays to Fridays 2026-11-16 to 2026-11-27, most recent first.
  const dates = ['27', '26', '25', '24', '23', '20', '19', '18', '17', '16'].map((day) => `2026-11-${day}`);
  const change = (newFrom: string | null, odd: string[] = []) =>
    timetableChange(
      (date) => (odd.includes(date) || (newFrom !== null && date >= newFrom) ? NEW : jittered(OLD.slots, 45)),
      dates,
      () => OLD,
    );

  it('finds the first of the latest consecutive days that misfit, and their day types', () => {
    expect(change('2026-11-25')).toEqual({ since: '2026-11-25', dayTypes: ['weekday'], unchangedTypes: [] });
    expect(CHANGE_MIN_DAYS).toBe(2);
    expect(change('2026-11-26')).toEqual({ since: '2026-11-26', dayTypes: ['weekday'], unchangedTypes: [] });
  });

  it('takes neither one odd day nor an odd day in the past for a change', () => {
    expect(change('2026-11-27')).toBeNull();
    expect(change(null, ['2026-11-19', '2026-11-20'])).toBeNull();
    expect(change(null)).toBeNull();
  });

  it('passes over a day of a type with too few days to have slots', () => {
    // Saturday the 28th runs the new timetable too, but no Saturday slots were learnt.
    const result = timetableChange(
      (date) => (date >= '2026-11-26' ? NEW : OLD.slots),
      ['2026-11-28', ...dates],
      (type) => (type === 'saturday' ? null : OLD),
    );
    expect(result).toEqual({ since: '2026-11-26', dayTypes: ['weekday'], unchangedTypes: [] });
  });

  // Thursday 2026-11-19 to Tuesday 2026-11-24, most recent first, and the week before.
  const week = ['24', '23', '22', '21', '20', '19', '18', '17', '16', '15'].map((day) => `2026-11-${day}`);

  it('follows a change of weekdays alone across a weekend that runs as before', () => {
    const result = timetableChange(
      (date) => (date >= '2026-11-19' && !['2026-11-21', '2026-11-22'].includes(date) ? NEW : OLD.slots),
      week,
      () => OLD,
    );
    expect(result).toEqual({ since: '2026-11-19', dayTypes: ['weekday'], unchangedTypes: ['holiday', 'saturday'] });
  });

  it('takes two odd days of two day types with a day that fits between them for no change', () => {
    // Sunday the 22nd and Tuesday the 24th are odd; Monday the 23rd runs as before.
    const odd = ['2026-11-22', '2026-11-24'];
    expect(
      timetableChange(
        (date) => (odd.includes(date) ? NEW : OLD.slots),
        week,
        () => OLD,
      ),
    ).toBeNull();
  });
});

describe('changeShapeOf and carriedDay', () => {
  const day = (runs: number[]) => ({ runs, arrivals: runs.map((second) => second - 600), weight: 1, weekday: 0 });
  const minutes = (runs: number[]) => runs.map((second) => Math.round(second / 60));

  it('moves a day by a shift, the first departure by its own, and keeps its passages with it', () => {
    // The first bus 35 min later, the rest 7 min later.
    const after = [OLD.slots[0] + 2100, ...OLD.slots.slice(2).map((second) => second + 420)];
    const shape = changeShapeOf(OLD.slots, after, OLD.toleranceSec);
    expect(shape.firstShiftSec).toBe(2100);
    expect(shape.shiftAt(12 * 3600)).toBe(420);
    expect(shape.rate).toBeCloseTo(1, 5);
    // A Sunday every 30 min from 07:00: its second run (07:30 → 07:37) is within a third of a
    // headway of the moved first (07:35), and is dropped.
    const sunday = Array.from({ length: 30 }, (_, i) => 7 * 3600 + i * 1800);
    const carried = carriedDay(day(sunday), shape);
    expect(minutes(carried.runs).slice(0, 3)).toEqual([7 * 60 + 35, 8 * 60 + 7, 8 * 60 + 37]);
    expect(carried.arrivals.slice(0, 2)).toEqual([carried.runs[0] - 600, carried.runs[1] - 600]);
  });

  it('re-spaces a day by the rate, from its moved first departure to its moved last', () => {
    // Every 14 min instead of every 20, from the same first bus.
    const after = Array.from({ length: 69 }, (_, i) => OLD.slots[0] + i * 840);
    const shape = changeShapeOf(OLD.slots, after, OLD.toleranceSec);
    expect(shape.rate).toBeCloseTo(0.7, 2);
    const sunday = Array.from({ length: 31 }, (_, i) => 7 * 3600 + i * 1800);
    const carried = carriedDay(day(sunday), shape);
    expect(carried.runs[0]).toBe(sunday[0]);
    expect(carried.runs[1] - carried.runs[0]).toBeCloseTo(1260, 0);
    expect(carried.runs.length).toBeGreaterThanOrEqual(Math.floor(30 / 0.7));
    expect(carried.arrivals[5]).toBe(carried.runs[5] - 600);
  });

  it('re-spaces a day whose runs leave at one second without stepping in place', { timeout: 2000 }, () => {
    const after = Array.from({ length: 69 }, (_, i) => OLD.slots[0] + i * 840);
    const shape = changeShapeOf(OLD.slots, after, OLD.toleranceSec);
    const carried = carriedDay(day([7 * 3600, 7 * 3600, 7 * 3600, 9 * 3600]), shape);
    expect(carried.runs[0]).toBe(7 * 3600);
    expect(carried.runs.length).toBeLessThan(10);
  });
});
