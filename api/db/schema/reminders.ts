/**
 * Reminders by Web Push (docs/decisions/033-web-push-reminders.md): the browsers' push subscriptions
 * and the one-shot reminders set on them. A subscription is personal data: it goes when it has no
 * pending reminder, and at most 24 h after it was given (the retention job).
 */
import { isNull } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { Locale } from '../../../contract/locales';
import type { Direction, RouteNo } from '../../../contract/transit';

/** A browser's push subscription (PushSubscription.toJSON()): its push service URL and payload keys (RFC 8291). */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: serial('id').primaryKey(),
  /** A push service URL the endpoint check allowed (api/reminders/push-endpoint.ts). */
  endpoint: text('endpoint').notNull().unique(),
  /** The browser's P-256 public key, base64url. */
  p256dh: text('p256dh').notNull(),
  /** The 16-byte authentication secret, base64url. */
  auth: text('auth').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * A reminder: notify `subscriptionId` when the bus it was set for (`targetAt`, `plateNo`) is
 * `leadMin` minutes away (up: from the campus stop; down: from its predicted departure), in
 * `locale` (api/reminders/moment.ts). One-shot:
 * `sentAt` is written in the transaction that claims it, before the push is sent, so it is sent at
 * most once; a sent or expired reminder is then deleted.
 */
export const reminders = pgTable(
  'reminders',
  {
    /** A random UUID: the page's handle for DELETE /reminders/{id}. */
    id: text('id').primaryKey(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    routeNo: text('route_no').$type<RouteNo>().notNull(),
    direction: text('direction').$type<Direction>().notNull(),
    /** Minutes: 3, 5 or 10 (contract REMINDER_LEAD_MINUTES). */
    leadMin: integer('lead_min').notNull(),
    /** The language of the page it was set on: its notification's. */
    locale: text('locale').$type<Locale>().notNull(),
    /**
     * The bus it was set for, as known then: up, its arrival at the campus stop (snapshot's takenAt +
     * GBIS predictTimeSec); down, its predicted departure from the campus terminus (the estimate).
     */
    targetAt: timestamp('target_at', { withTimezone: true }).notNull(),
    /** Up: that bus's plate (GBIS plateNo), which it is followed by; null down, or when GBIS gave none. */
    plateNo: text('plate_no'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When the lease holder claimed it to send; null while pending. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('reminders_by_subscription').on(table.subscriptionId),
    // The lease holder's reads of the pending ones set since its last read (api/reminders/scheduler.ts).
    index('reminders_pending_by_creation').on(table.createdAt).where(isNull(table.sentAt)),
  ],
);
