/**
 * Bus payloads of the Campus Bus API (docs/product.md §3, §7), shared by the api (which produces them) and
 * the web (which parses every answer with them). The spec's fields (routeNo, time, location,
 * type, routes, data, predictedDownTimes) are kept exactly and required. The rest are our
 * additions: optional when parsing, so the web keeps working against any server that speaks §7.
 * The api sends all of them: it builds `Required<…>` of these types.
 */
import { z } from 'zod';
import { text } from './strings';

/** Where the snapshot came from: the seeded simulator or GBIS v2. */
export const FeedSourceNameSchema = z.enum(['demo', 'gbis']);
export type FeedSourceName = z.infer<typeof FeedSourceNameSchema>;

/** A bus's position on a progress line: index into the spec's up (5) or down (4) stops. */
export const SectionSchema = z.object({
  direction: z.enum(['up', 'down']),
  stopIndex: z.number().int().min(0),
});
export type Section = z.infer<typeof SectionSchema>;

/** An ISO 8601 date-time in KST with its offset, e.g. "2026-11-23T08:15:00+09:00". */
export const KstDateTimeSchema = text().datetime({ offset: true });

/** 막차: a route is marked with its last run once that is this many minutes away or less. */
export const LAST_RUN_NOTICE_MIN = 30;

/**
 * One up-direction arrival card: the next bus of a route at the campus crossroads (docs/product.md §3).
 * `time` is whole minutes (rounded up) and `location` the stops remaining, both as of the response.
 */
export const UpRouteSchema = z.object({
  routeNo: text(),
  time: z.number().int(),
  location: z.number().int(),
  /** Extra: seconds until arrival, advanced from GBIS predictTimeSec by the time since the poll. */
  predictTimeSec: z.number().int().optional(),
  /** Extra: GBIS plateNo. */
  plateNo: text().nullable().optional(),
  /** Extra: free seats; null when unknown (GBIS -1 or a route type without the count). */
  remainSeatCnt: z.number().int().nullable().optional(),
  /** Extra: GBIS lowPlate: 0 normal, 1 low-floor, 2 double-decker, 5/6/7 charter/reserved/trolley. */
  lowPlate: z.number().int().nullable().optional(),
  /** Extra: where the bus is now (GBIS stationNm1). */
  stationName: text().nullable().optional(),
  /**
   * Extra (막차): when the route's last up run of the service day is due at campus (its
   * last departure from the campus terminus less the layover), KST ISO, while that is at most
   * LAST_RUN_NOTICE_MIN minutes away; null otherwise.
   */
  lastRun: KstDateTimeSchema.nullable().optional(),
});
export type UpRoute = z.infer<typeof UpRouteSchema>;

/** A vehicle inside the campus section, for the progress line's highlighted stops and chips. */
export const VehicleMarkerSchema = z.object({
  routeNo: text(),
  plateNo: text().nullable(),
  section: SectionSchema,
});
export type VehicleMarker = z.infer<typeof VehicleMarkerSchema>;

/** What an estimate rests on: a live up bus plus the observed turnaround, same-day-type history, or the timetable. */
export const EstimateBasisSchema = z.enum(['live', 'history', 'timetable']);
export type EstimateBasis = z.infer<typeof EstimateBasisSchema>;

/**
 * Extra: the 80 % range of a predicted departure, KST ISO: the bus leaves after `lowerAt` (its
 * 10th percentile) and before `upperAt` (its 90th) on 8 of 10 days like this one
 * (docs/predictions.md §The range and the rider-safe time).
 */
export const DepartureRangeSchema = z.object({ lowerAt: KstDateTimeSchema, upperAt: KstDateTimeSchema });
export type DepartureRange = z.infer<typeof DepartureRangeSchema>;

/**
 * The down group's entry (docs/product.md §3.2 Predicted departure) for a route's next departure from the
 * campus terminus: the day before's and the week before's departure times shifted to today, and the estimate
 * (each the first one not yet past; null when unknown).
 */
export const DownRouteSchema = z.object({
  routeNo: text(),
  data: z.object({
    dayBefore: KstDateTimeSchema.nullable(),
    weekBefore: KstDateTimeSchema.nullable(),
    estimate: KstDateTimeSchema.nullable(),
  }),
  /** Extra: basis of `data.estimate`; null when there is none. */
  basis: EstimateBasisSchema.nullable().optional(),
  /** Extra: the 80 % range of `data.estimate`; null when it states none (a timetable estimate, or none). */
  range: DepartureRangeSchema.nullable().optional(),
  /**
   * Extra (막차): the route's last departure of the service day from the campus terminus
   * (its timetable's last run, the GBIS route info's last-bus time), KST ISO, while it is at most
   * LAST_RUN_NOTICE_MIN minutes away; null otherwise.
   */
  lastRun: KstDateTimeSchema.nullable().optional(),
});
export type DownRoute = z.infer<typeof DownRouteSchema>;

/** Freshness of the snapshot behind a response; `stale` once a poll has failed since it was taken. */
export const FeedStatusSchema = z.object({
  source: FeedSourceNameSchema,
  /** ISO instant (UTC) the source answered the poll behind this data; null before the first poll. */
  takenAt: text().datetime().nullable(),
  /** Seconds between takenAt and the response. */
  ageSec: z.number().int().nullable(),
  /**
   * Extra, sent once the feed has a snapshot: seconds since the oldest location read behind
   * `vehicles`. Each route's positions are read on their own pace (docs/gbis.md §Quota), so they
   * can be older than the arrivals.
   */
  vehiclesAgeSec: z.number().int().optional(),
  stale: z.boolean(),
  /** False outside service hours (05:00–24:30 KST), when no bus runs and nothing is polled. */
  inService: z.boolean(),
  /**
   * Extra, sent only when true: the live feed (BUS_FEED=gbis) polls nothing because its GBIS ids
   * are not set up yet (docs/gbis.md §Setup page).
   */
  idsUnknown: z.literal(true).optional(),
});
export type FeedStatus = z.infer<typeof FeedStatusSchema>;

/** One group of the timeLeft `data` list (docs/product.md §3): the up arrivals or the down predictions. */
const TimeLeftGroupSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('up'), routes: z.array(UpRouteSchema) }),
  z.object({ type: z.literal('down'), routes: z.array(DownRouteSchema) }),
]);

/**
 * GET /api/bus/timeLeft (docs/product.md §7): `data` is the spec's list of groups (the api sends up, then
 * down; read them with `groupRoutes`). `vehicles` and `feed` are extras.
 */
export const TimeLeftResponseSchema = z.object({
  data: z.array(TimeLeftGroupSchema),
  /** Extra: buses inside the campus section, for the progress line. */
  vehicles: z.array(VehicleMarkerSchema).optional(),
  /** Extra: freshness of the data. */
  feed: FeedStatusSchema.optional(),
});
export type TimeLeftResponse = z.infer<typeof TimeLeftResponseSchema>;

/**
 * GET /api/healthz (liveness) and GET /api/readyz (readiness). `status`: ok; degraded while the
 * feed's data is stale or its polls fail (still served, marked stale); unavailable (readyz, 503)
 * when the database does not take the probe's write, or DATA_DIR's disk is nearly full; starting
 * while the api's database opens (healthz 200, readyz 503; the feed as before its first poll:
 * docs/deploy.md §Health and readiness).
 */
export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable', 'starting']),
  feed: FeedStatusSchema.extend({ lastError: text().nullable() }),
  /** readyz only: whether the database took the probe's write in time. */
  database: z.enum(['ok', 'unreachable']).optional(),
  /**
   * readyz only, when the api keeps data on a local disk: 'low' under the free-space margin
   * (api/readiness.ts READY_MIN_FREE_BYTES), 'unreadable' when its free space could not be read.
   */
  disk: z.enum(['ok', 'low', 'unreadable']).optional(),
  /** readyz's 503 only: the kind of failure that made the instance unready (the disk's first when both). */
  failure: z.enum(['disk', 'database']).optional(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/** GET /api/bus/predicted/all (docs/product.md §3, §7): today's estimated departures per routeNo, ascending. */
export const PredictedAllResponseSchema = z.object({
  predictedDownTimes: z.record(text(), z.array(KstDateTimeSchema)),
  /** Extra: the routeNos whose times rest on the timetable alone (too little history). */
  timetableOnly: z.array(text()).optional(),
  /** Extra: per routeNo, the 80 % range of each of its predictedDownTimes (same order); null where none is stated. */
  ranges: z.record(text(), z.array(DepartureRangeSchema.nullable())).optional(),
});
export type PredictedAllResponse = z.infer<typeof PredictedAllResponseSchema>;

/** GET /api/bus/predicted/{routeNo} (docs/product.md §3, §7). */
export const PredictedRouteResponseSchema = z.object({
  routeNo: text(),
  predictedDownTimes: z.array(KstDateTimeSchema),
  /** Extra: whether the times rest on the timetable alone (too little history). */
  timetableOnly: z.boolean().optional(),
  /** Extra: the 80 % range of each of predictedDownTimes (same order); null where none is stated. */
  ranges: z.array(DepartureRangeSchema.nullable()).optional(),
});
export type PredictedRouteResponse = z.infer<typeof PredictedRouteResponseSchema>;

/** An error answer of the api: `{ message }`. */
export const ApiErrorSchema = z.object({ message: text() });

/** /faq: the prediction accuracy figure covers this many service days before today. */
export const PREDICTION_ACCURACY_DAYS = 14;

/** One method's figures in the backtest (api/bus/predictions/backtest.ts MethodScore, rounded for display). */
const MethodAccuracySchema = z.object({
  /** ETA score: mean over the lead buckets of the percentage of accurate answers, 0–100; null without queries. */
  etaScore: z.number().min(0).max(100).nullable(),
  /** Mean absolute error of the answered queries, whole seconds; null when none was answered. */
  maeSec: z.number().int().min(0).nullable(),
  /** Riders' questions replayed ("when does the next bus leave?", 0–15 min before each observed departure). */
  queries: z.number().int().min(0),
});
export type MethodAccuracy = z.infer<typeof MethodAccuracySchema>;

/**
 * GET /api/bus/accuracy: how the down predictions did over the last
 * PREDICTION_ACCURACY_DAYS service days with observed departures before the day it was computed,
 * replayed by the backtest (api/bus/predictions/backtest.ts), once per service day by one api instance.
 * `estimate` is the product's estimate (history plus live evidence), `dayBefore` the baseline of
 * the day before's times. Without history, or before the first computation (computedAt null), the
 * window has 0 days, null dates and null figures.
 */
export const PredictionAccuracySchema = z.object({
  /** Whose departures were replayed: the demo simulator's or GBIS observations. */
  source: FeedSourceNameSchema,
  /** When it was computed (ISO instant, UTC); null: not yet, the figures are empty. */
  computedAt: text().datetime().nullable(),
  window: z.object({
    /** Service days evaluated, 0 to PREDICTION_ACCURACY_DAYS. */
    days: z.number().int().min(0),
    /** First and last evaluated service date ("yyyy-MM-dd", KST); null without history. */
    firstDate: text().date().nullable(),
    lastDate: text().date().nullable(),
  }),
  estimate: MethodAccuracySchema,
  dayBefore: MethodAccuracySchema,
  /**
   * When an answer counts as accurate, per lead (seconds before the departure, [fromSec, toSec)):
   * the bus left at most `earlySec` before or `lateSec` after the predicted time (backtest.ts ETA_BUCKETS).
   */
  tolerances: z.array(
    z.object({
      fromSec: z.number().int().min(0),
      toSec: z.number().int().min(0),
      earlySec: z.number().int().min(0),
      lateSec: z.number().int().min(0),
    }),
  ),
});
export type PredictionAccuracy = z.infer<typeof PredictionAccuracySchema>;
