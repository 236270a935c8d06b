/**
 * The GBIS ids and timetables an admin confirmed on the setup page (docs/gbis.md §Routes and stations):
 * one row, read by the poller before each poll. Env overrides win over it; it wins over the defaults
 * of api/bus/feed/transit-config.ts.
 */
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const gbisConfig = pgTable('gbis_config', {
  /** Always 'current': there is one configuration per deployment. */
  key: text('key').primaryKey(),
  /** The confirmed ids (contract GbisConfigSchema). */
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  /** The admin who saved it ('cli' for `npm run gbis:discover -- --save`). */
  updatedBy: text('updated_by').notNull(),
});
