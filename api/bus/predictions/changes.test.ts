import { CHANGE_MIN_DAYS, misfitOf, MISFIT_ABOVE, timetableChange, type LearntSlots } from './changes';

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
    expect(change('2026-11-25')).toEqual({ since: '2026-11-25', dayTypes: ['weekday'] });
    expect(CHANGE_MIN_DAYS).toBe(2);
    expect(change('2026-11-26')).toEqual({ since: '2026-11-26', dayTypes: ['weekday'] });
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
    expect(result).toEqual({ since: '2026-11-26', dayTypes: ['weekday'] });
  });
});
