/**
 * The admins' tables (docs/architecture.md §The data): accounts with an Argon2id hash, their sessions (the web
 * keeps only the opaque id in its signed cookie), the audit log of admin actions, and settings (the
 * service notice).
 */
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { Locale } from '../../../contract/locales';
import type { AuditAction } from '../../../contract/admin';

/** Admin accounts: created by `npm run admin:create` or the one-time setup link. */
export const adminUsers = pgTable('admin_users', {
  id: serial('id').primaryKey(),
  /** Lower-case (contract AdminUsernameSchema). */
  username: text('username').notNull().unique(),
  /** Argon2id PHC string (@node-rs/argon2). */
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Admin sessions: signed in until `expiresAt` (12 h), or until signed out or the password is reset
 * (the row is deleted, so a copied cookie is refused). Only the SHA-256 of the id is stored.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('admin_sessions_by_user').on(table.userId)],
);

/** Every admin action, with who, when, and the state before and after (contract AuditEntrySchema). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    actor: text('actor').notNull(),
    action: text('action').$type<AuditAction>().notNull(),
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (table) => [index('audit_log_by_time').on(table.at)],
);

/** Settings by key (JSON values): 'service-notice' (contract ServiceNoticeSchema), 'admin-setup' (the setup token's hash). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** docs/product.md §3.8 Inquiry: content and an optional e-mail (they arrive through POST /api/inquiries). */
export const inquiries = pgTable(
  'inquiries',
  {
    id: serial('id').primaryKey(),
    content: text('content').notNull(),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** An admin's reply, e-mailed to `email` (the inquiry is then replied to); null until then. */
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** The page's language it was sent from ('ko' | 'en'): its reply e-mail's (docs/product.md §1 Languages). */
    locale: text('locale').$type<Locale>().notNull().default('ko'),
  },
  (table) => [index('inquiries_by_time').on(table.createdAt)],
);
