/**
 * The reminders' scheduler (docs/decisions/033-web-push-reminders.md), run by the poller's lease
 * holder (ADR 003) only, so two instances never send one. It keeps the pending reminders in memory
 * (read whole when it begins to lead, then those set since its last read at each check; one
 * cancelled or deleted meanwhile leaves memory at its moment, when its claim finds it gone), and
 * checks them after every snapshot (kick) and whenever one falls due (its own timer; at least
 * every CHECK_EVERY_MS, which also catches the predictions' own updates):
 * - a reminder whose bus has come or left is dropped (deleted), never sent late;
 * - one whose moment has come is claimed (`sent_at` written, one statement for the round) before
 *   its push is posted, so it is sent at most once across restarts and failover: a crash between the
 *   two loses it. The pushes go out SEND_CONCURRENCY at a time, whatever the number of rounds.
 * A push service's 404/410 deletes the subscription; 429/5xx is retried (MAX_ATTEMPTS posts in
 * all) while its bus is still ahead, after its Retry-After (at least MIN_RETRY_MS; else RETRY_MS);
 * a sent or given-up reminder is deleted, and its subscription with its last one. Each check
 * follows a reminder's bus to where it is now (its time kept in memory), so a moving estimate is
 * followed step by step.
 */
import { and, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locales';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { pushSubscriptions, reminders } from '../db/schema';
import type { Logger } from '../logger';
import { reminderState, TOO_LATE_MS, type BusTimes, type ReminderAim, type ReminderTarget } from './moment';
import { sendPush, type PushOutcome, type VapidKeys } from './push';
import { deleteUnusedSubscriptions } from './store';
import ko from './compiled/ko.js';
import en from './compiled/en.js';

/** The reminders set at most this long (ms) before the last read are read again: a transaction may commit after a later one. */
const READ_OVERLAP_MS = 60_000;
/** The longest (ms) between two checks. */
export const CHECK_EVERY_MS = 15_000;
/** How many pushes are posted at once. */
export const SEND_CONCURRENCY = 8;
/** How long (ms) a retry waits when the push service gave no Retry-After. */
const RETRY_MS = 10_000;
/** The least (ms) a retry waits, whatever Retry-After says (0 would post again at once). */
const MIN_RETRY_MS = 1_000;
/** The most posts of one reminder (the first and its retries). */
const MAX_ATTEMPTS = 4;

/** The catalogs of the notifications (api/reminders/messages/{locale}.json). */
const MESSAGES = { ko, en };

/** A pending reminder as the scheduler holds it. */
type Pending = ReminderAim & ReminderTarget & { id: string; subscriptionId: number; locale: Locale; createdAt: Date };

/** A claimed reminder on its way: its push, and when its bus is (a retry must come before). */
type Claimed = Pending & {
  busAt: Date;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Posts made so far. */
  attempts: number;
};

/** What the page's service worker shows (public/sw-push.js `push`): the notification, and where a tap leads. */
export type ReminderNotification = { title: string; body: string; url: string; tag: string; lang: Locale };

/** The notification of `reminder`, its bus `minutes` away, in its language: the route, the minutes, the stop. */
export function notificationOf(reminder: Pending, minutes: number): ReminderNotification {
  const messages = MESSAGES[reminder.locale];
  const params = { routeNo: reminder.routeNo, minutes };
  return {
    title: messages['reminder.title'](params),
    body: messages[reminder.direction === 'up' ? 'reminder.up' : 'reminder.down'](params),
    url: `/?dir=${reminder.direction}`,
    tag: `reminder-${reminder.id}`,
    lang: reminder.locale,
  };
}

/** What a check did: the reminders it held pending, those it found due (claimed to send) and those it dropped. */
export type CheckCounts = { pending: number; due: number; dropped: number };

export type ReminderScheduler = {
  /**
   * Checks the pending reminders now (rounds never overlap: a call during one runs another after
   * it). @returns what the round did (its passes summed); null when it failed (logged).
   */
  check(): Promise<CheckCounts | null>;
  /** Asks for a check soon: after a snapshot. */
  kick(): void;
  /** Checks now, then as above; returns what stops it. */
  start(): () => void;
  /** Resolves when no push is on its way (each settled, its row written). */
  idle(): Promise<void>;
};

/**
 * @param options.busTimes the buses of the moment (moment.ts liveBusTimes).
 * @param options.isLeader whether this instance holds the bus feed's lease (feed.role() === 'leader').
 * @param options.fetch how pushes are posted (global fetch; tests give theirs).
 */
export function createReminderScheduler(options: {
  db: Db;
  clock: Clock;
  logger: Logger;
  vapid: VapidKeys;
  busTimes: () => BusTimes | Promise<BusTimes>;
  isLeader: () => boolean;
  fetch?: typeof fetch;
}): ReminderScheduler {
  const { db, clock, logger, vapid, busTimes, isLeader } = options;
  const pending = new Map<string, Pending>();
  let readAt: Date | null = null;
  /** The claimed reminders waiting for one of the SEND_CONCURRENCY lanes, and how many lanes are busy. */
  const queue: Claimed[] = [];
  let sending = 0;
  /** The sends under way, settled or not. */
  const inFlight = new Set<Promise<void>>();
  /** The retries waiting for their Retry-After: cancelled by stop(). */
  const retries = new Set<() => void>();
  let cancelTimer = () => {};
  let stopped = true;
  let round: Promise<CheckCounts | null> | null = null;
  let again = false;

  const read = async (now: Date) => {
    const since = readAt && new Date(readAt.getTime() - READ_OVERLAP_MS);
    const rows = await db
      .select({
        id: reminders.id,
        subscriptionId: reminders.subscriptionId,
        routeNo: reminders.routeNo,
        direction: reminders.direction,
        leadMin: reminders.leadMin,
        locale: reminders.locale,
        targetAt: reminders.targetAt,
        plateNo: reminders.plateNo,
        createdAt: reminders.createdAt,
      })
      .from(reminders)
      .where(since ? and(isNull(reminders.sentAt), gte(reminders.createdAt, since)) : isNull(reminders.sentAt));
    // One read again (the overlap) keeps its place in memory: its followed bus time is newer than the row's.
    for (const row of rows) if (!pending.has(row.id)) pending.set(row.id, row);
    readAt = now;
  };

  /** Deletes reminders `ids` if still pending, and the subscriptions left without any. */
  const drop = async (ids: string[]) => {
    if (ids.length === 0) return;
    await db.transaction(async (tx) => {
      const dropped = await tx
        .delete(reminders)
        .where(and(inArray(reminders.id, ids), isNull(reminders.sentAt)))
        .returning({ subscriptionId: reminders.subscriptionId });
      await deleteUnusedSubscriptions(tx, [...new Set(dropped.map((row) => row.subscriptionId))]);
    });
  };

  /** Deletes claimed reminder `reminder` once its push is done with, and its subscription with its last reminder. */
  const finish = async (reminder: Claimed) => {
    await db.transaction(async (tx) => {
      await tx.delete(reminders).where(sql`${reminders.id} = ${reminder.id}`);
      await deleteUnusedSubscriptions(tx, [reminder.subscriptionId]);
    });
  };

  /** Claims `due` (each with its bus time): writes `sent_at` on those still pending, in one statement. @returns those claimed, with their subscriptions. */
  const claim = async (due: { reminder: Pending; busAt: Date }[], now: Date): Promise<Claimed[]> => {
    if (due.length === 0) return [];
    const claimed = await db
      .update(reminders)
      .set({ sentAt: now })
      .where(
        and(
          inArray(
            reminders.id,
            due.map((d) => d.reminder.id),
          ),
          isNull(reminders.sentAt),
        ),
      )
      .returning({ id: reminders.id, subscriptionId: reminders.subscriptionId });
    if (claimed.length === 0) return [];
    // Its subscription now: a renewed one moves its reminders (store.ts renewSubscription).
    const subscriptionOf = new Map(claimed.map((row) => [row.id, row.subscriptionId]));
    const subscriptions = await db
      .select()
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.id, [...new Set(subscriptionOf.values())]));
    const byId = new Map(subscriptions.map((row) => [row.id, row]));
    return due.flatMap(({ reminder, busAt }) => {
      const subscriptionId = subscriptionOf.get(reminder.id);
      const row = subscriptionId === undefined ? undefined : byId.get(subscriptionId);
      if (!row) return [];
      const subscription = { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } };
      return [{ ...reminder, subscriptionId: row.id, busAt, subscription, attempts: 0 }];
    });
  };

  /**
   * Posts `reminder`'s push; on 429/5xx queues it again after the Retry-After while its bus is
   * ahead; else deletes it (or its gone subscription).
   */
  const deliver = async (reminder: Claimed): Promise<void> => {
    const now = clock.now();
    const leftMs = reminder.busAt.getTime() - now.getTime();
    const label = `[reminders] ${reminder.routeNo} ${reminder.direction} ${reminder.leadMin} min`;
    if (leftMs < TOO_LATE_MS) {
      // Its turn came too late (a queue of sends, a retry): dropped, never sent late.
      logger.warn(`${label}: its bus is less than a minute away now; not sent`);
      return finish(reminder);
    }
    const minutes = Math.max(1, Math.round(leftMs / 60_000));
    reminder.attempts++;
    const outcome: PushOutcome = await sendPush(
      reminder.subscription,
      JSON.stringify(notificationOf(reminder, minutes)),
      // The push service keeps it only while it is of use: until its bus is under a minute away.
      { vapid, ttlSec: (leftMs - TOO_LATE_MS) / 1000, fetch: options.fetch },
    );
    if (outcome.kind === 'retry') {
      const waitMs = Math.max(MIN_RETRY_MS, outcome.afterMs ?? RETRY_MS);
      const inTime = clock.now().getTime() + waitMs < reminder.busAt.getTime() - TOO_LATE_MS;
      if (!stopped && inTime && reminder.attempts < MAX_ATTEMPTS) {
        logger.warn(
          `${label}: the push service answered ${outcome.reason}; retrying in ${Math.round(waitMs / 1000)} s`,
        );
        // Queued again then, its lane free meanwhile for the others.
        const cancel = clock.after(waitMs, () => {
          retries.delete(cancel);
          queue.push(reminder);
          pump();
        });
        retries.add(cancel);
        return;
      }
      logger.warn(`${label}: not sent (${outcome.reason}), and no retry is left before its bus`);
    } else if (outcome.kind === 'gone') {
      // The browser withdrew the subscription (or it expired): it and its reminders go.
      await db.delete(pushSubscriptions).where(sql`${pushSubscriptions.id} = ${reminder.subscriptionId}`);
      return;
    } else if (outcome.kind === 'failed') {
      logger.warn(`${label}: refused by the push service (${outcome.reason})`);
    }
    await finish(reminder);
  };

  const runRound = async (): Promise<CheckCounts> => {
    const counts: CheckCounts = { pending: 0, due: 0, dropped: 0 };
    do {
      again = false;
      if (!isLeader()) {
        pending.clear();
        readAt = null;
        // Checks on: the instance may take the lease before its first snapshot (a GBIS outage).
        schedule(CHECK_EVERY_MS);
        return counts;
      }
      const now = clock.now();
      await read(now);
      const times = await busTimes();
      const gone: string[] = [];
      const due: { reminder: Pending; busAt: Date }[] = [];
      let nextMs = now.getTime() + CHECK_EVERY_MS;
      for (const reminder of pending.values()) {
        const state = reminderState(reminder, times, now);
        // Followed as its bus's time moves: the next check matches against where it is now.
        if (state.kind !== 'gone' && state.bus) {
          reminder.targetAt = state.bus.at;
          reminder.plateNo = state.bus.plateNo ?? reminder.plateNo;
        }
        if (state.kind === 'gone') gone.push(reminder.id);
        else if (state.kind === 'due') due.push({ reminder, busAt: state.busAt });
        else if (state.dueAt) nextMs = Math.min(nextMs, state.dueAt.getTime());
      }
      counts.pending += pending.size;
      counts.due += due.length;
      counts.dropped += gone.length;
      for (const id of [...gone, ...due.map((d) => d.reminder.id)]) pending.delete(id);
      await drop(gone);
      const claimed = await claim(due, now);
      schedule(nextMs - now.getTime());
      // Sent in the background: a push service's wait (or a retry's) holds no round back.
      queue.push(...claimed);
      pump();
    } while (again);
    return counts;
  };

  /** Starts the queued sends while fewer than SEND_CONCURRENCY are on their way. */
  const pump = () => {
    while (sending < SEND_CONCURRENCY && queue.length > 0) {
      const reminder = queue.shift()!;
      sending++;
      const sent: Promise<void> = deliver(reminder)
        .catch((error: unknown) =>
          logger.error('[reminders] a sent reminder could not be cleared (the retention job will):', error),
        )
        .finally(() => {
          sending--;
          inFlight.delete(sent);
          pump();
        });
      inFlight.add(sent);
    }
  };

  const schedule = (inMs: number) => {
    cancelTimer();
    if (!stopped) cancelTimer = clock.after(Math.max(0, inMs), () => void check());
  };

  const check = () => {
    if (round) {
      again = true;
      return round;
    }
    round = runRound()
      .catch((error: unknown) => {
        logger.error('[reminders] the check failed:', error);
        // The due ones it took out of memory may not have been claimed: the next check reads all again.
        readAt = null;
        pending.clear();
        schedule(CHECK_EVERY_MS);
        return null;
      })
      .finally(() => {
        round = null;
        // A call that came as the round was ending is answered by a round of its own.
        if (again) void check();
      });
    return round;
  };

  return {
    check,
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    kick: () => void check(),
    start: () => {
      stopped = false;
      void check();
      return () => {
        stopped = true;
        cancelTimer();
        for (const cancel of retries) cancel();
        retries.clear();
        queue.length = 0; // claimed and not posted: lost, as a crash would lose them (at most once)
      };
    },
  };
}
