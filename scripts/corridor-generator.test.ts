/**
 * The corridor history generator: deterministic per seed, read by the backtest's own CSV parser,
 * and holding what its model promises (unseen arrivals, travel times minutes apart, late buses
 * that keep part of their delay, skipped runs, the holiday timetable).
 */
import { parseHistoryCsv } from './backtest-csv';
import { dayType } from '../api/time';
import { ROUTE_NOS } from '../contract/transit';
import { generateCorridorHistory } from './corridor-generator';
import { generateHistory, historyCsv } from './history-generator';

const OPTIONS = { seed: 5, lastDate: '2026-10-10', days: 63 };
const { rows, scenario } = generateCorridorHistory(OPTIONS);
const history = parseHistoryCsv(historyCsv(rows, true));
const minutes = (ms: number) => ms / 60_000;
/** The p-quantile of the values (nearest rank below). */
const quantile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)];
/** Indices of the rows of a route. */
const rowsOf = (routeNo: string) => rows.flatMap((row, i) => (row.routeNo === routeNo ? [i] : []));
/** Minutes from its slot to the departure of row i. */
const deviation = (i: number) =>
  minutes(Date.parse(rows[i].departedAt) - Date.parse(`${scenario.runs[i].serviceDate}T00:00:00+09:00`)) -
  scenario.runs[i].slotMin;
/** The planned slots of a route on a date. */
const slotsOf = (routeNo: string, date: string) => {
  const kind = dayType(date);
  const timetables = scenario.timetables[routeNo];
  return kind === 'weekday' && date >= scenario.changeDate ? timetables.changedWeekday : timetables[kind];
};

describe('generateCorridorHistory', () => {
  it('gives the same rows for the same seed and other rows for another', () => {
    expect(generateCorridorHistory(OPTIONS)).toEqual({ rows, scenario });
    expect(generateCorridorHistory({ ...OPTIONS, seed: 6 }).rows).not.toEqual(rows);
  });

  it('writes the backtest CSV, each departure on the service date of its run, in order', () => {
    expect(history).toHaveLength(rows.length);
    expect(scenario.runs).toHaveLength(rows.length);
    expect(history.map((d) => d.serviceDate)).toEqual(scenario.runs.map((run) => run.serviceDate));
    const times = history.map((d) => d.departedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(history.map((d) => d.routeNo))).toEqual(new Set(ROUTE_NOS));
  });

  it('leaves arrivedAt empty on 6–10 % of rows, late runs as often as the others', () => {
    const unseen = (indices: number[]) => indices.filter((i) => history[i].arrivedAt === null).length / indices.length;
    const all = rows.map((_, i) => i);
    expect(unseen(all)).toBeGreaterThan(0.06);
    expect(unseen(all)).toBeLessThan(0.1);
    const threshold = quantile(
      scenario.runs.map((run) => run.terminusDelayMin),
      0.75,
    );
    const lateQuarter = all.filter((i) => scenario.runs[i].terminusDelayMin > threshold);
    expect(unseen(lateQuarter)).toBeGreaterThan(0.05);
    expect(unseen(lateQuarter)).toBeLessThan(0.11);
  });

  it('takes the road from the crossroads to the terminus in minutes that vary, at one time of day too', () => {
    for (const routeNo of ROUTE_NOS) {
      const indices = rowsOf(routeNo);
      const travel = indices.map((i) => scenario.runs[i].travelMin);
      // Over the history the slowest 5 % take more than twice as long as the fastest 5 % (congestion alone: 1.4 / 0.9).
      expect(quantile(travel, 0.95) / quantile(travel, 0.05), routeNo).toBeGreaterThan(2);
      // Weekday middays share one congestion factor: the spread left is the road's own.
      const midday = indices
        .filter((i) => {
          const { serviceDate, slotMin } = scenario.runs[i];
          return dayType(serviceDate) === 'weekday' && slotMin >= 10 * 60 && slotMin < 16 * 60;
        })
        .map((i) => scenario.runs[i].travelMin);
      const median = quantile(midday, 0.5);
      expect(quantile(midday, 0.9) - quantile(midday, 0.1), routeNo).toBeGreaterThan(0.5 * median);
      // The rows show it: an early bus leaves at its slot, whenever it came, so its turnaround spans minutes.
      const turnarounds = indices
        .filter((i) => scenario.runs[i].terminusDelayMin <= 0 && history[i].arrivedAt)
        .map((i) => minutes(history[i].departedAt.getTime() - history[i].arrivedAt!.getTime()));
      expect(quantile(turnarounds, 0.9) - quantile(turnarounds, 0.1), routeNo).toBeGreaterThan(3);
    }
  });

  it('has a late bus keep ρ of its delay at the terminus, where the earliest turnaround does not hold it back', () => {
    for (const routeNo of ROUTE_NOS) {
      const { layoverMin, recovery } = scenario.routes[routeNo];
      // Below layover − 2 min of delay, ρ·δ ≥ δ − layover + the 1–2 min turnaround: the floor never binds.
      const late = rowsOf(routeNo).filter(
        (i) => scenario.runs[i].terminusDelayMin > 0 && scenario.runs[i].terminusDelayMin < layoverMin - 2,
      );
      const x = late.map((i) => scenario.runs[i].terminusDelayMin);
      const y = late.map(deviation);
      const meanX = x.reduce((sum, v) => sum + v, 0) / x.length;
      const meanY = y.reduce((sum, v) => sum + v, 0) / y.length;
      const slope =
        x.reduce((sum, v, k) => sum + (v - meanX) * (y[k] - meanY), 0) /
        x.reduce((sum, v) => sum + (v - meanX) ** 2, 0);
      expect(late.length, routeNo).toBeGreaterThan(200);
      expect(Math.abs(slope - recovery), `${routeNo} slope ${slope} ρ ${recovery}`).toBeLessThan(0.15);
    }
  });

  it('skips some runs of every route and runs the holiday timetable on Chuseok and substitute holidays', () => {
    const dates = [...new Set(history.map((d) => d.serviceDate))];
    for (const routeNo of ROUTE_NOS) {
      const planned = dates.reduce((sum, date) => sum + slotsOf(routeNo, date).length, 0);
      const skipped = 1 - rowsOf(routeNo).length / planned;
      expect(skipped, routeNo).toBeGreaterThan(0.02);
      expect(skipped, routeNo).toBeLessThan(0.08);
    }
    // The product's calendar, as the standard generator has it for the same dates.
    expect(scenario.holidays).toEqual(generateHistory(OPTIONS).scenario.holidays);
    for (const date of ['2026-09-24', '2026-09-25', '2026-10-05']) {
      for (const routeNo of ROUTE_NOS) {
        const { holiday, weekday } = scenario.timetables[routeNo];
        const departures = history.filter((d) => d.routeNo === routeNo && d.serviceDate === date).length;
        expect(holiday.length, routeNo).toBeLessThan(0.8 * weekday.length);
        expect(departures, `${routeNo} ${date}`).toBeLessThanOrEqual(holiday.length);
        expect(departures, `${routeNo} ${date}`).toBeGreaterThan(0.8 * holiday.length);
      }
    }
  });
});
