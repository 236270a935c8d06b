/**
 * The transactional outbox of e-mail (docs/architecture.md §The data): every e-mail is a row written in
 * the same transaction as the change that causes it, and the lease holder's sender delivers it
 * (api/mail/sender.ts).
 */
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** `pending` until delivered (`sent`) or given up on (`failed`: an SMTP 5xx, or 24 h of retries). */
export type MailStatus = 'pending' | 'sent' | 'failed';

/** What caused an e-mail (api/mail/messages.tsx renders each). */
export type MailKind =
  'application-received' | 'application-admin' | 'approved' | 'rejected' | 'inquiry-admin' | 'inquiry-reply';

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<MailKind>().notNull(),
    /**
     * The record it is about, as the audit log names targets ("ad-request:7", "inquiry:3"): its
     * e-mails go with it when it is deleted on its owner's request.
     */
    about: text('about').notNull(),
    /** RFC 5322 Message-ID, `<random@host>`, kept across retries and resends. */
    messageId: text('message_id').notNull().unique(),
    /** Addresses, already validated. */
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the sender may try it (again); backoff after each transient failure. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** Retries stop here: created (or resent) + 24 h. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The last failure, as the SMTP server or the network said it. */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('mail_outbox_due').on(table.status, table.nextAttemptAt),
    index('mail_outbox_about').on(table.about),
  ],
);
