/** The backtest's report as a plain-text table, for `npm run backtest` (scripts/backtest.ts). */
import { BACKTEST_METHODS as METHODS, type BacktestReport as BacktestReportBody } from '../contract/admin';
import type { Method, MethodScore } from '../api/bus/predictions/backtest';
import { DAY_TYPES, type DayType } from '../contract/transit';

/** The methods that state an 80 % range (the baselines state none). */
const RANGED: readonly Method[] = ['estimate', 'history'];

const METHOD_LABELS: Record<Method, string> = {
  estimate: 'estimate(live)',
  history: 'history only',
  dayBefore: 'day before',
  weekBefore: 'week before',
  timetable: 'timetable',
};

/**
 * The report (api/bus/predictions/backtest.ts's, or as GET /api/admin/backtest sends it) as a
 * plain-text table: per route and overall, MAE (s) and ETA score (%) per method, the slots learnt,
 * and the coverage and mean width of the ranges the estimate and the history part state.
 */
export function formatBacktestTable(report: BacktestReportBody): string {
  const cell = (score: Pick<MethodScore, 'maeSec' | 'etaScore'>) =>
    `${score.maeSec === null ? '-' : Math.round(score.maeSec)}`.padStart(7) +
    `${score.etaScore === null ? '-' : score.etaScore.toFixed(1)}`.padStart(8);
  const row = (name: string, scores: BacktestReportBody['overall']) =>
    name.padEnd(8) +
    String(scores.departures).padStart(10) +
    String(scores.methods.estimate.queries).padStart(9) +
    METHODS.map((method) => ` |${cell(scores.methods[method])}`).join('');
  const rangeCell = ({ coverage, meanRangeSec }: Pick<MethodScore, 'coverage' | 'meanRangeSec'>) =>
    `${coverage === null ? '-' : coverage.toFixed(1)}`.padStart(8) +
    `${meanRangeSec === null ? '-' : Math.round(meanRangeSec)}`.padStart(8);
  const span = report.days.length ? `${report.days[0]} – ${report.days[report.days.length - 1]}` : 'no days';
  const slotCell = (routeNo: string, type: DayType) => {
    const entry = report.slots.find((s) => s.routeNo === routeNo && s.dayType === type);
    return (entry ? `${entry.count} ± ${Math.round(entry.spreadSec)} s` : '-').padStart(14);
  };
  return [
    `Backtest of ${report.days.length} service days (${span}); queries 0–15 min before each observed departure`,
    ''.padEnd(27) + METHODS.map((method) => ` | ${METHOD_LABELS[method].padEnd(14)}`).join(''),
    'route'.padEnd(8) +
      'departures'.padStart(10) +
      'queries'.padStart(9) +
      METHODS.map(() => ` |${'MAE s'.padStart(7)}${'ETA %'.padStart(8)}`).join(''),
    ...report.routes.map((r) => row(r.routeNo, r)),
    row('overall', report.overall),
    '',
    'Slots learnt per day type (as of its last test day): count ± spread (median over slots of the median |departure − slot|)',
    'route'.padEnd(8) + DAY_TYPES.map((type) => type.padStart(14)).join(''),
    ...report.routes.map(
      ({ routeNo }) => routeNo.padEnd(8) + DAY_TYPES.map((type) => slotCell(routeNo, type)).join(''),
    ),
    '',
    'Stated 80 % ranges: coverage (% of the answers with a range whose departure fell inside it; target 80) and mean width',
    'route'.padEnd(8) + RANGED.map((method) => ` | ${METHOD_LABELS[method].padEnd(14)}`).join(''),
    ''.padEnd(8) + RANGED.map(() => ` |${'cover %'.padStart(8)}${'width s'.padStart(8)}`).join(''),
    ...[...report.routes.map((r) => [r.routeNo, r] as const), ['overall', report.overall] as const].map(
      ([name, scores]) => name.padEnd(8) + RANGED.map((method) => ` |${rangeCell(scores.methods[method])}`).join(''),
    ),
  ].join('\n');
}
