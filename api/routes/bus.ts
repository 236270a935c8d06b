/** Bus routes of spec §7: the timeLeft view and the predicted down departures. */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type { PredictedAllResponse, PredictedRouteResponse } from '../../contract/bus';
import { timeLeftView } from '../bus/time-left';
import { routeByNo } from '../bus/transit-config';
import { toKstIso } from '../time';
import type { ApiContext } from '../app';
import type { Estimate } from '../bus/predictions';

const isoTimes = (estimates: readonly Estimate[]) => estimates.map((estimate) => toKstIso(estimate.at));

export function busRoutes({ feed, clock, predictions }: ApiContext) {
  return new Hono()
    .get('/timeLeft', async (c) => {
      const now = clock.now();
      const today = await predictions.today(now);
      c.header('Cache-Control', 'no-store');
      return c.json(timeLeftView(feed.current(), now, today.routes));
    })
    .get('/predicted/all', async (c) => {
      const today = await predictions.today(clock.now());
      const body: PredictedAllResponse = {
        predictedDownTimes: Object.fromEntries(today.routes.map((route) => [route.routeNo, isoTimes(route.estimate)])),
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    })
    .get(
      '/predicted/:routeNo',
      validator('param', ({ routeNo }) => {
        const route = routeByNo(routeNo);
        if (!route) throw new HTTPException(404, { message: `Unknown routeNo ${routeNo}` });
        return route;
      }),
      async (c) => {
        const { routeNo } = c.req.valid('param');
        const today = await predictions.today(clock.now());
        const body: PredictedRouteResponse = {
          routeNo,
          predictedDownTimes: isoTimes(today.routes.find((route) => route.routeNo === routeNo)?.estimate ?? []),
        };
        c.header('Cache-Control', 'no-store');
        return c.json(body);
      },
    );
}
