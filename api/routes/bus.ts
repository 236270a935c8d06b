/**
 * Bus routes of docs/product.md §7: the timeLeft view and the predicted down departures. timeLeft never waits
 * for nor fails on the predictions (its down group is then empty); the predicted routes wait for
 * the day's first history load and answer 503 when the predictions fail, and say which routes'
 * times rest on the timetable alone. GET /accuracy serves the public prediction accuracy figure of
 * the down tab and /faq (docs/product.md §11).
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type { PredictedAllResponse, PredictedRouteResponse, PredictionAccuracy } from '../../contract/bus';
import { ROUTE_NOS } from '../../contract/transit';
import { formatKstIso } from '../../contract/kst';
import type { ApiContext } from '../context';
import type { TodayPredictions } from '../bus/predictions/service';
import { rangeOfEstimate, type Estimate, type RoutePredictions } from '../bus/predictions/day-plan';

const isoTimes = (estimates: readonly Estimate[]) => estimates.map((estimate) => formatKstIso(estimate.at));
const ranges = (estimates: readonly Estimate[]) => estimates.map(rangeOfEstimate);

/** Whether a route's estimates rest on the timetable alone (a plan from history has no timetable estimate). */
const isTimetableOnly = (route: RoutePredictions) => route.estimate.some((estimate) => estimate.basis === 'timetable');

/**
 * Mounts GET /timeLeft, /predicted/all, /predicted/:routeNo and /accuracy; needs the clock, logger,
 * predictions, the live view and accuracy. /accuracy answers the figure the lease holder stored
 * (the empty one, computedAt null, before the first) and 503 when it cannot be read.
 */
export function busRoutes({ clock, logger, predictions, liveView, accuracy }: ApiContext) {
  const predictedToday = async (now: Date): Promise<TodayPredictions> => {
    const today = await liveView.predictionsOrNull(() => predictions.today(now));
    if (!today) throw new HTTPException(503, { message: 'Predictions are unavailable right now; try again shortly' });
    return today;
  };

  return new Hono()
    .get('/timeLeft', async (c) => {
      const { view } = await liveView.current();
      c.header('Cache-Control', 'no-store');
      return c.json(view);
    })
    .get('/predicted/all', async (c) => {
      const today = await predictedToday(clock.now());
      const body: PredictedAllResponse = {
        predictedDownTimes: Object.fromEntries(today.routes.map((route) => [route.routeNo, isoTimes(route.estimate)])),
        timetableOnly: today.routes.filter(isTimetableOnly).map((route) => route.routeNo),
        ranges: Object.fromEntries(today.routes.map((route) => [route.routeNo, ranges(route.estimate)])),
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    })
    .get(
      '/predicted/:routeNo',
      validator('param', ({ routeNo }) => {
        if (!(ROUTE_NOS as readonly string[]).includes(routeNo)) {
          throw new HTTPException(404, { message: `Unknown routeNo ${routeNo}` });
        }
        return { routeNo };
      }),
      async (c) => {
        const { routeNo } = c.req.valid('param');
        const today = await predictedToday(clock.now());
        const route = today.routes.find((r) => r.routeNo === routeNo);
        const body: PredictedRouteResponse = {
          routeNo,
          predictedDownTimes: isoTimes(route?.estimate ?? []),
          timetableOnly: route ? isTimetableOnly(route) : false,
          ranges: ranges(route?.estimate ?? []),
        };
        c.header('Cache-Control', 'no-store');
        return c.json(body);
      },
    )
    .get('/accuracy', async (c) => {
      let body: PredictionAccuracy;
      try {
        body = await accuracy.get();
      } catch (error) {
        logger.error('[accuracy] cannot read the stored accuracy figure', error);
        throw new HTTPException(503, { message: 'The prediction accuracy is unavailable right now; try again later' });
      }
      // The figure changes once per service day; before its first computation, ask again soon.
      c.header('Cache-Control', body.computedAt ? 'public, max-age=300' : 'no-store');
      return c.json(body);
    });
}
