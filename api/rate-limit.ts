/**
 * Per-client rate limits of the api's public writes (rate-limiter-flexible's RateLimiterDrizzle),
 * kept in the database (table rate_limits) so that every api instance sharing it shares the limits.
 *
 * The client is the phone behind the web: the web forwards its address in `X-Forwarded-For`
 * (app/models/upstream.server.ts). The api is never public (docs/deploy.md §Shapes), so it trusts that header.
 * Every limit keys on that address normalised, an IPv6 one cut to its /64, and has a wider twin on
 * the address's network (IPv4 /24, IPv6 /48) with NETWORK_SHARE times its points
 * (lib/client-address.ts, ADR 027).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimitRefusals } from '../lib/observability/metrics';
import { clientKeysOf, type ClientKeys } from '../lib/client-address';
import type { Db } from './db/client';
import { rateLimits } from './db/schema';

/** A limit: `points` requests per `durationSec` seconds per key. */
type Limit = { points: number; durationSec: number };

/**
 * How many addresses' worth of points a network (IPv4 /24, IPv6 /48) gets in each per-client limit:
 * a campus NAT pool, or a carrier's /48 of phones each on its own /64, stays within it at this
 * site's traffic (about 200 people a day), while a script that moves across a /48's /64s or a
 * /24's addresses spends one budget, 16 addresses' worth, instead of thousands (ADR 027).
 */
export const NETWORK_SHARE = 16;

/**
 * The per-client limits (per client address key, and NETWORK_SHARE times as many per network key):
 * the public writes, the status page look-up, admin sign-in failures per address, the setup page and
 * the chatbot skill's failed secrets.
 */
const CLIENT_LIMITS = {
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
   * POST and DELETE /api/reminders: a rider sets a reminder or three and cancels one now and then;
   * 20 in 10 minutes leaves room for a few phones behind one address and keeps a script from
   * filling the table (docs/decisions/033-web-push-reminders.md).
   */
  reminder: { points: 20, durationSec: 10 * 60 },
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

/**
 * The admin sign-in counters (api/admin/sign-in-limits.ts): none has a network twin, since a limit
 * that refuses a whole /24 or /48 would let one neighbour lock an admin out.
 */
const SIGN_IN_LIMITS = {
  /**
   * Admin sign-in failures per client address key (an IPv6 /64), whatever the usernames (a success
   * gives its point back).
   */
  loginFailsByIp: { points: 20, durationSec: 15 * 60 },
  /**
   * Admin sign-in failures (POST /api/admin/login) of one username from one client address: a person
   * mistyping stops well before 10, a guesser from one address stops there. A success clears them.
   */
  loginFailsByUsernameAndIp: { points: 10, durationSec: 15 * 60 },
  /**
   * Admin sign-in failures of one username from every address: past 20 (more than one address can
   * reach alone) each further attempt for it waits before its password is checked, and is never
   * refused, so nobody can lock an admin out.
   */
  loginFailsByUsername: { points: 20, durationSec: 15 * 60 },
} as const satisfies Record<string, Limit>;

/** A per-client limit: the budget of the client's address key, and the wider one of its network key. */
export type ClientLimiter = { address: RateLimiterDrizzle; network: RateLimiterDrizzle };

export type RateLimiters = Record<keyof typeof CLIENT_LIMITS, ClientLimiter> &
  Record<keyof typeof SIGN_IN_LIMITS, RateLimiterDrizzle>;

/**
 * The limiters on the database's rate_limits table: a ClientLimiter per entry of CLIENT_LIMITS (keys
 * `<name>:<address key>` and `<name>ByNetwork:<network key>`), a limiter per entry of SIGN_IN_LIMITS.
 */
export function createRateLimiters(db: Db): RateLimiters {
  const limiter = (keyPrefix: string, { points, durationSec }: Limit) =>
    new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix, points, duration: durationSec });
  const perClient = (name: keyof typeof CLIENT_LIMITS): ClientLimiter => {
    const limit = CLIENT_LIMITS[name];
    return {
      address: limiter(name, limit),
      network: limiter(`${name}ByNetwork`, { ...limit, points: limit.points * NETWORK_SHARE }),
    };
  };
  return {
    adApplication: perClient('adApplication'),
    adSubmit: perClient('adSubmit'),
    adClick: perClient('adClick'),
    adImpression: perClient('adImpression'),
    adStatus: perClient('adStatus'),
    inquiry: perClient('inquiry'),
    reminder: perClient('reminder'),
    adminSetup: perClient('adminSetup'),
    skillSecretFailures: perClient('skillSecretFailures'),
    loginFailsByIp: limiter('loginFailsByIp', SIGN_IN_LIMITS.loginFailsByIp),
    loginFailsByUsernameAndIp: limiter('loginFailsByUsernameAndIp', SIGN_IN_LIMITS.loginFailsByUsernameAndIp),
    loginFailsByUsername: limiter('loginFailsByUsername', SIGN_IN_LIMITS.loginFailsByUsername),
  };
}

/**
 * The client as every limit, mark and upload quota of the api sees it: the first `X-Forwarded-For`
 * entry (the web's req.ip) normalised and keyed (lib/client-address.ts clientKeysOf; 'unknown'
 * without an IP address there).
 */
export function clientKeys(c: Context): ClientKeys {
  return clientKeysOf(c.req.header('X-Forwarded-For')?.split(',')[0]);
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
 * Spends one point of the client's address key, then, unless that is over, one of its network key:
 * an address over its own limit spends nothing more of its neighbours' budget.
 * @returns the state of the last counter spent, and whether the client is over either limit.
 * @throws what the store throws.
 */
export async function spendClient(
  limiter: ClientLimiter,
  client: ClientKeys,
): Promise<{ res: RateLimiterRes; over: boolean }> {
  const address = await spendKey(limiter.address, client.address);
  const spent = address.over ? address : await spendKey(limiter.network, client.network);
  if (spent.over) rateLimitRefusals.inc({ limiter: limiter.address.keyPrefix });
  return spent;
}

/**
 * Spends one point of `limiter` for the client (spendClient).
 * @throws HTTPException 429 `{ message }` with Retry-After (seconds) once the client is over the limit.
 */
export async function consumeRateLimit(c: Context, limiter: ClientLimiter): Promise<void> {
  const { res, over } = await spendClient(limiter, clientKeys(c));
  if (!over) return;
  c.header('Retry-After', String(Math.ceil(res.msBeforeNext / 1000)));
  throw new HTTPException(429, { message: 'Too many requests; try again later' });
}

/**
 * Spends one point of `limiter` for the client (spendClient), for a request that is answered either
 * way (a click's redirect): counting is best-effort, the answer is not.
 * @returns false once the client is over the limit (nothing thrown, no header set).
 */
export async function withinLimit(c: Context, limiter: ClientLimiter): Promise<boolean> {
  return !(await spendClient(limiter, clientKeys(c))).over;
}

/** Hono middleware spending one point of `limiter` per request for the client (consumeRateLimit). */
export function rateLimit(limiter: ClientLimiter): MiddlewareHandler {
  return async (c, next) => {
    await consumeRateLimit(c, limiter);
    await next();
  };
}
