/**
 * Serves today's down predictions (api/bus/predictions.ts) to every request from memory: the
 * history-based day plan is computed once per service date from the stored departures and
 * refreshed every PLAN_REFRESH_MS in the background; live evidence is applied per request from the
 * feed's latest snapshot (BusFeed.current()). No database access and no upstream call per request.
 */
import type { Logger } from '../logger';
import { serviceClock } from '../time';
import type { BusFeed } from './feed-service';
import {
  addServiceDays,
  applyLiveEvidence,
  HISTORY_WINDOW_DAYS,
  predictDay,
  type DayPlan,
  type ObservedDeparture,
  type RoutePredictions,
} from './predictions';
import type { FeedSnapshot } from './snapshot';

/** Observed departures of the running feed whose service dates lie in [fromDate, toDate] (inclusive, "yyyy-MM-dd"). */
export type HistoryLoader = (range: { fromDate: string; toDate: string }) => Promise<ObservedDeparture[]>;

/** Today's predictions as of a request. */
export type TodayPredictions = { serviceDate: string; routes: RoutePredictions[] };

export type PredictionService = {
  /**
   * The predictions of the service date of `now` (KST, serviceClock) with live evidence as of
   * `now`. Awaits the database only for the first request of a service date; never throws (a
   * failed history load gives timetable estimates, retried after PLAN_RETRY_MS).
   */
  today(now: Date): Promise<TodayPredictions>;
};

/** How long a day plan is served before it is recomputed in the background (new departures, a late back-fill). */
export const PLAN_REFRESH_MS = 10 * 60_000;
/** How soon a failed history load is retried. */
export const PLAN_RETRY_MS = 60_000;
/** A longer gap between two snapshots means buses may have passed the crossroads unseen. */
const MAX_SNAPSHOT_GAP_MS = 10 * 60_000;
/** How long past its live departure a bus not seen leaving still counts as waiting, in ms. */
const LIVE_GRACE_MS = 2 * 60_000;

/**
 * Follows the up buses coming to the campus crossroads through successive snapshots, so that a
 * bus keeps its live evidence after it passes there (GBIS then drops it from the arrivals) until
 * it is seen on the down line or its departure is LIVE_GRACE_MS past. A bus is told by vehId, else
 * plateNo; an arrival with neither is not followed.
 */
class LiveTracker {
  /** Per "routeNo|vehId": when the bus reaches (or reached) the crossroads, ms. */
  private readonly buses = new Map<string, { routeNo: string; arrivalMs: number }>();
  private lastTakenMs = -Infinity;
  /** Since when snapshots came without a gap longer than MAX_SNAPSHOT_GAP_MS, ms; null before any. */
  private seenSinceMs: number | null = null;

  observe(snapshot: FeedSnapshot | null): void {
    if (!snapshot) return;
    const takenMs = Date.parse(snapshot.takenAt);
    if (takenMs <= this.lastTakenMs) return;
    if (takenMs - this.lastTakenMs > MAX_SNAPSHOT_GAP_MS) this.seenSinceMs = takenMs;
    this.lastTakenMs = takenMs;
    for (const arrival of snapshot.arrivals) {
      const id = arrival.vehId ?? arrival.plateNo;
      if (id === null) continue;
      this.buses.set(`${arrival.routeNo}|${id}`, {
        routeNo: arrival.routeNo,
        arrivalMs: takenMs + arrival.predictTimeSec * 1000,
      });
    }
    for (const vehicle of snapshot.vehicles) {
      if (vehicle.section?.direction === 'down') this.buses.delete(`${vehicle.routeNo}|${vehicle.vehId}`);
    }
  }

  /** Crossroads arrivals of the route's buses not yet departed as of `now`; forgets those long gone. */
  arrivals(routeNo: string, now: Date, turnaroundSec: number): Date[] {
    const arrivals: Date[] = [];
    for (const [key, bus] of this.buses) {
      if (bus.routeNo !== routeNo) continue;
      if (bus.arrivalMs + turnaroundSec * 1000 + LIVE_GRACE_MS < now.getTime()) this.buses.delete(key);
      else arrivals.push(new Date(bus.arrivalMs));
    }
    return arrivals;
  }

  /** From when every departure of a route is among its arrivals: the first bus seen arrives a turnaround later. */
  coveredFrom(turnaroundSec: number): Date | null {
    return this.seenSinceMs === null ? null : new Date(this.seenSinceMs + turnaroundSec * 1000);
  }
}

/**
 * @param options.loadHistory the running feed's stored departures (loadDepartures bound to its
 *   source); the plan of a service date reads its HISTORY_WINDOW_DAYS days before.
 */
export function createPredictionService(options: {
  loadHistory: HistoryLoader;
  feed: Pick<BusFeed, 'current'>;
  logger: Logger;
}): PredictionService {
  const { loadHistory, feed, logger } = options;
  const live = new LiveTracker();
  let cached: { plan: DayPlan; refreshAtMs: number } | null = null;
  let loading: { serviceDate: string; plan: Promise<DayPlan> } | null = null;
  let failing = false;

  /** Computes the plan of `serviceDate` and caches it, unless a later date's plan is cached meanwhile. */
  const load = async (serviceDate: string, nowMs: number): Promise<DayPlan> => {
    let plan: DayPlan;
    let refreshAtMs: number;
    try {
      const history = await loadHistory({
        fromDate: addServiceDays(serviceDate, -HISTORY_WINDOW_DAYS),
        toDate: addServiceDays(serviceDate, -1),
      });
      plan = predictDay(history, serviceDate);
      refreshAtMs = nowMs + PLAN_REFRESH_MS;
      if (failing) logger.info('[predictions] loading the departure history works again.');
      failing = false;
    } catch (error) {
      if (!failing)
        logger.warn('[predictions] cannot load the departure history; predicting from memory or the timetable', error);
      failing = true;
      plan = cached?.plan.serviceDate === serviceDate ? cached.plan : predictDay([], serviceDate);
      refreshAtMs = nowMs + PLAN_RETRY_MS;
    }
    if (!cached || cached.plan.serviceDate <= serviceDate) cached = { plan, refreshAtMs };
    return plan;
  };

  /** Loads the plan of `serviceDate`, or joins the load already under way. */
  const refresh = (serviceDate: string, nowMs: number): Promise<DayPlan> => {
    if (loading?.serviceDate === serviceDate) return loading.plan;
    const plan = load(serviceDate, nowMs).finally(() => {
      if (loading?.plan === plan) loading = null;
    });
    loading = { serviceDate, plan };
    return plan;
  };

  const planFor = async (now: Date): Promise<DayPlan> => {
    const { serviceDate } = serviceClock(now);
    if (cached?.plan.serviceDate !== serviceDate) return refresh(serviceDate, now.getTime());
    if (now.getTime() >= cached.refreshAtMs) void refresh(serviceDate, now.getTime());
    return cached.plan;
  };

  return {
    today: async (now) => {
      const plan = await planFor(now);
      live.observe(feed.current().snapshot);
      return {
        serviceDate: plan.serviceDate,
        routes: plan.routes.map((route) => ({
          routeNo: route.routeNo,
          dayBefore: route.dayBefore,
          weekBefore: route.weekBefore,
          estimate: applyLiveEvidence(
            route,
            live.arrivals(route.routeNo, now, route.turnaroundSec),
            now,
            live.coveredFrom(route.turnaroundSec),
          ),
        })),
      };
    },
  };
}
