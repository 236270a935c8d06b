import { formatKstIso } from '../../../contract/kst';
import { predictDay, type ObservedDeparture } from './day-plan';
import { applyLiveEvidence, type CrossroadsPassage } from './live';

const SLOTS = ['08:00', '08:20', '08:40', '09:00', '09:20'];
/** The buses' lateness at the crossroads (seconds) on the ten history days, one per day. */
const LATENESS = [-240, -120, 0, 60, 120, 240, 360, 480, -60, 180];
const DAYS = ['05', '06', '09', '10', '11', '12', '13', '16', '17', '18'].map((d) => `2026-11-${d}`);
const at = (time: string, date = '2026-11-19') => new Date(`${date}T${time}+09:00`);

/**
 * 1150 on ten weekdays: each run passes the crossroads 15 min before its slot plus the day's
 * lateness, and leaves at its slot plus half of that lateness when late (it recovers the other
 * half), at its slot when early (it waits).
 */
const history: ObservedDeparture[] = DAYS.flatMap((date, day) =>
  SLOTS.map((slot) => {
    const lateness = LATENESS[day];
    const slotAt = at(`${slot}:00`, date).getTime();
    return {
      routeNo: '1150',
      serviceDate: date,
      departedAt: new Date(slotAt + Math.max(0, lateness / 2) * 1000),
      arrivedAt: new Date(slotAt - 900_000 + lateness * 1000),
    };
  }),
);
const plan = predictDay(history, '2026-11-19').routes[0];
const watching = at('05:00:00');
const seen = (time: string, leftAt: string | null = null): CrossroadsPassage => ({
  at: at(time),
  leftAt: leftAt ? at(leftAt) : null,
});
const hhmmss = (date: Date) => formatKstIso(date).slice(11, 19);

describe('applyLiveEvidence', () => {
  it('changes no estimate far ahead without evidence, and states the history range of each', () => {
    const result = applyLiveEvidence(plan, [], at('06:00:00'), watching);
    expect(result.map((e) => `${hhmmss(e.at)} ${e.basis}`)).toEqual(
      plan.estimate.map((e) => `${hhmmss(e.at)} history`),
    );
    for (const estimate of result) {
      expect(estimate.lowerAt!.getTime()).toBeLessThanOrEqual(estimate.at.getTime());
      expect(estimate.upperAt!.getTime()).toBeGreaterThanOrEqual(estimate.at.getTime());
    }
  });

  it('a late bus leaves later than an on-time one, by the part of its lateness the history kept', () => {
    const live = (passage: string) =>
      applyLiveEvidence(plan, [seen(passage)], at('08:26:00'), watching).find((e) => e.basis === 'live')!;
    const onTime = live('08:26:00'); // the 08:40 run, 14 min before
    const late = live('08:33:00'); // 7 min later than that
    expect(late.at.getTime() - onTime.at.getTime()).toBeGreaterThan(120_000);
    expect(late.at.getTime() - onTime.at.getTime()).toBeLessThan(300_000); // about half of the 7 min
    // It takes its run: the 08:40 history estimate is gone, the 09:00 one stays.
    const result = applyLiveEvidence(plan, [seen('08:33:00')], at('08:34:00'), watching);
    expect(result.filter((e) => e.basis === 'history').map((e) => hhmmss(e.at))).not.toContain(hhmmss(onTime.at));
  });

  it('an early bus waits for its run: it leaves about the run’s time, not a turnaround after passing', () => {
    // The 08:00 and 08:20 buses passed and left; the next passes at 08:24, 4 min before the 08:40
    // run's usual passage (08:28). 08:24 + its 12–19 min turnaround would be 08:36–08:43; it waits.
    const passages = [seen('07:48:00', '08:01:30'), seen('08:08:00', '08:21:30'), seen('08:24:00')];
    const early = applyLiveEvidence(plan, passages, at('08:25:00'), watching).find((e) => e.basis === 'live')!;
    expect(early.at.getTime()).toBeGreaterThanOrEqual(at('08:39:30').getTime());
    expect(early.lowerAt!.getTime()).toBeGreaterThanOrEqual(at('08:39:00').getTime());
  });

  it('a run seen leaving takes its estimate with it, and the next bus takes the next run', () => {
    const result = applyLiveEvidence(plan, [seen('07:46:00', '08:00:30'), seen('08:05:00')], at('08:06:00'), watching);
    const live = result.filter((e) => e.basis === 'live');
    expect(live).toHaveLength(1);
    expect(live[0].at.getTime()).toBeGreaterThanOrEqual(at('08:19:00').getTime());
    expect(result.some((e) => e.basis === 'history' && e.at < at('08:10:00'))).toBe(false);
  });

  it('says a waiting bus leaves after now, its range cut at now', () => {
    // The 08:40 run passed 17 min ago, on time; at 08:40:30 it has not been seen leaving.
    const result = applyLiveEvidence(plan, [seen('08:25:00')], at('08:40:30'), watching);
    const live = result.find((e) => e.basis === 'live')!;
    expect(live.at.getTime()).toBeGreaterThanOrEqual(at('08:40:30').getTime());
    expect(live.lowerAt!.getTime()).toBeGreaterThan(at('08:40:30').getTime());
  });

  it('a bus no run explains leaves the observed turnaround after passing, as an extra run', () => {
    // 09:06 at the crossroads: 20 min after the 09:00 run's usual passage, 30 min before the 09:20's.
    const result = applyLiveEvidence(plan, [seen('09:06:00')], at('09:07:00'), watching);
    const live = result.find((e) => e.basis === 'live')!;
    const turnaround = (live.at.getTime() - at('09:06:00').getTime()) / 60_000;
    // The history's turnarounds ran from 11 min (8 min late, half recovered) to 19 (4 min early).
    expect(turnaround).toBeGreaterThanOrEqual(11);
    expect(turnaround).toBeLessThanOrEqual(19);
    // It takes no run: the history estimates still ahead all stay.
    const ahead = (estimates: typeof result) =>
      estimates.filter((e) => e.basis === 'history' && e.at >= at('09:07:00')).length;
    expect(ahead(result)).toBe(ahead(plan.estimate));
  });
});
