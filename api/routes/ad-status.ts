/**
 * The applicant's status page data (ours; docs/product.md §11): GET /api/ads/status/{token}, public
 * (no service token: the token, 32 random bytes, is the secret) and limited per client address.
 * Answers AdStatusSchema (contract/ads.ts) with `Cache-Control: no-store`; a malformed token, or
 * one no stored request carries (never issued, or its request deleted or purged), answers the same
 * 404 `{ message }`.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { adStatus } from '../ads/status';
import type { ApiContext } from '../context';
import { rateLimit } from '../rate-limit';

/** Mounts the status route; needs the database, the clock and the rate limiters. */
export function adStatusRoutes({ db, clock, rateLimiters }: ApiContext) {
  return new Hono().get('/ads/status/:token', rateLimit(rateLimiters.adStatus), async (c) => {
    c.header('Cache-Control', 'no-store');
    const status = await adStatus(db, c.req.param('token'), clock.now());
    if (!status) throw new HTTPException(404, { message: 'No such status page' });
    return c.json(status);
  });
}
