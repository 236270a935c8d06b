import { backtest } from '../api/bus/predictions/backtest';
import type { ObservedDeparture } from '../api/bus/predictions/day-plan';
import { formatBacktestTable } from './backtest-table';

/** A 1150 departure at KST `time` ("HH:mm:ss") of `date`, 15 min after passing the crossroads. */
const run = (date: string, time: string): ObservedDeparture => {
  const departedAt = new Date(`${date}T${time}+09:00`);
  return { routeNo: '1150', serviceDate: date, departedAt, arrivedAt: new Date(departedAt.getTime() - 900_000) };
};

describe('formatBacktestTable', () => {
  it('heads the table with the span of days, then a row per route and the overall one', async () => {
    const prior = ['2026-11-16', '2026-11-17'].flatMap((date) =>
      ['08:00:00', '08:30:00', '09:00:00'].map((t) => run(date, t)),
    );
    const table = formatBacktestTable(await backtest(prior, { days: 2, before: '2026-11-18' }));
    expect(table).toMatch(/^Backtest of 2 service days \(2026-11-16 – 2026-11-17\)/);
    expect(table.split('\n')).toContainEqual(expect.stringMatching(/^overall\s+6\s+90 \|/));
  });

  it('lists the slots learnt per route and day type as count ± spread, - where none were learnt', async () => {
    const drifting = ['2026-11-16', '2026-11-17', '2026-11-18'].flatMap((date, k) =>
      ['08:00', '08:30', '09:00'].map((hhmm) =>
        run(date, `${hhmm.slice(0, 3)}${String(Number(hhmm.slice(3)) + k).padStart(2, '0')}:00`),
      ),
    );
    const report = await backtest([...drifting, run('2026-11-19', '08:01:00')], { days: 1, before: '2026-11-20' });
    const table = formatBacktestTable(report).split('\n');
    expect(table).toContainEqual(expect.stringMatching(/^1150\s+3 ± 60 s\s+-\s+-$/));
    expect(table).toContainEqual(expect.stringMatching(/^1303\s+-\s+-\s+-$/));
  });

  it("states the ranges' coverage and mean width of the estimate and the history part, - without any", async () => {
    const days = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'];
    const history = days.flatMap((date) => ['08:00:00', '08:30:00', '09:00:00'].map((t) => run(date, t)));
    const report = await backtest(history, { days: 1, before: '2026-11-20' });
    const table = formatBacktestTable(report).split('\n');
    const { estimate, history: plan } = report.overall.methods;
    const cells = [estimate, plan].map((m) => `${m.coverage!.toFixed(1)}\\s+${Math.round(m.meanRangeSec!)}`);
    expect(table).toContainEqual(expect.stringMatching(new RegExp(`^overall\\s+\\|\\s+${cells.join('\\s+\\|\\s+')}$`)));
    expect(table).toContainEqual(expect.stringMatching(/^1303\s+\|\s+-\s+-\s+\|\s+-\s+-$/));
  });
});
