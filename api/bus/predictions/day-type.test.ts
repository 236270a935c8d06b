import { dayType } from '../../time';
import { formatKstIso } from '../../../contract/kst';
import { predictDay } from './day-plan';
import { observedDayType } from './day-type';
import { run } from './history.fixture';

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
    const second = (type: 'weekday' | 'holiday') => formatKstIso(plan.planAs(type)[0].estimate[1].at);
    expect(second('weekday')).toBe('2026-11-19T06:15:00+09:00');
    expect(second('holiday')).toBe('2026-11-19T06:30:00+09:00');
  });
});
