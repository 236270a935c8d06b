/**
 * The predictions' CPU-heavy jobs, each a named export run in the api's worker thread
 * (api/worker-pool.ts; built as build/predictions-worker.js) through PredictionJobs (jobs.ts), so
 * that the serving thread only reads their inputs from the database and writes their results
 * (docs/architecture.md §Work off the serving thread). Pure: plain data in, plain data out (the
 * thread boundary structured-clones both).
 */
import { addServiceDays } from '../../time';
import { planDay as simulatedRuns } from '../feed/demo/simulator';
import { FREE_POLL_SEC } from '../feed/poll-plan';
import type { RouteConfig } from '../feed/transit-config';
import type { DayType } from '../../../contract/transit';
import { backtest as runBacktest, type BacktestReport, type Cadence } from './backtest';
import { predictDay, type ObservedDeparture, type RouteDayPlan } from './day-plan';
import { observedDayType } from './day-type';
import type { DepartureRecord } from './departures/detector';

/**
 * The backtest (backtest.ts) of the `days` service dates before `before` ("yyyy-MM-dd", KST) over
 * `history`, scoring `routes`: ~50–130 ms of CPU per date on a 2-core machine.
 */
export function backtest(input: {
  history: readonly ObservedDeparture[];
  days: number;
  before: string;
  routes: readonly RouteConfig[];
  cadence: Cadence;
}): Promise<BacktestReport> {
  const { history, ...options } = input;
  return runBacktest(history, options);
}

/** A service date's plan as the prediction service serves it: the routes planned as the day type it follows. */
export type ServedPlan = {
  /** "yyyy-MM-dd", KST. */
  serviceDate: string;
  /** The day type the date's departures so far follow (observedDayType), as of `nowMs`. */
  dayType: DayType;
  /** Each route's plan for that day type, in the order of the routes planned, its terminus model learnt. */
  routes: RouteDayPlan[];
};

/**
 * Plans `serviceDate` from `history` (predictDay: its HISTORY_WINDOW_DAYS days before, and the
 * date's own departures so far for observedDayType at `nowMs`, epoch ms) for `routes`, as the day
 * type it follows. Each route's terminus model, otherwise learnt on first use, is learnt here, so
 * that the serving thread only reads it.
 */
export function planDay(input: {
  history: readonly ObservedDeparture[];
  serviceDate: string;
  routes: readonly RouteConfig[];
  nowMs: number;
  /** The admins' restarts of learning per routeNo (predictDay). */
  restarts?: Readonly<Record<string, string>>;
}): ServedPlan {
  const { history, serviceDate, routes, nowMs, restarts } = input;
  const plan = predictDay(history, serviceDate, routes, restarts);
  const today = history.filter((departure) => departure.serviceDate === serviceDate);
  const dayType = observedDayType(plan, today, new Date(nowMs));
  // A spread reads the terminus getter, so the model crosses the thread learnt.
  return { serviceDate, dayType, routes: plan.planAs(dayType).map((route) => ({ ...route })) };
}

/**
 * The demo feed's history of the `days` service dates before `today` ("yyyy-MM-dd", KST), as the
 * simulator (planDay with `seed`) runs them, oldest first: departedAt = the run's departure,
 * arrivedAt = its time at the campus crossroads (UP_STOPS[0]), gapSec = FREE_POLL_SEC (the demo's
 * poll interval), backfilled true. About 200 departures a day.
 */
export function demoHistory(input: { seed: number; today: string; days: number }): DepartureRecord[] {
  const { seed, today, days } = input;
  const records: DepartureRecord[] = [];
  for (let back = days; back >= 1; back -= 1) {
    for (const run of simulatedRuns(seed, addServiceDays(today, -back))) {
      records.push({
        source: 'demo',
        routeNo: run.routeNo,
        vehId: run.vehicle.vehId,
        serviceDate: run.serviceDate,
        departedAt: run.departure,
        gapSec: FREE_POLL_SEC,
        arrivedAt: run.upStops[0],
        backfilled: true,
      });
    }
  }
  return records;
}
