/**
 * The privacy policy (app/routes/privacypolicy.tsx 제1조) says the IP address kept for the rate
 * limits is gone within RATE_LIMIT_IP_HOURS of the client's last request. Nothing of ours deletes
 * rate_limits rows: rate-limiter-flexible's RateLimiterDrizzle sweeps them (every 5 minutes it
 * deletes the rows expired more than an hour ago). This holds the library and our limits
 * (api/rate-limit.ts) to that sentence, with a fake clock and fake timers.
 */
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import { RATE_LIMIT_IP_HOURS } from '../../contract/privacy';

import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { rateLimits } from '../db/schema';
import { createRateLimiters } from '../rate-limit';

const LAST_REQUEST = new Date('2026-11-23T10:00:00+09:00');
const IP = '203.0.113.9';
/** rate-limiter-flexible's sweep interval (RateLimiterDrizzle CLEANUP_INTERVAL_MS): 5 minutes. */
const SWEEP_MS = 5 * 60_000;

describe.each(testDatabaseKinds)('rate-limit rows on %s', (kind) => {
  const database = testDatabaseFor(kind);

  afterEach(() => {
    vi.restoreAllMocks();
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  it(`deletes a client's rows of every limit within ${RATE_LIMIT_IP_HOURS} hours of its last request`, async () => {
    const { db } = database();
    vi.useFakeTimers({ now: LAST_REQUEST, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const sweepsArmed = () => armed.mock.calls.filter(([, delay]) => delay === SWEEP_MS).length;
    // Every limiter: a per-client limit is two, the address's and its network's.
    const limiters = Object.values(createRateLimiters(db)).flatMap((limiter) =>
      limiter instanceof RateLimiterDrizzle ? [limiter] : [limiter.address, limiter.network],
    );
    const count = limiters.length;
    expect(sweepsArmed()).toBe(count);
    for (const limiter of limiters) await limiter.consume(IP);
    const keys = async () => (await db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key).sort();
    expect(await keys()).toEqual(limiters.map((limiter) => `${limiter.keyPrefix}:${IP}`).sort());

    for (let elapsed = SWEEP_MS; elapsed < RATE_LIMIT_IP_HOURS * 3_600_000; elapsed += SWEEP_MS) {
      const before = sweepsArmed();
      await vi.advanceTimersByTimeAsync(SWEEP_MS);
      // Each limiter's sweep deletes on the database and only then arms the next one: wait for that.
      await vi.waitFor(() => expect(sweepsArmed()).toBe(before + count), { timeout: 5_000 });
    }
    expect(await keys()).toEqual([]);
  });
});
