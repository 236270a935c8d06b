/** The bus feed's tables: feed states, the GBIS call budget and the observed departures. */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';
import type { PredictionAccuracy } from '../../../contract/bus';

/**
 * Latest state of each bus feed, written by the lease holder after every poll and read by every
 * api instance (docs/deploy.md §The poller lease on failover): the last good snapshot plus the failure state.
 */
export const feedStates = pgTable('feed_states', {
  feed: text('feed').primaryKey(),
  snapshot: jsonb('snapshot').$type<FeedSnapshot>(),
  /** Message of the last failed poll since the last good one; null while healthy. */
  lastError: text('last_error'),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** When the poller means to poll next; past it (plus a grace) the snapshot is stale even without an error. */
  nextPollAt: timestamp('next_poll_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * GBIS calls spent per KST day and quota dataset ('arrivals' | 'locations'), so the daily
 * quota (GBIS_DAILY_QUOTA) holds across restarts and instances.
 */
export const gbisCalls = pgTable(
  'upstream_calls',
  {
    day: text('day').notNull(),
    dataset: text('dataset').notNull(),
    calls: integer('calls').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.dataset] })],
);

/**
 * Observed departures from the down terminus (DOWN_STOPS[0]), one per vehicle run: the down
 * direction's evidence. `departedAt` is the best estimate between the last observation before leaving and
 * the first after; `gapSec` (the time between those observations) is its uncertainty.
 * Unique per (source, route, vehicle, departedAt), so re-processing the same snapshots stores nothing twice.
 */
export const departures = pgTable(
  'departures',
  {
    id: serial('id').primaryKey(),
    /** The feed that observed it: 'demo' or 'gbis'. Predictions use only the running feed's history. */
    source: text('source').notNull(),
    routeNo: text('route_no').notNull(),
    vehId: text('veh_id').notNull(),
    /** KST service day ("yyyy-MM-dd"; 00:00–00:30 belongs to the previous day). */
    serviceDate: text('service_date').notNull(),
    departedAt: timestamp('departed_at', { withTimezone: true }).notNull(),
    gapSec: integer('gap_sec').notNull(),
    /** When the same run passed the campus crossroads (UP_STOPS[0]) coming up, if seen: gives the turnaround time. */
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    /** True for the demo feed's simulated 28-day history written on first start. */
    backfilled: boolean('backfilled').notNull().default(false),
  },
  (table) => [
    unique('departures_run').on(table.source, table.routeNo, table.vehId, table.departedAt),
    index('departures_by_day').on(table.source, table.serviceDate, table.routeNo),
  ],
);

/**
 * The public accuracy figure of each feed's predictions: the backtest of the last
 * PREDICTION_ACCURACY_DAYS service days before `serviceDate`, computed once per service day by the
 * poller lease holder (api/bus/predictions/accuracy.ts) and read by every instance.
 */
export const predictionAccuracy = pgTable('prediction_accuracy', {
  feed: text('feed').primaryKey(),
  /** The KST service day ("yyyy-MM-dd") it was computed on: it covers the days before it. */
  serviceDate: text('service_date').notNull(),
  accuracy: jsonb('accuracy').$type<PredictionAccuracy>().notNull(),
});

/**
 * Where an admin restarted the learning of a route's departures (docs/predictions.md §Following a
 * changed timetable): from `since` ("yyyy-MM-dd", KST service date) on, the route's predictions
 * learn from its days since then only. Every entry is kept (the latest per route applies) and audited.
 */
export const timetableRestarts = pgTable('timetable_restarts', {
  id: serial('id').primaryKey(),
  /** The feed whose predictions restart: 'demo' or 'gbis'. */
  source: text('source').notNull(),
  routeNo: text('route_no').notNull(),
  since: text('since').notNull(),
  actor: text('actor').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
