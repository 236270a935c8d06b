/**
 * What the predictions promise (docs/predictions.md), on every seed of tests/fixtures/history-seeds.json (the generator,
 * scripts/history-generator.ts, 70 days each; the backtest of the last 14):
 * - 'history' at most 0.8× the best baseline's MAE (yesterday, last week, timetable), overall and
 *   on every route, and never below the best baseline's ETA score;
 * - with arrivedAt, 'estimate' at an ETA score of at least 75 % overall.
 */
import { readFileSync } from 'node:fs';
import { backtest, type BacktestReport, type BacktestScores } from '../api/bus/predictions/backtest';
import { parseHistoryCsv } from '../scripts/backtest-csv';
import { addServiceDays } from '../api/time';
import { generateHistory, historyCsv } from '../scripts/history-generator';

type Seed = { seed: number; lastDate: string; note: string };
const SEEDS: Seed[] = JSON.parse(readFileSync(new URL('./fixtures/history-seeds.json', import.meta.url), 'utf8'));
const BASELINES = ['yesterday', 'lastWeek', 'timetable'] as const;

const bestBaseline = (scores: BacktestScores) => ({
  maeSec: Math.min(...BASELINES.map((method) => scores.methods[method].maeSec ?? Infinity)),
  etaScore: Math.max(...BASELINES.map((method) => scores.methods[method].etaScore ?? 0)),
});

describe.each(SEEDS)('predictions on generator seed $seed ($note)', ({ seed, lastDate }) => {
  let report: BacktestReport;
  // One seed at a time (~3 s each): started together they would all finish last.
  beforeAll(async () => {
    const { rows } = generateHistory({ seed, lastDate, days: 70 });
    const history = parseHistoryCsv(historyCsv(rows, true));
    report = await backtest(history, { days: 14, before: addServiceDays(lastDate, 1) });
  }, 60_000);

  it('history beats the best baseline by 20 % in MAE, overall and on every route, and is never worse in ETA score', () => {
    expect(report.days).toHaveLength(14);
    for (const [name, scores] of [
      ['overall', report.overall] as const,
      ...report.routes.map((r) => [r.routeNo, r] as const),
    ]) {
      const best = bestBaseline(scores);
      expect(scores.methods.history.maeSec!, name).toBeLessThanOrEqual(0.8 * best.maeSec);
      expect(scores.methods.history.etaScore!, name).toBeGreaterThanOrEqual(best.etaScore);
    }
  });

  it('with arrivedAt, the estimate is accurate for at least 75 % (ETA score)', () => {
    expect(report.overall.methods.estimate.etaScore!).toBeGreaterThanOrEqual(75);
  });
});
