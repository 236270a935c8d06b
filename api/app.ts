/**
 * The Campus Bus API (spec §7), in Hono: one sub-app per resource, errors shaped once in onError.
 * Mounted in-process by server.ts, or served alone by api/main.ts.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { createAccuracyService } from './bus/accuracy-service';
import { createLiveView } from './bus/live-view';
import { createPredictionService, type HistoryLoader } from './bus/prediction-service';
import type { ApiContext, ApiDeps } from './context';
import { noChatbotAds } from './kakao/ads';
import { createRateLimiters } from './rate-limit';
import { adminRoutes } from './routes/admin';
import { adReviewRoutes } from './routes/ad-review';
import { adsRoutes } from './routes/ads';
import { uploadRoutes } from './routes/uploads';
import { busRoutes } from './routes/bus';
import { healthRoutes } from './routes/health';
import { inquiryRoutes } from './routes/inquiries';
import { kakaoRoutes } from './routes/kakao';
import { noticeRoutes } from './routes/notice';

const noHistory: HistoryLoader = async () => [];

/**
 * Builds the api on its parts; it reads the feed from memory (BusFeed.current) and never calls the
 * bus source itself. Unknown paths answer 404 `{ message }`, unexpected errors 500 `{ message }`.
 */
export function createApi(deps: ApiDeps) {
  const history = deps.history ?? noHistory;
  const predictions = deps.predictions ?? createPredictionService({ loadHistory: history, logger: deps.logger });
  const context: ApiContext = {
    ...deps,
    history,
    predictions,
    liveView: createLiveView({ feed: deps.feed, clock: deps.clock, predictions, logger: deps.logger }),
    accuracy: deps.accuracy ?? createAccuracyService({ loadHistory: history, source: deps.feed.current().source }),
    rateLimiters: createRateLimiters(deps.db),
    kakaoAds: deps.kakaoAds ?? noChatbotAds,
  };
  const app = new Hono();
  app.route('/api/bus', busRoutes(context));
  app.route('/api/admin', adminRoutes(context));
  app.route('/api/inquiries', inquiryRoutes(context));
  app.route('/api/kakao', kakaoRoutes(context));
  app.route('/api', adsRoutes(context));
  app.route('/api', adReviewRoutes(context));
  app.route('/api', uploadRoutes(context));
  app.route('/api', healthRoutes(context));
  app.route('/api', noticeRoutes(context));
  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ message: error.message }, error.status);
    deps.logger.error(`[api] ${c.req.method} ${c.req.path}`, error);
    return c.json({ message: 'Internal server error' }, 500);
  });
  return app;
}

export type Api = ReturnType<typeof createApi>;
