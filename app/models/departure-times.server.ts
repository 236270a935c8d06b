/** Loads the expected departure times modal's data from the api (docs/product.md §4.2 Expected times modal). */
import type { AppLoadContext } from '@remix-run/node';
import { getPredictedAll, getPredictedRoute } from '~/models/bus.server';
import { orderRoutes, rangesOf, TIMES_LOAD_FAILED, type RouteFilter, type TimesAnswer } from '~/utils/departure-times';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

/**
 * The times for `route` (all routes, or one), each with its 80 % range (null where none), or the
 * docs/product.md §8 failure message with the HTTP status to answer with: 404 when the api does not know the route, 502 for any other upstream failure
 * (logged; the api's own message is not shown, docs/product.md §8).
 */
export async function loadTimes(
  context: AppLoadContext,
  route: RouteFilter,
): Promise<{ answer: TimesAnswer; status: number }> {
  try {
    if (route === 'all') {
      const { predictedDownTimes, timetableOnly, ranges } = await getPredictedAll(context);
      return { answer: { route, routes: orderRoutes(predictedDownTimes, timetableOnly, ranges) }, status: 200 };
    }
    const { routeNo, predictedDownTimes, timetableOnly = false, ranges } = await getPredictedRoute(context, route);
    const times = { routeNo, times: predictedDownTimes, ranges: rangesOf(predictedDownTimes, ranges), timetableOnly };
    return { answer: { route, routes: [times] }, status: 200 };
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[departure times] upstream failed:', error.message);
    return { answer: { route, message: TIMES_LOAD_FAILED }, status: error.status === 404 ? 404 : 502 };
  }
}
