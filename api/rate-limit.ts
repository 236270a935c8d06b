/**
 * Per-client rate limits of the api's public writes (rate-limiter-flexible's RateLimiterDrizzle),
 * kept in the database (table rate_limits) so that every api instance sharing it shares the limits.
 *
 * The client is the phone behind the web: the web forwards its address in `X-Forwarded-For`
 * (app/utils/upstream.server.ts). The api is never public (docs/deploy.md §Shapes), so it trusts that header.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from './db/client';
import { rateLimits } from './db/schema';

/** A limit: `points` requests per `durationSec` seconds per client. */
type Limit = { points: number; durationSec: number };

/** The limits of the public writes and the status page look-up (per client IP) and of admin sign-in failures. */
const LIMITS = {
  /**
   * One budget for POST /api/s3/presigned-url/image and POST /api/ads/{type}/submit: each spends a
   * point, so an application costs two (its image and itself). 12 in 10 minutes fits the 5
   * applications adSubmit allows with 2 images uploaded again (an applicant retries an upload a
   * few times at most), and an address that only presigns stores at most 12 × 5 MB = 60 MB per 10
   * minutes, each image gone within 35 minutes unless an application uses it (ADR 018).
   */
  adApplication: { points: 12, durationSec: 10 * 60 },
  /** POST /api/ads/{type}/submit, on top of adApplication: one image may go with several applications. */
  adSubmit: { points: 5, durationSec: 10 * 60 },
  /**
   * POST /api/ads/{id}/clicks, counted or not (a click over it is still answered its link,
   * uncounted). A phone clicks a banner now and then; 30 in 10 minutes leaves room for a few dozen
   * phones behind one campus address, and holds a script that varies its User-Agent to 30 counted
   * clicks per 10 minutes (ADR 018).
   */
  adClick: { points: 30, durationSec: 10 * 60 },
  /**
   * POST /api/ads/{id}/impressions: a browser sends one beacon per ad per KST day (the banner
   * remembers what it reported), so 60 in 10 minutes is a few dozen phones behind one address
   * (ADR 018).
   */
  adImpression: { points: 60, durationSec: 10 * 60 },
  /**
   * GET /api/ads/status/{token}: an applicant opens their status page now and then (and reloads
   * it); 30 in 10 minutes is plenty for that and keeps a script from hammering the look-up.
   */
  adStatus: { points: 30, durationSec: 10 * 60 },
  /**
   * POST /api/inquiries: a person sends one inquiry and perhaps a follow-up or two; 5 in
   * 15 minutes leaves room for that and keeps a script from filling the admins' list.
   */
  inquiry: { points: 5, durationSec: 15 * 60 },
  /**
   * Admin sign-in failures (POST /api/admin/login; api/admin/sign-in-limits.ts) of one username from
   * one client address: a person mistyping stops well before 10, a guesser from one address stops there.
   * A success clears them.
   */
  loginFailsByUsernameAndIp: { points: 10, durationSec: 15 * 60 },
  /** Admin sign-in failures per client address, whatever the usernames (a success gives its point back). */
  loginFailsByIp: { points: 20, durationSec: 15 * 60 },
  /**
   * Admin sign-in failures of one username from every address: past 20 (more than one address can
   * reach alone) each further attempt for it waits before its password is checked, and is never
   * refused, so nobody can lock an admin out.
   */
  loginFailsByUsername: { points: 20, durationSec: 15 * 60 },
  /**
   * GET and POST /api/admin/setup per client address: the first admin opens the link and submits
   * the form a few times at most; a guesser of the setup token gets 10 tries per 15 minutes.
   */
  adminSetup: { points: 10, durationSec: 15 * 60 },
  /**
   * Chatbot skill calls with a missing or wrong X-Kakao-Skill-Secret, per client IP. Open
   * Builder's own calls carry the secret and are never counted, so the bot is never slowed.
   */
  skillSecretFailures: { points: 20, durationSec: 15 * 60 },
} as const satisfies Record<string, Limit>;

export type RateLimiters = Record<keyof typeof LIMITS, RateLimiterDrizzle>;

/** One limiter per entry of LIMITS on the database's rate_limits table. */
export function createRateLimiters(db: Db): RateLimiters {
  const limiter = (name: keyof typeof LIMITS) =>
    new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: name,
      points: LIMITS[name].points,
      duration: LIMITS[name].durationSec,
    });
  return {
    adApplication: limiter('adApplication'),
    adSubmit: limiter('adSubmit'),
    adClick: limiter('adClick'),
    adImpression: limiter('adImpression'),
    adStatus: limiter('adStatus'),
    inquiry: limiter('inquiry'),
    loginFailsByUsernameAndIp: limiter('loginFailsByUsernameAndIp'),
    loginFailsByIp: limiter('loginFailsByIp'),
    loginFailsByUsername: limiter('loginFailsByUsername'),
    adminSetup: limiter('adminSetup'),
    skillSecretFailures: limiter('skillSecretFailures'),
  };
}

/** The client's address as the web forwarded it (the first `X-Forwarded-For` entry); 'unknown' without one. */
export function clientIp(c: Context): string {
  return c.req.header('X-Forwarded-For')?.split(',')[0].trim() || 'unknown';
}

/**
 * Spends one point of `limiter` for `key`, the one way every limit and mark here is spent.
 * @returns the counter's state (rate-limiter-flexible's RateLimiterRes), and whether `key` is now
 *   over the limit (the library's rejection, read as a value).
 * @throws what the store throws (a database that cannot be reached or written).
 */
export async function spendKey(
  limiter: RateLimiterDrizzle,
  key: string,
): Promise<{ res: RateLimiterRes; over: boolean }> {
  try {
    return { res: await limiter.consume(key), over: false };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { res: rejection, over: true };
  }
}

/**
 * Spends one point of `limiter` for the client's IP.
 * @throws HTTPException 429 `{ message }` with Retry-After (seconds) once the client is over the limit.
 */
export async function consumeRateLimit(c: Context, limiter: RateLimiterDrizzle): Promise<void> {
  const { res, over } = await spendKey(limiter, clientIp(c));
  if (!over) return;
  c.header('Retry-After', String(Math.ceil(res.msBeforeNext / 1000)));
  throw new HTTPException(429, { message: 'Too many requests; try again later' });
}

/**
 * Spends one point of `limiter` for the client's IP, for a request that is answered either way
 * (a click's redirect): counting is best-effort, the answer is not.
 * @returns false once the client is over the limit (nothing thrown, no header set).
 */
export async function withinLimit(c: Context, limiter: RateLimiterDrizzle): Promise<boolean> {
  return !(await spendKey(limiter, clientIp(c))).over;
}

/** Hono middleware spending one point of `limiter` per request for the client's IP (consumeRateLimit). */
export function rateLimit(limiter: RateLimiterDrizzle): MiddlewareHandler {
  return async (c, next) => {
    await consumeRateLimit(c, limiter);
    await next();
  };
}
