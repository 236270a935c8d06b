/**
 * Setting and cancelling reminders (docs/decisions/033-web-push-reminders.md): a reminder is stored
 * with its browser's push subscription and the bus it is for (moment.ts targetOf), refused before
 * anything is stored when the subscription's endpoint is not a browser's push service
 * (push-endpoint.ts), when no bus is known far enough ahead, or when the subscription already has
 * MAX_PENDING_REMINDERS pending; a subscription goes with its last pending reminder.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, isNull, sql, TransactionRollbackError } from 'drizzle-orm';
import type { PushSubscriptionJson } from '../../contract/reminders';
import { MAX_PENDING_REMINDERS, type Reminder, type ReminderRequest } from '../../contract/reminders';
import type { Locale } from '../../contract/locales';
import type { Db } from '../db/client';
import { pushSubscriptions, reminders } from '../db/schema';
import { isAllowedPushEndpoint, type PushHost } from './push-endpoint';
import { MATCH_WINDOW_MS, targetOf, type BusTimes } from './moment';
import { isP256Point } from './push';

/**
 * Why a reminder was not set: an endpoint outside the push services, a key that is no P-256 point,
 * no bus of the route known more than its minutes ahead, or too many pending on the subscription.
 */
export type ReminderRefusal = 'bad-endpoint' | 'bad-keys' | 'no-bus' | 'too-many';

/**
 * Sets `request`'s reminder at `now`, in `locale` (its notification's language), for the bus of
 * `times` (the buses of the moment) it is for, posting only to `hosts`. The subscription is stored,
 * or its keys and time renewed when the browser gives it again.
 * @returns the reminder, or why it was refused (nothing stored then).
 */
export async function createReminder(
  db: Db,
  request: ReminderRequest,
  options: { locale: Locale; hosts: readonly PushHost[]; now: Date; times: BusTimes },
): Promise<Reminder | ReminderRefusal> {
  const { subscription, routeNo, direction, leadMin } = request;
  if (!isAllowedPushEndpoint(subscription.endpoint, options.hosts)) return 'bad-endpoint';
  if (!isP256Point(subscription.keys.p256dh)) return 'bad-keys';
  const target = targetOf(request, options.times, options.now);
  if (!target) return 'no-bus';
  const set = db.transaction(async (tx): Promise<Reminder> => {
    // The subscription's row first, stored or renewed: its lock, held until the transaction ends,
    // makes sets at once on one browser (a first one too) count in turn.
    const keys = { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, createdAt: options.now };
    const [{ id: subscriptionId }] = await tx
      .insert(pushSubscriptions)
      .values({ endpoint: subscription.endpoint, ...keys })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: keys })
      .returning({ id: pushSubscriptions.id });
    if ((await pendingOn(tx, subscriptionId)) >= MAX_PENDING_REMINDERS) tx.rollback(); // nothing stored
    const id = randomUUID();
    await tx.insert(reminders).values({
      id,
      subscriptionId,
      routeNo,
      direction,
      leadMin,
      ...target,
      locale: options.locale,
      createdAt: options.now,
    });
    const pendingForMs = target.targetAt.getTime() + MATCH_WINDOW_MS - options.now.getTime();
    return { id, routeNo, direction, leadMin, pendingForSec: Math.ceil(pendingForMs / 1000) };
  });
  return set.catch((error: unknown) => {
    if (error instanceof TransactionRollbackError) return 'too-many' as const;
    throw error;
  });
}

/**
 * Cancels pending reminder `id`, and deletes its subscription when no other reminder is left on it
 * (pending, or on its way: the scheduler deletes it with its last one).
 * @returns false when there is no such pending reminder (sent, expired, cancelled or never set).
 */
export async function cancelReminder(db: Db, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [cancelled] = await tx
      .delete(reminders)
      .where(and(eq(reminders.id, id), isNull(reminders.sentAt)))
      .returning({ subscriptionId: reminders.subscriptionId });
    if (!cancelled) return false;
    await deleteUnusedSubscriptions(tx, [cancelled.subscriptionId]);
    return true;
  });
}

/**
 * Moves the reminders of the subscription at `oldEndpoint` to `subscription`, the one the browser
 * gave in its place (the service worker's `pushsubscriptionchange`), posting only to `hosts`: the
 * old endpoint is forgotten. Knowing the old endpoint (the browser's own secret URL) is what allows it.
 * @returns 'renewed', 'bad-endpoint' (the new one is outside the push services: nothing changes) or
 *   'not-found' (no subscription at `oldEndpoint`: its reminders have all gone).
 */
export async function renewSubscription(
  db: Db,
  oldEndpoint: string,
  subscription: PushSubscriptionJson,
  hosts: readonly PushHost[],
): Promise<'renewed' | 'bad-endpoint' | 'not-found'> {
  if (!isAllowedPushEndpoint(subscription.endpoint, hosts)) return 'bad-endpoint';
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, oldEndpoint))
      .for('update');
    if (!old) return 'not-found';
    const keys = { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth };
    const [current] = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, subscription.endpoint));
    if (current && current.id !== old.id) {
      // The new endpoint is already known (set from another tab): the reminders join it.
      await tx.update(reminders).set({ subscriptionId: current.id }).where(eq(reminders.subscriptionId, old.id));
      await tx.update(pushSubscriptions).set(keys).where(eq(pushSubscriptions.id, current.id));
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, old.id));
    } else {
      await tx
        .update(pushSubscriptions)
        .set({ endpoint: subscription.endpoint, ...keys })
        .where(eq(pushSubscriptions.id, old.id));
    }
    return 'renewed';
  });
}

/** The reminders pending (not yet claimed to send) on subscription `subscriptionId`. */
async function pendingOn(db: Db, subscriptionId: number): Promise<number> {
  const [{ pending }] = await db
    .select({ pending: count() })
    .from(reminders)
    .where(and(eq(reminders.subscriptionId, subscriptionId), isNull(reminders.sentAt)));
  return pending;
}

/**
 * Deletes those of subscriptions `ids` that have no reminder left (pending, or claimed and on its
 * way): a subscription goes with its last reminder, cancelled, dropped or sent.
 */
export async function deleteUnusedSubscriptions(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .delete(pushSubscriptions)
    .where(
      and(
        inArray(pushSubscriptions.id, ids),
        sql`not exists (select 1 from ${reminders} where ${reminders.subscriptionId} = ${pushSubscriptions.id})`,
      ),
    );
}
