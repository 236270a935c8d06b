import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { backtest } from '../api/bus/predictions/backtest';
import type { DayPlan, ObservedDeparture } from '../api/bus/predictions/day-plan';
import { parseHistoryCsv, predictionsCsv } from './backtest-csv';

/** A 1150 departure at KST `time` ("HH:mm:ss") of `date`, not seen at the crossroads. */
const run = (date: string, time: string): ObservedDeparture => ({
  routeNo: '1150',
  serviceDate: date,
  departedAt: new Date(`${date}T${time}+09:00`),
  arrivedAt: null,
});

// Mon–Wed 16–18 Nov 2026 at 08:00/08:30/09:00, Wednesday a minute late: Thursday's plan is 08:00/08:30/09:00.
const prior = [
  ...['2026-11-16', '2026-11-17'].flatMap((date) => ['08:00:00', '08:30:00', '09:00:00'].map((t) => run(date, t))),
  ...['08:01:00', '08:31:00', '09:01:00'].map((t) => run('2026-11-18', t)),
];

describe('predictionsCsv (--predictions-out)', () => {
  it("writes each test day's history plan, one routeNo,serviceDate,predictedAt,lowerAt,upperAt row per predicted departure", async () => {
    const plans: DayPlan[] = [];
    const thursday = ['08:00:45', '08:30:45', '09:00:45'].map((time) => run('2026-11-19', time));
    await backtest([...prior, ...thursday], { days: 2, before: '2026-11-20', onDayPlan: (plan) => plans.push(plan) });
    expect(plans.map((plan) => plan.serviceDate)).toEqual(['2026-11-18', '2026-11-19']);

    const lines = predictionsCsv(plans).trimEnd().split('\n');
    expect(lines[0]).toBe('routeNo,serviceDate,predictedAt,lowerAt,upperAt');
    const rows = lines.slice(1).map((line) => {
      const [routeNo, serviceDate, predictedAt, lowerAt, upperAt, ...rest] = line.split(',');
      expect(rest, line).toEqual([]);
      return { routeNo, serviceDate, predictedAt, lowerAt, upperAt };
    });
    const kstIso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$/;
    // Thursday's 1150 plan is the learnt 08:00/08:30/09:00 (its history part, before any live evidence).
    const thursday1150 = rows.filter((row) => row.routeNo === '1150' && row.serviceDate === '2026-11-19');
    expect(thursday1150.map((row) => row.predictedAt)).toEqual([
      '2026-11-19T08:00:00+09:00',
      '2026-11-19T08:30:00+09:00',
      '2026-11-19T09:00:00+09:00',
    ]);
    // A history estimate states its 80 % range around its point, in the same KST format.
    for (const { predictedAt, lowerAt, upperAt } of thursday1150) {
      expect(lowerAt).toMatch(kstIso);
      expect(upperAt).toMatch(kstIso);
      expect(Date.parse(lowerAt)).toBeLessThanOrEqual(Date.parse(predictedAt));
      expect(Date.parse(predictedAt)).toBeLessThanOrEqual(Date.parse(upperAt));
      expect(Date.parse(upperAt)).toBeGreaterThan(Date.parse(lowerAt));
    }
    // The other routes have no history: timetable estimates, which state no range.
    const timetable = rows.filter((row) => row.routeNo !== '1150');
    expect(timetable.length).toBeGreaterThan(0);
    for (const row of timetable)
      expect([row.predictedAt, row.lowerAt, row.upperAt]).toEqual([expect.stringMatching(kstIso), '', '']);
    // Every route's plan of both days, none left out or added.
    const planned = plans.flatMap(({ serviceDate, routes }) =>
      routes.map((r) => [serviceDate, r.routeNo, r.estimate.length]),
    );
    for (const [serviceDate, routeNo, count] of planned) {
      expect(rows.filter((row) => row.routeNo === routeNo && row.serviceDate === serviceDate)).toHaveLength(
        count as number,
      );
    }
    expect(rows).toHaveLength(planned.reduce((sum, [, , count]) => sum + (count as number), 0));
  });
});

describe('parseHistoryCsv', () => {
  it('reads routeNo, departedAt and an optional arrivedAt, and derives the service date', async () => {
    const path = fileURLToPath(new URL('../tests/fixtures/history/departures-small.csv', import.meta.url));
    const rows = parseHistoryCsv(readFileSync(path, 'utf8'));
    expect(rows.map((r) => [r.routeNo, r.serviceDate, r.departedAt.toISOString(), r.arrivedAt?.toISOString()])).toEqual(
      [
        ['1150', '2026-11-18', '2026-11-17T23:00:00.000Z', '2026-11-17T22:45:00.000Z'],
        ['1150', '2026-11-18', '2026-11-17T23:30:00.000Z', undefined],
        ['1117', '2026-11-18', '2026-11-18T14:55:00.000Z', '2026-11-18T14:40:00.000Z'],
        ['1117', '2026-11-18', '2026-11-18T15:15:00.000Z', undefined], // 00:15 KST: the day before's service
        ['1303', '2026-11-19', '2026-11-18T23:20:00.000Z', undefined],
      ],
    );
  });

  it('names the line of a bad row', async () => {
    expect(() => parseHistoryCsv('routeNo,departedAt\n1150,2026-11-18T08:00:00+09:00\n1150,08:30\n')).toThrow(
      /history CSV line 3: departedAt/,
    );
  });
});
