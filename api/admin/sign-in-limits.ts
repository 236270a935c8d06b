/**
 * The admin sign-in limits (README "Sessions and sign-in limits"), after the OWASP Authentication
 * Cheat Sheet (login throttling without a lockout anyone can cause) and rate-limiter-flexible's
 * login protection example (failures counted per username and address, and per address; a success
 * deletes the pair's count). Counters on the database's rate_limits table (api/rate-limit.ts),
 * so every api instance shares them, each over 15 minutes; an address is the client's address key
 * (its IPv6 /64; lib/client-address.ts):
 *
 * - failures of one username from one address: past its limit that address gets 429 for that username;
 * - failures from one address, whatever the usernames: past its limit that address gets 429 (no
 *   network-wide limit: one neighbour in a /24 could then lock an admin out);
 * - failures of one username from everywhere: past its ceiling each further attempt for that
 *   username waits (slowDownMs) before its password is checked, but is never refused, so wrong
 *   passwords sent from elsewhere cannot lock an admin out.
 *
 * Only failures count. An attempt reserves its point of each counter before the password is
 * checked and gives it back when the password was right: a read of the counters before and a
 * write after would let a burst of parallel attempts all pass the read, while the reservation is
 * one atomic upsert per counter, so a burst gets exactly the limit's worth of checks.
 */
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { ClientKeys } from '../../lib/client-address';
import { spendKey, type RateLimiters } from '../rate-limit';
import { rateLimitRefusals } from '../../lib/observability/metrics';

/** The wait of the first attempt past the username's ceiling, in milliseconds; it doubles with each further one. */
export const SLOW_DOWN_FIRST_MS = 250;
/**
 * The longest wait, in milliseconds: the web gives the api 5 s to answer (docs/product.md §7,
 * app/models/upstream.server.ts UPSTREAM_TIMEOUT_MS), and the password check comes after the wait.
 */
export const SLOW_DOWN_MAX_MS = 3000;

/** The counters a sign-in spends (api/rate-limit.ts LIMITS). */
export type SignInLimiters = Pick<
  RateLimiters,
  'loginFailsByUsernameAndIp' | 'loginFailsByIp' | 'loginFailsByUsername'
>;

/**
 * A reserved attempt: refused (the client waits `retryAfterSec` seconds before a new window), or
 * allowed after `delayMs` milliseconds; call `succeeded` once the password was right.
 */
export type SignInAttempt =
  { refused: true; retryAfterSec: number } | { refused: false; delayMs: number; succeeded: () => Promise<void> };

/**
 * How long, in milliseconds, an attempt waits that makes `failures` of its username in the window
 * (itself included) against a ceiling of `ceiling`: nothing up to the ceiling, then
 * SLOW_DOWN_FIRST_MS doubling with each attempt, at most SLOW_DOWN_MAX_MS.
 */
export function slowDownMs(failures: number, ceiling: number): number {
  if (failures <= ceiling) return 0;
  return Math.min(SLOW_DOWN_MAX_MS, SLOW_DOWN_FIRST_MS * 2 ** Math.min(failures - ceiling - 1, 16));
}

/**
 * Reserves a failure of each counter for a sign-in of `username` (as the api reads it, lower-cased)
 * from `client` (api/rate-limit.ts clientKeys), before its password is checked. A refused attempt checks nothing and
 * counts nowhere but on the counter already over its limit (which changes nothing in that window:
 * the window runs from its first failure); an allowed one keeps its points unless `succeeded` gives
 * them back and clears the username's failures from that address.
 * @throws what the database throws (then the points taken so far stay spent, like a failure).
 */
export async function reserveSignInAttempt(
  limiters: SignInLimiters,
  username: string,
  client: ClientKeys,
): Promise<SignInAttempt> {
  // JSON keeps the pair unambiguous whatever characters the username or the address carry.
  const pairKey = JSON.stringify([username, client.address]);
  const pair = await spendKey(limiters.loginFailsByUsernameAndIp, pairKey);
  if (pair.over) {
    rateLimitRefusals.inc({ limiter: limiters.loginFailsByUsernameAndIp.keyPrefix });
    return { refused: true, retryAfterSec: retryAfterSec(pair.res) };
  }
  const address = await spendKey(limiters.loginFailsByIp, client.address);
  if (address.over) {
    rateLimitRefusals.inc({ limiter: limiters.loginFailsByIp.keyPrefix });
    await limiters.loginFailsByUsernameAndIp.reward(pairKey);
    return { refused: true, retryAfterSec: retryAfterSec(address.res) };
  }
  const everywhere = await spendKey(limiters.loginFailsByUsername, username);
  return {
    refused: false,
    delayMs: slowDownMs(everywhere.res.consumedPoints, limiters.loginFailsByUsername.points),
    succeeded: async () => {
      // NOTE: a reward that lands after its window ended starts the next window at -1: one failure
      // more for that window, which is not worth a transaction.
      await Promise.all([
        limiters.loginFailsByUsernameAndIp.delete(pairKey),
        limiters.loginFailsByIp.reward(client.address),
        limiters.loginFailsByUsername.reward(username),
      ]);
    },
  };
}

/** Whole seconds until the counter's window ends, at least 1 (Retry-After). */
function retryAfterSec(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}
