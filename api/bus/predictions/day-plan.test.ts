import { dayType, serviceClock } from '../../time';
import { formatKstIso } from '../../../contract/kst';
import {
  nextAtOrAfter,
  predictDay,
  timetableDepartures,
  turnaroundsOf,
  type ObservedDeparture,
  type RouteDayPlan,
} from './day-plan';
import { ROUTES } from '../feed/transit-config';
import { run } from './history.fixture';

/** A route of the defaults, with its timetables. */
const routeOf = (routeNo: string) => ROUTES.find((r) => r.routeNo === routeNo);

const isoList = (times: Date[]) => times.map(formatKstIso);
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
    expect(plan.estimate.map((e) => [formatKstIso(e.at), e.basis])).toEqual([
      ['2026-11-19T08:00:00+09:00', 'history'],
      ['2026-11-19T08:20:00+09:00', 'history'],
      ['2026-11-19T08:41:00+09:00', 'history'],
    ]);
    expect(plan.sameRunSec).toBe(622.5); // half the median observed headway (20 min 45 s)
  });

  it('moves the day before and the week before to the date at the same wall-clock time', () => {
    const plan = planOf([...weekdays, run('1150', '2026-11-12', '09:15:00')], '2026-11-19');
    expect(isoList(plan.dayBefore)).toEqual([
      '2026-11-19T07:59:00+09:00',
      '2026-11-19T08:20:00+09:00',
      '2026-11-19T08:41:00+09:00',
    ]);
    expect(isoList(plan.weekBefore)).toEqual(['2026-11-19T09:15:00+09:00']);
    // Thursday's day before is a weekday; Monday's is Sunday 15 Nov, which has nothing.
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
    expect(plan.estimate.map((e) => e.at)).toEqual(timetableDepartures(routeOf('1150')!, '2026-11-21'));
    expect(formatKstIso(plan.estimate[0].at)).toBe('2026-11-21T05:40:00+09:00'); // Saturday's first bus
  });

  it('drops a run seen on a minority of days and ignores a partial day', () => {
    const extra = run('1150', '2026-11-18', '09:30:00'); // only on the most recent of 3 days
    const partial = [run('1150', '2026-11-13', '08:10:00')]; // 1 run vs a median of 3: not enough
    const plan = planOf([...weekdays, extra, ...partial], '2026-11-19');
    expect(plan.estimate.map((e) => formatKstIso(e.at))).toEqual([
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
    expect(plan.estimate.map((e) => [formatKstIso(e.at), e.basis])).toEqual([
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
    expect(plan.estimate.map((e) => formatKstIso(e.at))).toEqual([
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

describe('predictDay after a timetable change (docs/predictions.md §Following a changed timetable)', () => {
  /** Runs of 1150 on `date` every `headwayMin` for 16 hours from `first`, each a few seconds off. */
  const day = (date: string, first: string, headwayMin: number) => {
    const [h, m] = first.split(':').map(Number);
    return Array.from({ length: Math.floor((16 * 60) / headwayMin) + 1 }, (_, i) => {
      const minute = h * 60 + m + i * headwayMin;
      const second = (i * 7) % 20;
      return run(
        '1150',
        date,
        `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:${String(second).padStart(2, '0')}`,
      );
    });
  };
  /** Five weeks to Friday 2026-11-20: weekdays every 20 min from 06:00, weekends every 30 min from 07:00; from Thursday the 19th the weekdays run 30 min later. */
  const history = (weekendFrom: (date: string) => string = () => '07:00') =>
    Array.from({ length: 40 }, (_, i) => {
      const date = new Date(Date.UTC(2026, 9, 13 + i)).toISOString().slice(0, 10);
      if (dayType(date) !== 'weekday') return day(date, weekendFrom(date), 30);
      return day(date, date >= '2026-11-19' ? '06:30' : '06:00', 20);
    })
      .flat()
      .filter((d) => d.serviceDate <= '2026-11-21');
  const hhmm = (plan: RouteDayPlan) => plan.estimate.map((e) => formatKstIso(e.at).slice(11, 16));

  it('learns the weekdays since the change, and carries it to the Saturday not seen since', () => {
    const monday = planOf(history(), '2026-11-23');
    expect(monday.change).toMatchObject({ since: '2026-11-19', dayTypes: ['weekday'] });
    const saturday = planOf(
      history().filter((d) => d.serviceDate <= '2026-11-20'),
      '2026-11-21',
    );
    expect(saturday.change).toMatchObject({ since: '2026-11-19', dayTypes: ['weekday'], unchangedTypes: [] });
    expect(hhmm(saturday).slice(0, 3)).toEqual(['07:30', '08:00', '08:30']);
  });

  it('keeps the Sunday as it was once the Saturday since ran as before (a change of weekdays alone)', () => {
    const sunday = planOf(history(), '2026-11-22');
    expect(sunday.change).toMatchObject({ dayTypes: ['weekday'], unchangedTypes: ['saturday'] });
    expect(hhmm(sunday).slice(0, 3)).toEqual(['07:00', '07:30', '08:00']);
  });
});

describe('turnaroundsOf', () => {
  const route = routeOf('1150')!;
  it('is the spread of departedAt − arrivedAt where the arrival is known, ignoring mismatches', () => {
    const history = [
      run('1150', '2026-11-18', '08:00:00', 1000),
      run('1150', '2026-11-18', '08:20:00', 1100),
      run('1150', '2026-11-18', '08:40:00', 1300),
      run('1150', '2026-11-18', '09:00:00', 7200), // 2 h: another run's arrival
      run('1150', '2026-11-18', '09:20:00'),
      run('1117', '2026-11-18', '09:20:00', 100),
    ];
    // Each dressed with the least kernel (spread.ts MIN_KERNEL_SEC: five points, ±1.28 × 20 s).
    const values = turnaroundsOf(history, route).map((t) => Math.round(t.value));
    expect(values).toEqual([1000, 1100, 1300].flatMap((t) => [t - 26, t - 10, t, t + 10, t + 26]));
  });
  it('falls back to layoverMin + 8 minutes for the up section', () => {
    const values = turnaroundsOf([run('1150', '2026-11-18', '08:00:00')], route).map((t) => Math.round(t.value));
    expect(values).toEqual([-26, -10, 0, 10, 26].map((dz) => (8 + 8) * 60 + dz));
  });
});

describe('timetableDepartures', () => {
  it('runs from first at the mean headway of the day type and ends with the last bus GBIS states', () => {
    const times = timetableDepartures(routeOf('1303')!, '2026-11-19'); // weekday 05:40–22:50, 25–40 min
    expect(formatKstIso(times[0])).toBe('2026-11-19T05:40:00+09:00');
    expect(formatKstIso(times[1])).toBe('2026-11-19T06:12:30+09:00');
    expect(times).toHaveLength(33);
    // The stepping ends at 22:27:30, 22.5 minutes before the last bus: both run.
    expect(isoList(times.slice(-2))).toEqual(['2026-11-19T22:27:30+09:00', '2026-11-19T22:50:00+09:00']);
  });

  it('drops a stepped run within half a headway of the last bus, and keeps first and last of a short day', () => {
    const route = (first: string, last: string) => ({
      ...routeOf('1150')!,
      timetable: { ...routeOf('1150')!.timetable, weekday: { first, last, minHeadwayMin: 30, maxHeadwayMin: 30 } },
    });
    const hhmm = (times: Date[]) => times.map((t) => formatKstIso(t).slice(11, 16));
    expect(hhmm(timetableDepartures(route('08:00', '09:10'), '2026-11-19'))).toEqual(['08:00', '08:30', '09:10']);
    expect(hhmm(timetableDepartures(route('08:00', '09:20'), '2026-11-19'))).toEqual([
      '08:00',
      '08:30',
      '09:00',
      '09:20',
    ]);
    expect(hhmm(timetableDepartures(route('08:00', '08:10'), '2026-11-19'))).toEqual(['08:00', '08:10']);
    expect(hhmm(timetableDepartures(route('08:00', '08:00'), '2026-11-19'))).toEqual(['08:00']);
    expect(timetableDepartures(route('08:00', '07:00'), '2026-11-19')).toEqual([]);
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
