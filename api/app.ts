/**
 * The Campus Bus API (docs/product.md §7), in Hono: one sub-app per resource, errors shaped once in onError.
 * Mounted in-process by server.ts, or served alone by api/main.ts.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ApiContext } from './context';
import { adminRoutes } from './routes/admin';
import { adReviewRoutes } from './routes/ad-review';
import { adStatusRoutes } from './routes/ad-status';
import { adsRoutes } from './routes/ads';
import { uploadRoutes } from './routes/uploads';
import { busRoutes } from './routes/bus';
import { gbisSetupRoutes } from './routes/gbis-setup';
import { healthRoutes } from './routes/health';
import { inquiryRoutes } from './routes/inquiries';
import { reminderRoutes } from './routes/reminders';
import { skillRoutes } from './routes/skill';
import { noticeRoutes } from './routes/notice';
import { timeApiRequests } from './metrics';
import { requestIdOfCall, requestIds } from './request-id';
import { forRequest } from '../lib/observability/request-tag';

/**
 * The most bytes a request body to the api may have (64 KB): every body but an image upload's is a
 * small JSON document (the largest, a chatbot skill request, is a few KB). Refused with 413
 * `{ message }` by its Content-Length, or counted as it streams. The upload PUT reads its image with
 * its own cap, the size its presign declared (api/routes/uploads.ts).
 */
export const API_MAX_BODY_BYTES = 64 * 1024;
const TOO_LARGE = `Request body over ${API_MAX_BODY_BYTES} bytes`;
const jsonBodyLimit = bodyLimit({
  maxSize: API_MAX_BODY_BYTES,
  onError: () => {
    throw new HTTPException(413, { message: TOO_LARGE });
  },
});

/**
 * The api on `context` (built by the composition root, api/compose.ts): its requests timed
 * (api/metrics.ts), the body cap, the route
 * sub-apps and the one error handler; it builds no service. It reads the feed from memory
 * (BusFeed.current) and never calls the bus source itself. Unknown paths answer 404 `{ message }`,
 * unexpected errors 500 `{ message }`.
 */
export function createApi(context: ApiContext) {
  const app = new Hono();
  app.use(timeApiRequests);
  app.use(requestIds);
  app.use((c, next) =>
    c.req.method === 'PUT' && c.req.path.startsWith('/api/uploads/') ? next() : jsonBodyLimit(c, next),
  );
  // An admins' write (the service token's: the notice, ad reviews and edits) may change what every
  // page shows: the next view reads it again. The phones' writes (impressions, clicks) do not.
  app.use(async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('Authorization')) {
      context.pageReads.notice.forget();
      context.pageReads.webAds.forget();
    }
  });
  app.route('/api/bus', busRoutes(context));
  app.route('/api/admin/gbis', gbisSetupRoutes(context));
  app.route('/api/admin', adminRoutes(context));
  app.route('/api/inquiries', inquiryRoutes(context));
  app.route('/api/reminders', reminderRoutes(context));
  app.route('/api/kakao', skillRoutes(context));
  app.route('/api', adsRoutes(context));
  app.route('/api', adReviewRoutes(context));
  app.route('/api', adStatusRoutes(context));
  app.route('/api', uploadRoutes(context));
  app.route('/api', healthRoutes(context));
  app.route('/api', noticeRoutes(context));
  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ message: error.message }, error.status);
    context.logger.error(`[api] ${c.req.method} ${c.req.path}`, error, forRequest(requestIdOfCall(c)));
    return c.json({ message: 'Internal server error' }, 500);
  });
  return app;
}

export type Api = ReturnType<typeof createApi>;
