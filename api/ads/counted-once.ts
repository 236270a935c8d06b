/**
 * An ad's impression and click count at most once per client per KST day (ADR 018): advertisers
 * are shown these figures, and a page reloaded or a link fetched 500 times is one person. The
 * client is the phone's address key (one spelling per address, an IPv6 /64 as one; ADR 027) with
 * its User-Agent (two phones behind one campus address mostly differ in it); a mark of "counted
 * today" is kept in rate_limits (rate-limiter-flexible's RateLimiterDrizzle, one point per key), so
 * every api instance on the database shares the marks.
 *
 * A mark holds no address: its key is an HMAC of the address, the User-Agent and the day, under a
 * key derived from API_SERVICE_TOKEN (else random per process, so a restart may count a client
 * once more that day). A mark lives 24 hours (its day is in its key) and rate-limiter-flexible's
 * sweep deletes it within the hour after.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { spendKey } from '../rate-limit';
import type { AdCounter } from './counters';

/**
 * Who sent a count: the phone's address key (X-Forwarded-For normalised, an IPv6 one cut to its
 * /64: api/rate-limit.ts clientKeys) and User-Agent, as the web forwards them.
 */
export type CountingClient = { address: string; userAgent: string };

/**
 * Decides whether `client`'s `counter` of ad `adId` on KST day `day` ("yyyy-MM-dd") is its first,
 * and marks it counted.
 * @returns true the first time, false after.
 * @throws what the database throws.
 */
export type CountedOnce = (counter: AdCounter, adId: number, day: string, client: CountingClient) => Promise<boolean>;

/** A mark outlives the KST day in its key (24 hours, in seconds). */
const MARK_DURATION_SEC = 24 * 60 * 60;

/**
 * The marks on `db`'s rate_limits table (keys `adCounted:<counter>:<ad id>:<day>:<client mark>`).
 * @param secret API_SERVICE_TOKEN, shared by every api instance; absent → a random key of this process.
 */
export function createCountedOnce(db: Db, secret?: string): CountedOnce {
  const markKey = secret ? createHmac('sha256', secret).update('campus-bus ad count marks').digest() : randomBytes(32);
  const marks = new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: 'adCounted',
    points: 1,
    duration: MARK_DURATION_SEC,
  });
  return async (counter, adId, day, client) => {
    const mark = clientMark(markKey, day, client);
    return !(await spendKey(marks, `${counter}:${adId}:${day}:${mark}`)).over;
  };
}

/**
 * The pseudonym of `client` on KST day `day`: HMAC-SHA256 over the day, the address and the
 * User-Agent under `key`, 128 bits in base64url. Another day gives another mark, so marks cannot be
 * followed from day to day.
 */
function clientMark(key: Uint8Array, day: string, client: CountingClient): string {
  return createHmac('sha256', key)
    .update([day, client.address, client.userAgent].join('\n'))
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
