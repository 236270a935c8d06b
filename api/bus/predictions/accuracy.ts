/**
 * The public prediction accuracy figure (/faq and the down tab's "지난 2주 동안 예상 출발 시각의
 * 평균 오차는 약 N분"): the backtest of the last PREDICTION_ACCURACY_DAYS service days before today,
 * for `estimate` and the day-before baseline, on the running feed's own history (see
 * docs/predictions.md §What riders see). The poller lease holder computes it once per KST service
 * day (`refresh`, called by api/runtime.ts after start and then hourly) and stores it in
 * prediction_accuracy, with its whole report in settings `backtest-report:<feed>`. Every instance
 * serves the stored figure (`get`) and report (`report`): no request ever computes them.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { BacktestReportSchema } from '../../../contract/admin';
import {
  PREDICTION_ACCURACY_DAYS,
  PredictionAccuracySchema,
  type FeedSourceName,
  type MethodAccuracy,
  type PredictionAccuracy,
} from '../../../contract/bus';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { predictionAccuracy, settings } from '../../db/schema';
import { sharedRead } from '../../shared-read';
import { serviceClock } from '../../time';
import {
  backtestHistoryRange,
  cadenceOf,
  DEVELOPMENT_KEY_QUOTA,
  type BacktestReport,
  type Cadence,
  type MethodScore,
} from './backtest';
import type { PredictionJobs } from './jobs';
import { ETA_BUCKETS, type Calibration } from './spread';
import type { HistoryLoader } from './service';
import { transitIdsNow, type TransitIdsNow } from '../feed/transit-config';

/** How long an instance serves the stored figure before reading it again (it changes once a day). */
export const ACCURACY_READ_TTL_MS = 60 * 1000;

/** The ETA score's windows as the answer states them. */
const TOLERANCES = ETA_BUCKETS.map(({ fromSec, toSec, earlySec, lateSec }) => ({ fromSec, toSec, earlySec, lateSec }));

export type AccuracyService = {
  /**
   * The stored figure of the running feed (shared read, at most ACCURACY_READ_TTL_MS old), or the
   * empty one (computedAt null) before the first computation. Never computes.
   * @throws what the database read throws (not kept: the next call reads again).
   */
  get(): Promise<PredictionAccuracy>;
  /**
   * For the lease holder only: when the stored figure is not of `now`'s service date, computes it
   * (history load, then the backtest in the worker thread: ~50–130 ms of CPU per day evaluated) and
   * stores it. Concurrent calls share one computation.
   * @returns whether it computed.
   * @throws what the history loader or the database throws (nothing is stored).
   */
  refresh(now: Date): Promise<boolean>;
  /**
   * The backtest report of the PREDICTION_ACCURACY_DAYS service days before `serviceDate`, as the
   * lease holder stored it with that day's figure, or null when none is stored for that day yet.
   * Never computes.
   * @throws what the database read throws.
   */
  report(serviceDate: string): Promise<BacktestReport | null>;
  /**
   * The estimate's range calibration (BacktestReport.rangeCalibration) of the last stored report,
   * whatever its day (a day-old one still holds better than none), or null before the first.
   * @throws what the database read throws.
   */
  rangeCalibration(): Promise<Calibration | null>;
};

/** The stored report's settings row: the service date it was computed on, and the report. */
const StoredReportSchema = z.object({ serviceDate: z.string(), report: z.unknown() });

/**
 * @param options.loadHistory the running feed's stored departures; the backtest of a date reads
 *   the HISTORY_WINDOW_DAYS days before each evaluated day, so PREDICTION_ACCURACY_DAYS +
 *   HISTORY_WINDOW_DAYS days before today in all.
 * @param options.source the feed whose history it is (its row, and named in the answer).
 * @param options.jobs where the backtest runs (the worker thread: jobs.ts).
 * @param options.transit the ids in use, whose timetables the backtest scores; default the defaults
 *   of transit-config.ts.
 */
export function createAccuracyService(options: {
  db: Db;
  clock: Clock;
  loadHistory: HistoryLoader;
  source: FeedSourceName;
  jobs: Pick<PredictionJobs, 'backtest'>;
  transit?: Pick<TransitIdsNow, 'current'>;
  /** How soon the feed sees a departure (backtest Cadence); default the feed's on a development key. */
  cadence?: Cadence;
}): AccuracyService {
  const {
    db,
    clock,
    loadHistory,
    source,
    jobs,
    transit = transitIdsNow(),
    cadence = cadenceOf(source, DEVELOPMENT_KEY_QUOTA),
  } = options;
  const stored = sharedRead(
    async () => {
      const [row] = await db.select().from(predictionAccuracy).where(eq(predictionAccuracy.feed, source));
      // A figure stored by an older release in another shape counts as none: it is not served, and
      // the lease holder computes today's again (`refresh`).
      return row && PredictionAccuracySchema.safeParse(row.accuracy).success ? row : null;
    },
    { clock, ttlMs: ACCURACY_READ_TTL_MS },
  );

  const reportKey = `backtest-report:${source}`;

  const compute = async (serviceDate: string, now: Date) => {
    const history = await loadHistory(backtestHistoryRange(PREDICTION_ACCURACY_DAYS, serviceDate));
    const { routes } = transit.current();
    const report = await jobs.backtest({
      history,
      days: PREDICTION_ACCURACY_DAYS,
      before: serviceDate,
      routes,
      cadence,
    });
    const accuracy: PredictionAccuracy = {
      source,
      computedAt: now.toISOString(),
      window: {
        days: report.days.length,
        firstDate: report.days[0] ?? null,
        lastDate: report.days.at(-1) ?? null,
      },
      estimate: figuresOf(report.overall.methods.estimate),
      dayBefore: figuresOf(report.overall.methods.dayBefore),
      tolerances: TOLERANCES,
    };
    return { accuracy, report };
  };

  /** The stored report and its service date, or null when none is stored (or it is not the contract's). */
  const lastReport = async (): Promise<{ serviceDate: string; report: BacktestReport } | null> => {
    const [row] = await db.select().from(settings).where(eq(settings.key, reportKey));
    const stored = StoredReportSchema.safeParse(row?.value);
    if (!stored.success) return null;
    // Checked against the contract, but kept whole: the contract's parse would drop the fields it
    // does not name (the CLI's per-bucket figures).
    return BacktestReportSchema.safeParse(stored.data.report).success
      ? { serviceDate: stored.data.serviceDate, report: stored.data.report as BacktestReport }
      : null;
  };

  let refreshing: Promise<boolean> | null = null;
  const refresh = async (now: Date): Promise<boolean> => {
    const { serviceDate } = serviceClock(now);
    stored.forget(); // the lease holder decides on what is stored now, not on a minute-old read
    // Today's figure stands, unless its report cannot be read as the contract has it now (stored
    // by an older release): then it is computed again, so the report and its calibration are there.
    if ((await stored.get())?.serviceDate === serviceDate && (await lastReport()) !== null) return false;
    const { accuracy, report } = await compute(serviceDate, now);
    const kept = { serviceDate, report };
    await db.transaction(async (tx) => {
      await tx
        .insert(predictionAccuracy)
        .values({ feed: source, serviceDate, accuracy })
        .onConflictDoUpdate({ target: predictionAccuracy.feed, set: { serviceDate, accuracy } });
      await tx
        .insert(settings)
        .values({ key: reportKey, value: kept, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value: kept, updatedAt: now } });
    });
    stored.forget();
    return true;
  };

  return {
    async get() {
      return (await stored.get())?.accuracy ?? emptyAccuracy(source);
    },
    refresh(now) {
      refreshing ??= refresh(now).finally(() => (refreshing = null));
      return refreshing;
    },
    async report(serviceDate) {
      const last = await lastReport();
      return last?.serviceDate === serviceDate ? last.report : null;
    },
    async rangeCalibration() {
      const calibration = (await lastReport())?.report.rangeCalibration;
      return calibration ? Float64Array.from(calibration) : null;
    },
  };
}

/** The figure before any computation: no days, no dates, no figures. */
function emptyAccuracy(source: FeedSourceName): PredictionAccuracy {
  const none: MethodAccuracy = { etaScore: null, maeSec: null, queries: 0 };
  return {
    source,
    computedAt: null,
    window: { days: 0, firstDate: null, lastDate: null },
    estimate: none,
    dayBefore: none,
    tolerances: TOLERANCES,
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
