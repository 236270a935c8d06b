/**
 * The database schema (PostgreSQL dialect; the same for PGlite and PostgreSQL). Migrations under
 * drizzle/ are generated from this file with `npm run db:generate`, committed, and applied at start-up.
 */
import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { FeedSnapshot } from '../bus/snapshot';

/**
 * Latest state of each bus feed, written by the lease holder after every poll and read by every
 * api instance (ARCHITECTURE.md, scale-out): the last good snapshot plus the failure state.
 */
export const feedStates = pgTable('feed_states', {
  feed: text('feed').primaryKey(),
  snapshot: jsonb('snapshot').$type<FeedSnapshot>(),
  /** Message of the last failed poll since the last good one; null while healthy. */
  lastError: text('last_error'),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Upstream calls spent per KST day and quota dataset ('arrivals' | 'locations'), so the daily
 * quota (GBIS_DAILY_QUOTA) holds across restarts and instances.
 */
export const upstreamCalls = pgTable(
  'upstream_calls',
  {
    day: text('day').notNull(),
    dataset: text('dataset').notNull(),
    calls: integer('calls').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.dataset] })],
);
