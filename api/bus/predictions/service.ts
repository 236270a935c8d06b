/**
 * Serves today's down predictions (day-plan.ts, day-type.ts, live.ts) to every request from memory:
 * the history-based day plan, with the day type today's departures so far follow (observedDayType),
 * is computed in the worker thread (jobs.ts planDay) on the first request of a service date (which
 * awaits it) and recomputed in the
 * background once PLAN_REFRESH_MS have passed (the first request after that starts it, and is
 * answered from the old plan); live evidence comes from the feed's snapshots, pushed to observe()
 * by the feed service (the leader's poller after each good poll, a follower after each reload), so
 * it does not depend on requests. The timetables are those in use (TransitIdsNow, in memory): when
 * they change (a saved setup) the plan is recomputed as when it is due. No database access and no
 * GBIS call per request.
 */
import { setImmediate } from 'node:timers/promises';
import { failureLog } from '../../../lib/failure-log';
import type { Logger } from '../../logger';
import { addServiceDays, serviceClock } from '../../time';
import {
  HISTORY_WINDOW_DAYS,
  PLAN_REFRESH_MS,
  predictDay,
  type ObservedDeparture,
  type RouteDayPlan,
  type RoutePredictions,
} from './day-plan';
import type { PredictionJobs } from './jobs';
import type { ServedPlan } from './worker';
import { applyLiveEvidence, type CrossroadsPassage } from './live';
import type { Calibration } from './spread';
import { locationsReadMs, type FeedSnapshot } from '../../../contract/feed-snapshot';
import { transitIdsNow, type RouteConfig, type TransitIdsNow } from '../feed/transit-config';

/** Observed departures of the running feed whose service dates lie in [fromDate, toDate] (inclusive, "yyyy-MM-dd"). */
export type HistoryLoader = (range: { fromDate: string; toDate: string }) => Promise<ObservedDeparture[]>;

/** Today's predictions as of a request. */
export type TodayPredictions = { serviceDate: string; routes: RoutePredictions[] };

export type PredictionService = {
  /**
   * The predictions of the service date of `now` (KST, serviceClock) with live evidence as of
   * `now`. Awaits the history only for the first request of a service date; a failed history load
   * gives timetable estimates, retried after PLAN_RETRY_MS.
   */
  today(now: Date): Promise<TodayPredictions>;
  /**
   * Like today(), but at once: while the date's history loads (in the background), its estimates
   * are the timetable's and dayBefore / weekBefore are empty. For the timeLeft view.
   */
  todayNow(now: Date): TodayPredictions;
  /** Takes the up buses of a new snapshot as live evidence (older or repeated snapshots are ignored). */
  observe(snapshot: FeedSnapshot): void;
  /**
   * The timetable changes today's plan follows (RouteDayPlan.change), per route that has one, in
   * route order. Awaits the plan as today() does.
   */
  timetableChanges(now: Date): Promise<{ routeNo: string; change: NonNullable<RouteDayPlan['change']> }[]>;
};

/** How soon a failed history load is retried. */
export const PLAN_RETRY_MS = 60_000;
/**
 * A day's plan as served (the routes planned as the day type today's departures so far follow:
 * observedDayType), the routes (and timetables) it was made with, and when to refresh them.
 */
type Cached = {
  plan: ServedPlan;
  routes: readonly RouteConfig[];
  /** How the told spreads are recalibrated (applyLiveEvidence), or null. */
  calibration: Calibration | null;
  refreshAtMs: number;
};

/** A longer gap between two snapshots means buses may have passed the crossroads unseen. */
const MAX_SNAPSHOT_GAP_MS = 10 * 60_000;

/**
 * Two sightings of one vehicle coming to the crossroads further apart than this are two runs (a
 * run takes well over an hour; one run's GBIS arrival prediction moves by minutes).
 */
const NEW_RUN_GAP_MS = 30 * 60_000;

/**
 * A run followed by LiveTracker: when it reaches (or reached) the crossroads, ms, the service date
 * of that instant, and when it left (ms; LiveTracker.observe), set once it is seen leaving: at the
 * location lists' cadence, after the departure itself.
 */
type FollowedRun = { routeNo: string; arrivalMs: number; serviceDate: string; leftAtMs: number | null };

/**
 * Follows the up buses coming to the campus crossroads through successive snapshots, so that a
 * bus keeps its live evidence after it passes there (GBIS then drops it from the arrivals), and
 * keeps the service day's runs once they left (seen on the down line, or taken to have left
 * unseen) so that they still take their runs in applyLiveEvidence. A bus is told by vehId, else plateNo;
 * an arrival with neither is not followed.
 */
export class LiveTracker {
  /** Per "routeNo|vehId": the run the bus is on. */
  private readonly following = new Map<string, FollowedRun>();
  /** Earlier runs of followed buses (their vehicle came again). */
  private earlier: FollowedRun[] = [];
  private lastTakenMs = -Infinity;
  /** Since when snapshots came without a gap longer than MAX_SNAPSHOT_GAP_MS, ms; null before any. */
  private seenSinceMs: number | null = null;
  /** Per routeNo, its latest location read seen (ms). */
  private readonly routeReadMs = new Map<string, number>();

  /**
   * Follows one snapshot (in order). A followed bus first seen on the down line left between its
   * route's previous location read and this one: midway (as the departure detector times it), or
   * at this read when the previous one is more than MAX_SNAPSHOT_GAP_MS before.
   */
  observe(snapshot: FeedSnapshot): void {
    const takenMs = Date.parse(snapshot.takenAt);
    if (takenMs > this.lastTakenMs) this.observeArrivals(snapshot, takenMs);
    const reads = new Map<string, number>();
    for (const { routeNo } of snapshot.vehicles) {
      const readMs = locationsReadMs(snapshot, routeNo);
      if (readMs > (this.routeReadMs.get(routeNo) ?? -Infinity)) reads.set(routeNo, readMs);
    }
    for (const vehicle of snapshot.vehicles) {
      const readMs = reads.get(vehicle.routeNo);
      const run =
        vehicle.section?.direction === 'down' ? this.following.get(`${vehicle.routeNo}|${vehicle.vehId}`) : null;
      if (readMs === undefined || !run || run.leftAtMs !== null) continue;
      const previousMs = this.routeReadMs.get(vehicle.routeNo);
      run.leftAtMs =
        previousMs !== undefined && readMs - previousMs <= MAX_SNAPSHOT_GAP_MS
          ? Math.round((previousMs + readMs) / 2)
          : readMs;
    }
    for (const [routeNo, readMs] of reads) this.routeReadMs.set(routeNo, readMs);
  }

  private observeArrivals(snapshot: FeedSnapshot, takenMs: number): void {
    if (takenMs - this.lastTakenMs > MAX_SNAPSHOT_GAP_MS) this.seenSinceMs = takenMs;
    this.lastTakenMs = takenMs;
    for (const arrival of snapshot.arrivals) {
      const id = arrival.vehId ?? arrival.plateNo;
      if (id === null) continue;
      const key = `${arrival.routeNo}|${id}`;
      const arrivalMs = takenMs + arrival.predictTimeSec * 1000;
      const current = this.following.get(key);
      if (current && (current.leftAtMs !== null || Math.abs(arrivalMs - current.arrivalMs) > NEW_RUN_GAP_MS)) {
        this.earlier.push(current);
      }
      const { serviceDate } = serviceClock(new Date(arrivalMs));
      this.following.set(key, { routeNo: arrival.routeNo, arrivalMs, serviceDate, leftAtMs: null });
    }
  }

  /** The route's runs of `serviceDate` (applyLiveEvidence's passages); forgets those of earlier days. */
  passages(routeNo: string, serviceDate: string): CrossroadsPassage[] {
    this.earlier = this.earlier.filter((run) => run.serviceDate >= serviceDate);
    for (const [key, run] of this.following) if (run.serviceDate < serviceDate) this.following.delete(key);
    return [...this.earlier, ...this.following.values()]
      .filter((run) => run.routeNo === routeNo && run.serviceDate === serviceDate)
      .map((run) => ({ at: new Date(run.arrivalMs), leftAt: run.leftAtMs === null ? null : new Date(run.leftAtMs) }));
  }

  /** Since when snapshots came without a gap (applyLiveEvidence's watchingSince); null before any. */
  watchingSince(): Date | null {
    return this.seenSinceMs === null ? null : new Date(this.seenSinceMs);
  }
}

/**
 * @param options.loadHistory the running feed's stored departures (loadDepartures bound to its
 *   source); the plan of a service date reads its HISTORY_WINDOW_DAYS days before and the date's
 *   own departures so far (observedDayType).
 * @param options.transit the ids in use, whose routes' timetables are planned; default the defaults
 *   of transit-config.ts.
 * @param options.jobs where the day plans are learnt (the worker thread: jobs.ts).
 * @param options.rangeCalibration how the told spreads are recalibrated (the accuracy backtest's,
 *   accuracy.ts), read with each plan; none (the spreads as learnt) unless given.
 */
export function createPredictionService(options: {
  loadHistory: HistoryLoader;
  logger: Logger;
  jobs: Pick<PredictionJobs, 'planDay'>;
  transit?: Pick<TransitIdsNow, 'current'>;
  rangeCalibration?: () => Promise<Calibration | null>;
  /** The admins' restarts of learning: per routeNo, its service date (restarts.ts); none unless given. */
  loadRestarts?: () => Promise<Record<string, string>>;
}): PredictionService {
  const {
    loadHistory,
    logger,
    jobs,
    transit = transitIdsNow(),
    rangeCalibration = async () => null,
    loadRestarts = async () => ({}),
  } = options;
  const live = new LiveTracker();
  let cached: Cached | null = null;
  let loading: { serviceDate: string; routes: readonly RouteConfig[]; plan: Promise<Cached> } | null = null;
  const historyLoad = failureLog(logger, {
    failing: '[predictions] cannot load the departure history; predicting from memory or the timetable',
    recovered: '[predictions] loading the departure history works again.',
  });
  let timetable: { plan: ServedPlan; routes: readonly RouteConfig[] } | null = null;
  const calibrationRead = failureLog(logger, {
    failing: '[predictions] cannot read the range calibration; stating the ranges as learnt',
    recovered: '[predictions] reading the range calibration works again.',
  });

  /** The plan of `serviceDate` without history, on its calendar day type: timetable estimates (computed once per date and routes). */
  const timetableOnly = (serviceDate: string): Pick<Cached, 'plan' | 'calibration'> => {
    const { routes } = transit.current();
    if (timetable?.plan.serviceDate !== serviceDate || timetable.routes !== routes) {
      const { dayType, routes: planned } = predictDay([], serviceDate, routes);
      timetable = { plan: { serviceDate, dayType, routes: planned }, routes };
    }
    return { plan: timetable.plan, calibration: null };
  };

  /**
   * Applies the live evidence to each route of `plan` once, a route per turn of the event loop, as
   * of `nowMs`: that fills the plan's memos (its runs and last match, live.ts; its terminus models'
   * spreads, terminus.ts deviationsGiven) before a request reads them. Run on each new plan and
   * after each snapshot observed: otherwise the first request after either filled them at once on
   * the serving thread, 60–100 ms for a plan learnt from a month's history, 10–40 ms after a poll
   * (`npm run bench:skill`, 2 cores).
   */
  const warm = async (plan: ServedPlan, calibration: Calibration | null, nowMs: number) => {
    for (const route of plan.routes) {
      await setImmediate();
      applyLiveEvidence(
        route,
        live.passages(route.routeNo, plan.serviceDate),
        new Date(nowMs),
        live.watchingSince(),
        calibration,
      );
    }
  };

  /**
   * Computes the plan of `serviceDate` from the days before it, as the day type its own departures
   * so far follow, in the worker thread (jobs.planDay), and caches it, unless a later date's plan
   * is cached meanwhile. Without any history the timetable's plan is made here (cheap).
   */
  const load = async (serviceDate: string, nowMs: number): Promise<Cached> => {
    const { routes } = transit.current();
    let loaded: Cached;
    try {
      const history = await loadHistory({
        fromDate: addServiceDays(serviceDate, -HISTORY_WINDOW_DAYS),
        toDate: serviceDate,
      });
      const restarts = await loadRestarts();
      const plan = history.length
        ? await jobs.planDay({ history, serviceDate, routes, nowMs, restarts })
        : timetableOnly(serviceDate).plan;
      const calibration = await calibrationRead.orNull(rangeCalibration);
      await warm(plan, calibration, nowMs);
      loaded = { plan, routes, calibration, refreshAtMs: nowMs + PLAN_REFRESH_MS };
      historyLoad.ok();
    } catch (error) {
      historyLoad.fail(error);
      const { plan, calibration } =
        cached?.plan.serviceDate === serviceDate && cached.routes === routes ? cached : timetableOnly(serviceDate);
      loaded = { plan, routes, calibration, refreshAtMs: nowMs + PLAN_RETRY_MS };
    }
    if (!cached || cached.plan.serviceDate <= serviceDate) cached = loaded;
    return loaded;
  };

  /** Loads the plan of `serviceDate` with the routes in use, or joins the load of both already under way. */
  const refresh = (serviceDate: string, nowMs: number): Promise<Cached> => {
    const { routes } = transit.current();
    if (loading?.serviceDate === serviceDate && loading.routes === routes) return loading.plan;
    const plan = load(serviceDate, nowMs).finally(() => {
      if (loading?.plan === plan) loading = null;
    });
    loading = { serviceDate, routes, plan };
    return plan;
  };

  /**
   * The cached plan of `serviceDate`, or null when there is none yet; starts its load (or reload,
   * when due or made with other routes than those in use now) in the background. A load's failure
   * reaches the callers awaiting it.
   */
  const cachedPlan = (serviceDate: string, nowMs: number): Cached | null => {
    const current = cached?.plan.serviceDate === serviceDate ? cached : null;
    const due = !current || nowMs >= current.refreshAtMs || current.routes !== transit.current().routes;
    if (due) refresh(serviceDate, nowMs).catch(() => undefined);
    return current;
  };

  /** The plan with live evidence, as the day type today follows (ServedPlan.dayType). */
  const withLive = ({ plan, calibration }: Pick<Cached, 'plan' | 'calibration'>, now: Date): TodayPredictions => ({
    serviceDate: plan.serviceDate,
    routes: plan.routes.map((route) => ({
      routeNo: route.routeNo,
      dayBefore: route.dayBefore,
      weekBefore: route.weekBefore,
      estimate: applyLiveEvidence(
        route,
        live.passages(route.routeNo, plan.serviceDate),
        now,
        live.watchingSince(),
        calibration,
      ),
    })),
  });

  return {
    today: async (now) => {
      const { serviceDate } = serviceClock(now);
      return withLive(cachedPlan(serviceDate, now.getTime()) ?? (await refresh(serviceDate, now.getTime())), now);
    },
    timetableChanges: async (now) => {
      const { serviceDate } = serviceClock(now);
      const { plan } = cachedPlan(serviceDate, now.getTime()) ?? (await refresh(serviceDate, now.getTime()));
      return plan.routes.flatMap(({ routeNo, change }) => (change ? [{ routeNo, change }] : []));
    },
    todayNow: (now) => {
      const { serviceDate } = serviceClock(now);
      return withLive(cachedPlan(serviceDate, now.getTime()) ?? timetableOnly(serviceDate), now);
    },
    observe: (snapshot) => {
      live.observe(snapshot);
      const takenAt = new Date(snapshot.takenAt);
      if (cached?.plan.serviceDate !== serviceClock(takenAt).serviceDate) return;
      const { plan, calibration } = cached;
      warm(plan, calibration, takenAt.getTime()).catch((error: unknown) =>
        logger.error('[predictions] applying the live evidence of a snapshot failed:', error),
      );
    },
  };
}
