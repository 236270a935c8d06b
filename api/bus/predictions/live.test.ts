import { toKstIso } from '../../time';
import type { RouteDayPlan } from './day-plan';
import { applyLiveEvidence } from './live';

describe('applyLiveEvidence', () => {
  const at = (time: string) => new Date(`2026-11-19T${time}+09:00`);
  /** A run seen at the crossroads at KST `time`, not (or already) seen leaving. */
  const seen = (time: string, left = false) => ({ at: at(time), left });
  const plan: RouteDayPlan = {
    routeNo: '1150',
    dayBefore: [],
    weekBefore: [],
    estimate: ['08:00:00', '08:10:00', '08:20:00', '08:40:00'].map((t) => ({ at: at(t), basis: 'history' })),
    turnaroundSec: 900,
    sameRunSec: 600,
    minTurnarounds: [],
    slots: { count: 4, spreadSec: 0 },
  };
  const view = (estimates: ReturnType<typeof applyLiveEvidence>) =>
    estimates.map((e) => `${toKstIso(e.at).slice(11, 19)} ${e.basis}`);

  it('without an on-time departure, a bus leaves at arrival + turnaround in place of its run', () => {
    const result = applyLiveEvidence(plan, [seen('08:08:00')], at('08:05:00'), null);
    expect(view(result)).toEqual(['08:00:00 history', '08:10:00 history', '08:23:00 live', '08:40:00 history']);
    expect(plan.estimate).toHaveLength(4); // not changed
  });

  it('an early bus waits for its run’s on-time departure; a late one leaves a shortest turnaround after arriving', () => {
    const learnt: RouteDayPlan = {
      ...plan,
      // History estimates (slot medians) with their on-time departures a minute or two before.
      estimate: [
        ['08:00:00', '07:59:00'],
        ['08:10:00', '08:09:00'],
        ['08:20:00', '08:18:00'],
        ['08:40:00', '08:38:00'],
      ].map(([time, onTime]) => ({ at: at(time), basis: 'history', onTimeAt: at(onTime) })),
      // The shortest turnaround: 6 min before 08:00, 9 min from 08:00 (seconds of the service day).
      minTurnarounds: [
        { from: at('05:00:00'), seconds: 360 },
        { from: at('08:00:00'), seconds: 540 },
      ],
    };
    // 07:50 at the crossroads: ready at 07:56 (6 min), early, so it waits for the 08:00 run's 07:59.
    // 08:06: ready at 08:15, past the 08:10 run's 08:09: that late run leaves at 08:15.
    const result = applyLiveEvidence(learnt, [seen('08:06:00'), seen('07:50:00')], at('07:45:00'), null);
    expect(view(result)).toEqual(['07:59:00 live', '08:15:00 live', '08:20:00 history', '08:40:00 history']);
  });

  it('adds a run with no estimate near it, and changes nothing without evidence', () => {
    const result = applyLiveEvidence(plan, [seen('08:40:00')], at('08:05:00'), null);
    expect(view(result)).toContain('08:55:00 live');
    expect(result).toHaveLength(5);
    expect(applyLiveEvidence(plan, [], at('08:05:00'), null)).toBe(plan.estimate);
  });

  it('a turnaround after watching began, drops the estimates the evidence would have seen', () => {
    const result = applyLiveEvidence(plan, [seen('08:08:00')], at('08:05:00'), at('07:50:00'));
    expect(view(result)).toEqual(['08:00:00 history', '08:23:00 live', '08:40:00 history']);
    // Watching since 07:58: complete from 08:13 only; a bus leaving at 08:10 may have passed unseen.
    const late = applyLiveEvidence(plan, [seen('08:08:00')], at('08:05:00'), at('07:58:00'));
    expect(view(late)).toEqual(['08:00:00 history', '08:10:00 history', '08:23:00 live', '08:40:00 history']);
  });

  it('a bus not seen leaving is live until 2 min past its departure, whenever it really left', () => {
    // 07:40 at the crossroads: leaves at 07:55 (15 min turnaround), live until 07:57.
    const live = (now: string) => view(applyLiveEvidence(plan, [seen('07:40:00')], at(now), null))[0];
    expect([live('07:40:00'), live('07:56:59'), live('07:57:00')]).toEqual([
      '07:55:00 live',
      '07:56:59 live',
      '08:10:00 history', // taken to have left unseen, with the 08:00 run
    ]);
  });

  it('says a waiting bus leaves now at the earliest', () => {
    // Ready at 07:55 (15 min turnaround), still there at 07:56 and live until 07:57.
    const result = applyLiveEvidence(plan, [seen('07:40:00')], at('07:56:00'), null);
    expect(view(result)[0]).toBe('07:56:00 live');
    expect(result).toHaveLength(4);
  });

  it('a run that has left takes its estimate with it: the next bus cannot take a run already gone', () => {
    const learnt: RouteDayPlan = {
      ...plan,
      estimate: [
        ['08:00:00', '07:59:00'],
        ['08:10:00', '08:09:00'],
        ['08:20:00', '08:19:00'],
      ].map(([time, onTime]) => ({ at: at(time), basis: 'history', onTimeAt: at(onTime) })),
      minTurnarounds: [{ from: at('05:00:00'), seconds: 360 }],
    };
    // 07:46 at the crossroads and seen leaving: it made the 08:00 run. The 07:53 bus, ready at
    // 07:59, makes the 08:10 run (on time 08:09), not the 08:00 one it would take on its own.
    const now = at('07:58:00');
    expect(view(applyLiveEvidence(learnt, [seen('07:46:00', true), seen('07:53:00')], now, null))).toEqual([
      '08:09:00 live',
      '08:20:00 history',
    ]);
    expect(view(applyLiveEvidence(learnt, [seen('07:53:00')], now, null))[0]).toBe('07:59:00 live');
    // The same at 08:02 for a run not seen leaving: 07:38, it would leave at 07:59, live until 08:01.
    expect(view(applyLiveEvidence(learnt, [seen('07:38:00'), seen('07:53:00')], at('08:02:00'), null))).toEqual([
      '08:09:00 live',
      '08:20:00 history',
    ]);
  });
});
