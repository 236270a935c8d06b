import { dayType, kstInstant, serviceClock, toKstIso } from '../../time';
import {
  applyLiveEvidence,
  nextAtOrAfter,
  observedDayType,
  predictDay,
  timetableDepartures,
  turnaroundSec,
  type ObservedDeparture,
  type RouteDayPlan,
} from './day-plan';
import { routeByNo } from '../feed/transit-config';

/** A departure of `routeNo` at KST wall-clock `time` ("HH:mm:ss", may exceed 24:00) of service date `date`. */
function run(routeNo: string, date: string, time: string, arrivedBeforeSec?: number): ObservedDeparture {
  const [h, m, s] = time.split(':').map(Number);
  const departedAt = new Date(kstInstant(date, 0).getTime() + (h * 3600 + m * 60 + s) * 1000);
  const arrivedAt = arrivedBeforeSec === undefined ? null : new Date(departedAt.getTime() - arrivedBeforeSec * 1000);
  return { routeNo, serviceDate: date, departedAt, arrivedAt };
}

const isoList = (times: Date[]) => times.map(toKstIso);
const planOf = (history: ObservedDeparture[], date: string, routeNo = '1150') =>
  predictDay(history, date).routes.find((r) => r.routeNo === routeNo) as RouteDayPlan;

// Mon–Wed 16–18 Nov 2026: 08:00/08:20/08:40 with known offsets; the target is Thu 19 Nov.
const weekdays = [
  run('1150', '2026-11-16', '08:01:00'),
  run('1150', '2026-11-16', '08:19:30'),
  run('1150', '2026-11-16', '08:40:00'),
  run('1150', '2026-11-17', '08:00:00'),
  run('1150', '2026-11-17', '08:20:30'),
  run('1150', '2026-11-17', '08:42:00'),
  run('1150', '2026-11-18', '07:59:00'),
  run('1150', '2026-11-18', '08:20:00'),
  run('1150', '2026-11-18', '08:41:00'),
];
const saturday = [run('1150', '2026-11-14', '07:00:00'), run('1150', '2026-11-14', '07:30:00')];

describe('predictDay', () => {
  it('estimates each run as the median of the same-type days, aligned by order and time', () => {
    const plan = planOf([...weekdays, ...saturday], '2026-11-19');
    expect(plan.estimate.map((e) => [toKstIso(e.at), e.basis])).toEqual([
      ['2026-11-19T08:00:00+09:00', 'history'],
      ['2026-11-19T08:20:00+09:00', 'history'],
      ['2026-11-19T08:41:00+09:00', 'history'],
    ]);
    expect(plan.sameRunSec).toBe(622.5); // half the median observed headway (20 min 45 s)
  });

  it('moves yesterday and 7 days ago to the date at the same wall-clock time', () => {
    const plan = planOf([...weekdays, run('1150', '2026-11-12', '09:15:00')], '2026-11-19');
    expect(isoList(plan.dayBefore)).toEqual([
      '2026-11-19T07:59:00+09:00',
      '2026-11-19T08:20:00+09:00',
      '2026-11-19T08:41:00+09:00',
    ]);
    expect(isoList(plan.weekBefore)).toEqual(['2026-11-19T09:15:00+09:00']);
    // Thursday's yesterday is a weekday; Monday's is Sunday 15 Nov, which has nothing.
    expect(planOf(weekdays, '2026-11-16').dayBefore).toEqual([]);
  });

  it('weights recent days more: two recent days outweigh two older ones', () => {
    const days = ['2026-11-18', '2026-11-17', '2026-11-16', '2026-11-13']; // most recent first
    const offsets = ['08:01:00', '08:01:00', '07:59:00', '07:59:00'];
    const plan = planOf(
      days.flatMap((date, i) => [run('1150', date, offsets[i]), run('1150', date, '09:00:00')]),
      '2026-11-19',
    );
    // A plain median would say 08:00:00; weights 1, 0.8 | 0.64, 0.51 put it on the recent side.
    expect(isoList(plan.estimate.map((e) => e.at))).toEqual(['2026-11-19T08:01:00+09:00', '2026-11-19T09:00:00+09:00']);
  });

  it('does not use Saturdays for a weekday, and falls back to the timetable when history is thin', () => {
    const plan = planOf([...weekdays, ...saturday], '2026-11-21'); // Saturday: one Saturday in history
    expect(plan.estimate.every((e) => e.basis === 'timetable')).toBe(true);
    expect(plan.estimate.map((e) => e.at)).toEqual(timetableDepartures(routeByNo('1150')!, '2026-11-21'));
    expect(toKstIso(plan.estimate[0].at)).toBe('2026-11-21T05:40:00+09:00'); // Saturday's first bus
  });

  it('drops a run seen on a minority of days and ignores a partial day', () => {
    const extra = run('1150', '2026-11-18', '09:30:00'); // only on the most recent of 3 days
    const partial = [run('1150', '2026-11-13', '08:10:00')]; // 1 run vs a median of 3: not enough
    const plan = planOf([...weekdays, extra, ...partial], '2026-11-19');
    expect(plan.estimate.map((e) => toKstIso(e.at))).toEqual([
      '2026-11-19T08:00:00+09:00',
      '2026-11-19T08:20:00+09:00',
      '2026-11-19T08:41:00+09:00',
    ]);
  });

  it('treats a Korean public holiday like a Sunday (Hangul Day, Friday 9 Oct 2026)', () => {
    expect(dayType('2026-10-09')).toBe('holiday');
    const history = [
      ...['2026-09-27', '2026-10-04'].flatMap((sunday) => [
        run('1150', sunday, '06:00:00'),
        run('1150', sunday, '06:40:00'),
      ]),
      ...['2026-10-06', '2026-10-07', '2026-10-08'].flatMap((weekday) => [
        run('1150', weekday, '05:30:00'),
        run('1150', weekday, '05:45:00'),
      ]),
    ];
    const plan = planOf(history, '2026-10-09');
    expect(plan.estimate.map((e) => [toKstIso(e.at), e.basis])).toEqual([
      ['2026-10-09T06:00:00+09:00', 'history'],
      ['2026-10-09T06:40:00+09:00', 'history'],
    ]);
  });

  it('keeps runs after midnight on their service day, dated the next calendar day', () => {
    const history = ['2026-11-16', '2026-11-17', '2026-11-18'].flatMap((date) => [
      run('1150', date, '23:40:00'),
      run('1150', date, '24:10:00'),
    ]);
    expect(serviceClock(history[1].departedAt)).toMatchObject({ serviceDate: '2026-11-16' });
    const plan = planOf(history, '2026-11-19');
    expect(plan.estimate.map((e) => toKstIso(e.at))).toEqual([
      '2026-11-19T23:40:00+09:00',
      '2026-11-20T00:10:00+09:00',
    ]);
    expect(isoList(plan.dayBefore)).toEqual(['2026-11-19T23:40:00+09:00', '2026-11-20T00:10:00+09:00']);
  });

  it('reads only the 35 service days before the date', () => {
    const old = ['2026-10-12', '2026-10-13'].flatMap((date) => [
      run('1150', date, '08:00:00'),
      run('1150', date, '08:30:00'),
    ]);
    expect(planOf(old, '2026-11-19').estimate[0].basis).toBe('timetable'); // 38 and 37 days before
    expect(planOf(old, '2026-11-16').estimate[0].basis).toBe('history'); // 35 and 34 days before
  });
});

describe('turnaroundSec', () => {
  const route = routeByNo('1150')!;
  it('is the median of departedAt − arrivedAt where the arrival is known, ignoring mismatches', () => {
    const history = [
      run('1150', '2026-11-18', '08:00:00', 1000),
      run('1150', '2026-11-18', '08:20:00', 1100),
      run('1150', '2026-11-18', '08:40:00', 1300),
      run('1150', '2026-11-18', '09:00:00', 7200), // 2 h: another run's arrival
      run('1150', '2026-11-18', '09:20:00'),
      run('1117', '2026-11-18', '09:20:00', 100),
    ];
    expect(turnaroundSec(history, route)).toBe(1100);
  });
  it('falls back to layoverMin + 8 minutes for the up section', () => {
    expect(turnaroundSec([run('1150', '2026-11-18', '08:00:00')], route)).toBe((8 + 8) * 60);
  });
});

describe('timetableDepartures', () => {
  it('runs from first to last at the mean headway of the day type', () => {
    const times = timetableDepartures(routeByNo('1303')!, '2026-11-19'); // weekday 05:40–22:50, 25–40 min
    expect(toKstIso(times[0])).toBe('2026-11-19T05:40:00+09:00');
    expect(toKstIso(times[1])).toBe('2026-11-19T06:12:30+09:00');
    expect(times).toHaveLength(32);
    expect(toKstIso(times[31])).toBe('2026-11-19T22:27:30+09:00');
  });
});

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

describe('observedDayType', () => {
  /** "HH:mm:ss" every `stepMin` minutes from `from` (minutes of the day) up to `to`. */
  const times = (from: number, to: number, stepMin: number) =>
    Array.from({ length: Math.floor((to - from) / stepMin) + 1 }, (_, k) => {
      const minute = from + k * stepMin;
      return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
    });
  const weekdayTimes = times(6 * 60, 12 * 60, 15); // 06:00, 06:15, …
  const holidayTimes = times(6 * 60, 12 * 60, 30); // 06:00, 06:30, …: every other weekday run
  const routes = ['1150', '1117'];
  const days = (dates: string[], at: string[]) =>
    dates.flatMap((date) => routes.flatMap((routeNo) => at.map((time) => run(routeNo, date, time))));
  // Two weeks of weekdays and the Sundays (holiday day type) between them; the date is Thursday 19 Nov.
  const history = [
    ...days(['2026-11-09', '2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13'], weekdayTimes),
    ...days(['2026-11-16', '2026-11-17', '2026-11-18'], weekdayTimes),
    ...days(['2026-11-08', '2026-11-15'], holidayTimes),
  ];
  const date = '2026-11-19';
  const plan = predictDay(history, date);
  const at = (time: string) => run('1150', date, time).departedAt;
  const today = (at: string[], onRoutes = routes) => days([date], at).filter((d) => onRoutes.includes(d.routeNo));

  it("takes the day type whose slots today's departures follow: a weekday run on the holiday timetable", () => {
    expect(plan.dayType).toBe('weekday');
    const holidayRuns = today(holidayTimes);
    expect(observedDayType(plan, holidayRuns, at('06:50:00'))).toBe('weekday'); // too few runs to tell
    expect(observedDayType(plan, holidayRuns, at('09:00:00'))).toBe('holiday');
  });

  it('keeps the calendar on a day of skipped runs, and when a route is not seen at all', () => {
    const skipping = today(weekdayTimes.filter((_, k) => k % 3 !== 1)); // a third of the runs skipped
    expect(observedDayType(plan, skipping, at('11:00:00'))).toBe('weekday');
    expect(observedDayType(plan, today(weekdayTimes, ['1150']), at('11:00:00'))).toBe('weekday');
    expect(observedDayType(plan, [], at('11:00:00'))).toBe('weekday');
  });

  it('counts each route only over the span it was seen in: a late start or an outage is no holiday', () => {
    const from0900 = today(weekdayTimes.filter((time) => time >= '09:00'));
    expect(observedDayType(plan, from0900, at('11:00:00'))).toBe('weekday');
    // Nothing is seen after 08:00 (the feed fails), nor of 1117 after 07:00.
    const outage = today(weekdayTimes).filter(
      (d) => d.departedAt <= at(d.routeNo === '1150' ? '08:00:00' : '07:00:00'),
    );
    expect(observedDayType(plan, outage, at('11:00:00'))).toBe('weekday');
    // Only 1117 is seen, on the holiday times: that alone tells.
    expect(observedDayType(plan, today(holidayTimes, ['1117']), at('11:00:00'))).toBe('holiday');
  });

  it('never takes a day type whose estimates are the timetable (no history of it)', () => {
    const weekdaysOnly = predictDay(
      history.filter((d) => dayType(d.serviceDate) === 'weekday'),
      date,
    );
    expect(weekdaysOnly.planAs('holiday')[0].slots).toBeNull();
    expect(observedDayType(weekdaysOnly, today(holidayTimes), at('11:00:00'))).toBe('weekday');
  });

  it('plans the date as every day type', () => {
    expect(plan.planAs('weekday')).toBe(plan.routes);
    const second = (type: 'weekday' | 'holiday') => toKstIso(plan.planAs(type)[0].estimate[1].at);
    expect(second('weekday')).toBe('2026-11-19T06:15:00+09:00');
    expect(second('holiday')).toBe('2026-11-19T06:30:00+09:00');
  });
});

describe('helpers', () => {
  it('nextAtOrAfter finds the first time not yet past', () => {
    const times = [new Date('2026-11-19T08:00:00+09:00'), new Date('2026-11-19T08:20:00+09:00')];
    expect(nextAtOrAfter(times, new Date('2026-11-19T08:00:00+09:00'))).toBe(times[0]);
    expect(nextAtOrAfter(times, new Date('2026-11-19T08:00:01+09:00'))).toBe(times[1]);
    expect(nextAtOrAfter(times, new Date('2026-11-19T08:20:01+09:00'))).toBeNull();
  });
});
