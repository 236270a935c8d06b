/**
 * Bus operations of the upstream api (docs/product.md §7), one function per call: the public ones,
 * and the admins' feed health and prediction backtest.
 */
import type { AppLoadContext } from '@remix-run/node';
import { BacktestReportSchema, type BacktestReport } from '../../contract/admin';
import {
  AdminFeedStatusSchema,
  TimetableRestartSavedSchema,
  type AdminFeedStatus,
  type TimetableRestart,
} from '../../contract/admin-feed';
import {
  PredictedAllResponseSchema,
  PredictedRouteResponseSchema,
  PredictionAccuracySchema,
  TimeLeftResponseSchema,
  type PredictedAllResponse,
  type PredictedRouteResponse,
  type PredictionAccuracy,
  type TimeLeftResponse,
} from '../../contract/bus';
import { adminHeaders } from '~/models/admin.server';
import { upstreamJson, type UpstreamContext } from '~/models/upstream.server';

/**
 * GET /api/bus/timeLeft: up arrivals, down predictions, vehicles on the progress line and feed freshness.
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export function getTimeLeft(context: UpstreamContext): Promise<TimeLeftResponse> {
  return upstreamJson(context, '/api/bus/timeLeft', TimeLeftResponseSchema);
}

/**
 * GET /api/bus/predicted/all: today's expected departures from the campus per routeNo, ascending
 * KST ISO date-times (docs/product.md §3.3 Predicted times).
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export function getPredictedAll(context: AppLoadContext): Promise<PredictedAllResponse> {
  return upstreamJson(context, '/api/bus/predicted/all', PredictedAllResponseSchema);
}

/**
 * GET /api/bus/predicted/{routeNo}: one route's expected departures today (docs/product.md §3.3 Predicted times).
 * @throws UpstreamError when the api fails or answers off-contract; status 404 for an unknown routeNo.
 */
export function getPredictedRoute(context: AppLoadContext, routeNo: string): Promise<PredictedRouteResponse> {
  return upstreamJson(context, `/api/bus/predicted/${encodeURIComponent(routeNo)}`, PredictedRouteResponseSchema);
}

/**
 * GET /api/bus/accuracy (shown on /faq): how the down predictions did over the last 14 service
 * days (ETA score in percent, MAE in seconds, for the estimate and the day-before baseline); null
 * figures and 0 days when the api has no history yet.
 * @throws UpstreamError when the api fails (503 when it cannot load its history) or answers off-contract.
 */
export function getPredictionAccuracy(context: AppLoadContext): Promise<PredictionAccuracy> {
  return upstreamJson(context, '/api/bus/accuracy', PredictionAccuracySchema);
}

/** GET /api/admin/feed: the bus feed's health with today's upstream calls. @throws UpstreamError. */
export function getFeedStatus(context: AppLoadContext, actor: string): Promise<AdminFeedStatus> {
  return upstreamJson(context, '/api/admin/feed', AdminFeedStatusSchema, { headers: adminHeaders(context, actor) });
}

/**
 * POST /api/admin/timetable-restarts: restarts a route's learning at a date (audited).
 * @returns the api's message. @throws UpstreamError: status 400 with the api's message for a date out of range.
 */
export async function restartTimetableLearning(
  context: AppLoadContext,
  actor: string,
  restart: TimetableRestart,
): Promise<string> {
  const saved = await upstreamJson(context, '/api/admin/timetable-restarts', TimetableRestartSavedSchema, {
    method: 'POST',
    headers: adminHeaders(context, actor),
    json: restart,
  });
  return saved.message;
}

/** GET /api/admin/backtest?days=N: the prediction backtest (CPU-bound: up to a second). @throws UpstreamError. */
export function getBacktest(context: AppLoadContext, actor: string, days: number): Promise<BacktestReport> {
  return upstreamJson(context, `/api/admin/backtest?days=${days}`, BacktestReportSchema, {
    headers: adminHeaders(context, actor),
    timeoutMs: 15_000,
  });
}
