/**
 * The predictions follow a changed timetable (docs/predictions.md §Following a changed timetable),
 * on the changes generator (scripts/change-generator.ts): routes that run more or less often (all
 * day or off-peak), start later, run later all day, are suspended for some days, or run a vacation
 * timetable on weekdays, from one date on,
 * beside the same history without the change. Seeds 1 and 2, 70 days ending 2026-10-31, the change
 * on 2026-10-22 (a Thursday); "days 3–9" are 2026-10-25 to 2026-10-31.
 */
import { backtest } from '../api/bus/predictions/backtest';
import { predictDay } from '../api/bus/predictions/day-plan';
import { addServiceDays } from '../api/time';
import { generateChangeHistory, type ChangeKind } from '../scripts/change-generator';
import { historyCsv } from '../scripts/history-generator';
import { parseHistoryCsv } from '../scripts/backtest-csv';

const LAST_DATE = '2026-10-31';
const CHANGE_DATE = addServiceDays(LAST_DATE, -9);
const SCENARIOS: Record<string, ChangeKind>[] = [
  { '1150': 'more', '1117': 'less', '1303': 'firstLater' },
  { '1150': 'vacation', '1117': 'suspended', '1005': 'more' },
  { '1150': 'offPeakMore', '1117': 'laterAndLess', '1303': 'shifted' },
];

const historyOf = (seed: number, changes: Record<string, ChangeKind>) =>
  parseHistoryCsv(
    historyCsv(generateChangeHistory({ seed, lastDate: LAST_DATE, days: 70, changeDate: CHANGE_DATE, changes }), true),
  );

/** A backtest takes 5–10 s on this machine, more while the rest of the suite runs beside it. */
const TIMEOUT_MS = 120_000;

/** The unchanged history's backtest over days 3–9, once per seed. */
const unchangedReports = new Map<number, ReturnType<typeof backtest>>();

describe.each([1, 2])('a changed timetable, seed %i', (seed) => {
  it.each(SCENARIOS)(
    'is seen from its first day on, per route, and nowhere else: %o',
    { timeout: TIMEOUT_MS },
    (changes) => {
      const changed = historyOf(seed, changes);
      for (const route of predictDay(changed, addServiceDays(CHANGE_DATE, 3)).routes) {
        const kind = changes[route.routeNo] ?? 'none';
        // A suspended route comes back to its old timetable: no departure misfits it.
        if (kind === 'none' || kind === 'suspended') expect(route.change, route.routeNo).toBeNull();
        // A day moved by whole headways runs the old times but at its ends, and may fit them.
        else if (kind === 'shifted' && route.change === null) continue;
        else expect(route.change?.since, route.routeNo).toBe(CHANGE_DATE);
      }
      // Without the change, no day of the three weeks around it is taken for one.
      const unchanged = historyOf(seed, {});
      for (let day = -10; day <= 9; day++) {
        expect(
          predictDay(unchanged, addServiceDays(CHANGE_DATE, day)).routes.every((route) => route.change === null),
        ).toBe(true);
      }
    },
  );

  it.each(SCENARIOS)("keeps the estimate's ETA score over days 3–9: %o", { timeout: TIMEOUT_MS }, async (changes) => {
    const days = { days: 7, before: addServiceDays(CHANGE_DATE, 10) };
    const changed = await backtest(historyOf(seed, changes), days);
    if (!unchangedReports.has(seed)) unchangedReports.set(seed, backtest(historyOf(seed, {}), days));
    const unchanged = await (unchangedReports.get(seed) as ReturnType<typeof backtest>);
    changed.routes.forEach((route, i) => {
      const score = route.methods.estimate.etaScore ?? 0;
      const before = unchanged.routes[i].methods.estimate.etaScore ?? 0;
      // An unchanged route moves only with the ranges' calibration, which all routes share.
      if ((changes[route.routeNo] ?? 'none') === 'none')
        expect(Math.abs(score - before), route.routeNo).toBeLessThan(1);
      else expect(score, route.routeNo).toBeGreaterThanOrEqual(72);
    });
    expect(changed.overall.methods.estimate.etaScore).toBeGreaterThanOrEqual(79);
  });
});
