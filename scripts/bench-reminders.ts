/**
 * Part of `npm run bench`: what pending reminders cost the lease holder (docs/decisions/033-web-push-reminders.md).
 * The scheduler (api/reminders/scheduler.ts) runs on an embedded PGlite database, as the default
 * deployment does (its queries then take this thread's time too), on a test clock, over one
 * simulated hour (08:00–09:00 KST) of the demo feed's snapshots, checking after each 15-s poll as
 * the lease holder does; the pushes go to a loopback push service (tests/setup/push.ts) that
 * answers each after PUSH_DELAY_MS, as a real one over the network would.
 *
 * - Per poll cycle: the time its check takes (ms) with no reminder pending (the baseline) and with
 *   `pending` reminders, set over the hour before 08:00, for the buses of the hour after (both
 *   directions, 3, 5 and 10 minutes): over the cycles that held them pending with none falling due (what holding them
 *   costs), and over all (the cycles where hundreds fall due at once claim them, and the first
 *   reads them all).
 * - The sends: how many went out, the most posted at once (the bound, SEND_CONCURRENCY), and how
 *   many were dropped as too late.
 */
import { openDatabase } from '../api/db/client';
import { pushSubscriptions, reminders } from '../api/db/schema';
import { snapshotAt } from '../api/bus/feed/demo/simulator';
import { busTimesOf, targetOf, type BusTimes } from '../api/reminders/moment';
import { createReminderScheduler } from '../api/reminders/scheduler';
import { ROUTE_NOS } from '../contract/transit';
import { REMINDER_LEAD_MINUTES } from '../contract/reminder-leads';
import { FakeClock } from '../tests/setup/fakes';
import { startPushService, TEST_VAPID } from '../tests/setup/push';

const SEED = 20240604;
const HOUR_START = new Date('2026-11-23T08:00:00+09:00');
const POLL_SEC = 15;
const PUSH_DELAY_MS = 50;
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Median, 95th percentile and max of `values` (ms). */
export type Spread = { medianMs: number; p95Ms: number; maxMs: number };

export type ReminderCycleFigures = {
  pending: number;
  /** The cycles with reminders pending and none due (all cycles of the baseline). */
  quiet: Spread & { cycles: number };
  all: Spread & { cycles: number };
  sent: number;
  dropped: number;
  maxConcurrentSends: number;
};

function spreadOf(values: number[]): Spread & { cycles: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    cycles: sorted.length,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    maxMs: sorted.at(-1) ?? 0,
  };
}

/** Down estimates every 20 minutes from 08:07 for each route, as the day plan's would be. */
function downTimes(): BusTimes['down'] {
  return new Map(
    ROUTE_NOS.map((routeNo, index) => [
      routeNo,
      Array.from({ length: 4 }, (_, k) => ({
        at: new Date(HOUR_START.getTime() + (7 + index * 3 + k * 20) * 60_000),
        plateNo: null,
      })),
    ]),
  );
}

/** One simulated hour of poll cycles with `pending` reminders set at its start. */
async function hourOfCycles(pending: number): Promise<ReminderCycleFigures> {
  const database = await openDatabase({ dataDir: 'memory' });
  const service = await startPushService();
  service.answer(() => ({ status: 201, delayMs: PUSH_DELAY_MS }));
  const clock = new FakeClock(HOUR_START);
  let times: BusTimes = { up: busTimesOf(snapshotAt(SEED, HOUR_START), []).up, down: downTimes() };
  try {
    const aims = ROUTE_NOS.flatMap((routeNo) =>
      (['up', 'down'] as const).flatMap((direction) =>
        REMINDER_LEAD_MINUTES.map((leadMin) => ({ routeNo, direction, leadMin })),
      ),
    ).filter((aim) => targetOf(aim, times, HOUR_START));
    // One browser per three reminders (the most a subscription may have), endpoints on the loopback service.
    const browsers = Array.from({ length: Math.ceil(pending / 3) }, (_, i) => service.subscribe(`b${i}`));
    const subscriptionIds: number[] = [];
    for (let i = 0; i < browsers.length; i += 500) {
      const rows = await database.db
        .insert(pushSubscriptions)
        .values(
          browsers.slice(i, i + 500).map(({ subscription }) => ({
            endpoint: subscription.endpoint,
            ...subscription.keys,
            createdAt: HOUR_START,
          })),
        )
        .returning({ id: pushSubscriptions.id });
      subscriptionIds.push(...rows.map((row) => row.id));
    }
    const rows = Array.from({ length: pending }, (_, i) => {
      const aim = aims[i % aims.length];
      return {
        id: crypto.randomUUID(),
        subscriptionId: subscriptionIds[Math.floor(i / 3)],
        ...aim,
        ...targetOf(aim, times, HOUR_START)!,
        locale: i % 4 === 0 ? ('en' as const) : ('ko' as const),
        // Set over the hour before, as riders set them one by one.
        createdAt: new Date(HOUR_START.getTime() - ((i * 7919) % 3600) * 1000),
      };
    });
    for (let i = 0; i < rows.length; i += 1000) await database.db.insert(reminders).values(rows.slice(i, i + 1000));

    const scheduler = createReminderScheduler({
      db: database.db,
      clock,
      logger: SILENT,
      vapid: TEST_VAPID,
      busTimes: () => times,
      isLeader: () => true,
    });
    const all: number[] = [];
    const quiet: number[] = [];
    let dropped = 0;
    for (let second = POLL_SEC; second <= 3600; second += POLL_SEC) {
      clock.advance(POLL_SEC);
      times = { up: busTimesOf(snapshotAt(SEED, clock.now()), []).up, down: times.down };
      const started = performance.now();
      const counts = await scheduler.check();
      const ms = performance.now() - started;
      all.push(ms);
      if (counts && counts.due === 0 && counts.dropped === 0 && (pending === 0 || counts.pending > 0)) quiet.push(ms);
      dropped += counts?.dropped ?? 0;
      // The cycle's sends finish before the next poll, as they do in the 15 s between two real polls
      // (a claimed reminder is deleted once its push is answered); a simulated hour runs in seconds.
      await scheduler.idle();
    }
    return {
      pending,
      quiet: spreadOf(quiet),
      all: spreadOf(all),
      sent: service.delivered.length,
      dropped,
      maxConcurrentSends: service.maxConcurrent(),
    };
  } finally {
    await service.close();
    await database.close();
  }
}

/** The cycle figures with no reminder pending, then with `pending`. */
export async function reminderCycles(pending = 10_000): Promise<ReminderCycleFigures[]> {
  return [await hourOfCycles(0), await hourOfCycles(pending)];
}
