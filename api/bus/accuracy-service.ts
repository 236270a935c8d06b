/**
 * The public prediction accuracy figure (issue 8: /faq says how accurate the predictions were over
 * the last 14 days): the backtest (backtest.ts) of the last PREDICTION_ACCURACY_DAYS service days
 * before today, for the product's estimate and the yesterday baseline. It is computed at most once
 * per service day (KST, api/time.ts serviceClock) and then served from memory; concurrent requests
 * share the computation under way (single flight). A failed history load is not kept: the next
 * request tries again.
 */
import {
  PREDICTION_ACCURACY_DAYS,
  type FeedSourceName,
  type MethodAccuracy,
  type PredictionAccuracy,
} from '../../contract/bus';
import { serviceClock } from '../time';
import { backtest, backtestHistoryRange, ETA_BUCKETS, type MethodScore } from './backtest';
import type { HistoryLoader } from './prediction-service';

export type AccuracyService = {
  /**
   * The figure of the service date of `now`: cached for that date, or computed (history load, then
   * the backtest, ~40 ms of CPU per day evaluated) by the first call of the date.
   * @throws what the history loader throws (not cached).
   */
  get(now: Date): Promise<PredictionAccuracy>;
};

/**
 * @param options.loadHistory the running feed's stored departures; the backtest of a date reads
 *   the HISTORY_WINDOW_DAYS days before each evaluated day, so PREDICTION_ACCURACY_DAYS +
 *   HISTORY_WINDOW_DAYS days before today in all.
 * @param options.source the feed whose history it is (named in the answer: demo or gbis).
 */
export function createAccuracyService(options: {
  loadHistory: HistoryLoader;
  source: FeedSourceName;
}): AccuracyService {
  const { loadHistory, source } = options;
  let cached: { serviceDate: string; accuracy: Promise<PredictionAccuracy> } | null = null;

  const compute = async (serviceDate: string): Promise<PredictionAccuracy> => {
    const history = await loadHistory(backtestHistoryRange(PREDICTION_ACCURACY_DAYS, serviceDate));
    // NOTE: synchronous and CPU-bound (~0.6 s for 14 demo days): once per service day, not per request.
    const report = backtest(history, { days: PREDICTION_ACCURACY_DAYS, before: serviceDate });
    return {
      source,
      window: {
        days: report.days.length,
        firstDate: report.days[0] ?? null,
        lastDate: report.days.at(-1) ?? null,
      },
      estimate: figuresOf(report.overall.methods.estimate),
      yesterday: figuresOf(report.overall.methods.yesterday),
      tolerances: ETA_BUCKETS.map(({ fromSec, toSec, earlySec, lateSec }) => ({ fromSec, toSec, earlySec, lateSec })),
    };
  };

  return {
    get(now) {
      const { serviceDate } = serviceClock(now);
      if (cached?.serviceDate === serviceDate) return cached.accuracy;
      const entry = { serviceDate, accuracy: compute(serviceDate) };
      cached = entry;
      entry.accuracy.catch(() => {
        if (cached === entry) cached = null;
      });
      return entry.accuracy;
    },
  };
}

/** The public figures of a method: ETA score to 0.1 percentage point, MAE to the whole second. */
function figuresOf(score: MethodScore): MethodAccuracy {
  return {
    etaScore: score.etaScore === null ? null : Math.round(score.etaScore * 10) / 10,
    maeSec: score.maeSec === null ? null : Math.round(score.maeSec),
    queries: score.queries,
  };
}
