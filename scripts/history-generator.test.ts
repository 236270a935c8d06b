/**
 * The synthetic history generator: deterministic per seed, read by the
 * backtest's own CSV parser, and holding the patterns it promises.
 */
import { parseHistoryCsv } from './backtest-csv';
import { ROUTE_NOS } from '../contract/transit';
import { generateHistory, historyCsv } from './history-generator';

const OPTIONS = { seed: 7, lastDate: '2026-10-10', days: 63 };
const { rows, scenario } = generateHistory(OPTIONS);
const history = parseHistoryCsv(historyCsv(rows, true));
const minutesOf = (iso: string) => Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16));
const weekdayOf = (date: string) => new Date(`${date}T12:00:00+09:00`).getUTCDay();
/** Departure minutes of the service day of a route's runs on a date. */
const departuresOf = (routeNo: string, date: string) =>
  history
    .filter((d) => d.routeNo === routeNo && d.serviceDate === date)
    .map((d) => (d.departedAt.getTime() - Date.parse(`${date}T00:00:00+09:00`)) / 60_000);
/** Mean minutes from each departure back to the latest planned slot at or before it (slots are never left early by more than 1.5 min). */
const misfit = (departures: number[], slots: number[]) =>
  departures.reduce(
    (sum, minute) => sum + Math.min(...slots.map((slot) => (minute >= slot - 1.5 ? minute - slot : 60))),
    0,
  ) / departures.length;

describe('generateHistory', () => {
  it('gives the same rows for the same seed and other rows for another', () => {
    expect(generateHistory(OPTIONS).rows).toEqual(rows);
    expect(generateHistory({ ...OPTIONS, seed: 8 }).rows).not.toEqual(rows);
  });

  it('writes the backtest CSV with and without arrivedAt, the same departures in both', () => {
    const without = parseHistoryCsv(historyCsv(rows, false));
    expect(history).toHaveLength(rows.length);
    expect(without.map((d) => d.departedAt)).toEqual(history.map((d) => d.departedAt));
    expect(without.every((d) => d.arrivedAt === null)).toBe(true);
    const seen = history.filter((d) => d.arrivedAt !== null).length / history.length;
    expect(seen).toBeGreaterThan(0.93);
    expect(seen).toBeLessThan(0.99);
    expect(new Set(history.map((d) => d.routeNo))).toEqual(new Set(ROUTE_NOS));
  });

  it('runs the holiday timetable on every day of Chuseok and on substitute holidays', () => {
    expect(scenario.holidays).toEqual(
      expect.arrayContaining([
        '2026-09-24 추석',
        '2026-09-25 추석',
        '2026-09-26 추석',
        '2026-10-05 개천절 (대체공휴일)',
      ]),
    );
    for (const date of ['2026-09-24', '2026-09-25', '2026-09-26', '2026-10-05', '2026-09-20']) {
      for (const routeNo of ROUTE_NOS) {
        const { holiday, weekday, saturday } = scenario.timetables[routeNo];
        const departures = departuresOf(routeNo, date);
        expect(misfit(departures, holiday), `${routeNo} ${date}`).toBeLessThan(misfit(departures, weekday));
        expect(misfit(departures, holiday), `${routeNo} ${date}`).toBeLessThan(misfit(departures, saturday));
      }
    }
  });

  it('has late buses shorten their layover: the later a bus reaches the crossroads, the shorter its turnaround', () => {
    for (const routeNo of ROUTE_NOS) {
      const turnarounds = history
        .filter((d) => d.routeNo === routeNo && d.arrivedAt)
        .map((d) => (d.departedAt.getTime() - d.arrivedAt!.getTime()) / 60_000)
        .sort((a, b) => a - b);
      const low = turnarounds[Math.floor(turnarounds.length * 0.1)];
      const high = turnarounds[Math.floor(turnarounds.length * 0.9)];
      expect(low).toBeGreaterThan(5);
      expect(high - low).toBeGreaterThan(4);
    }
  });

  it('skips 3–8 % of runs and delays the disrupted weekday evening', () => {
    const perDay = (date: string) => rows.filter((row) => row.departedAt.startsWith(date)).length;
    const weekdays = [...new Set(history.map((d) => d.serviceDate))].filter(
      (date) =>
        ![0, 6].includes(weekdayOf(date)) &&
        !scenario.holidays.some((h) => h.startsWith(date)) &&
        date < scenario.changeDate,
    );
    const counts = weekdays.map(perDay);
    const most = Math.max(...counts);
    const mean = counts.reduce((sum, n) => sum + n, 0) / counts.length;
    expect(1 - mean / most).toBeGreaterThan(0.02);
    expect(1 - mean / most).toBeLessThan(0.12);

    const evening = (date: string) =>
      rows.filter((row) => {
        const minute = minutesOf(row.departedAt);
        return (
          row.departedAt.startsWith(date) && minute >= scenario.disruptedFromMin && minute < scenario.disruptedToMin
        );
      });
    const lateness = (date: string) => {
      const runs = evening(date).filter((row) => row.arrivedAt);
      return runs.reduce((sum, row) => sum + (Date.parse(row.departedAt) - Date.parse(row.arrivedAt)), 0) / runs.length;
    };
    const disrupted = weekdays.filter(
      (date) =>
        weekdayOf(date) ===
        ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'].indexOf(scenario.disruptedWeekday),
    );
    const others = weekdays.filter((date) => !disrupted.includes(date));
    // Late up runs shorten the turnaround: the disrupted evenings' mean turnaround is shorter.
    const mean2 = (dates: string[]) => dates.map(lateness).reduce((sum, ms) => sum + ms, 0) / dates.length;
    expect(disrupted.length).toBeGreaterThanOrEqual(4);
    expect(mean2(disrupted)).toBeLessThan(mean2(others) - 60_000);
  });

  it('changes the weekday timetable of the changed routes from the change date on, and of those only', () => {
    const weekdays = [...new Set(history.map((d) => d.serviceDate))].filter(
      (date) => ![0, 6].includes(weekdayOf(date)) && !scenario.holidays.some((h) => h.startsWith(date)),
    );
    const before = weekdays.filter((date) => date < scenario.changeDate);
    const after = weekdays.filter((date) => date >= scenario.changeDate);
    expect(before.length).toBeGreaterThan(20);
    expect(after.length).toBeGreaterThanOrEqual(5);
    for (const routeNo of ROUTE_NOS) {
      const { weekday, changedWeekday } = scenario.timetables[routeNo];
      if (!scenario.changedRoutes.includes(routeNo)) {
        expect(changedWeekday).toEqual(weekday);
        continue;
      }
      expect(changedWeekday).not.toEqual(weekday);
      for (const date of after) {
        const departures = departuresOf(routeNo, date);
        expect(misfit(departures, changedWeekday), `${routeNo} ${date}`).toBeLessThan(misfit(departures, weekday));
      }
      for (const date of before) {
        const departures = departuresOf(routeNo, date);
        expect(misfit(departures, weekday), `${routeNo} ${date}`).toBeLessThan(misfit(departures, changedWeekday));
      }
    }
  });
});
