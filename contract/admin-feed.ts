/**
 * The admin feed page's contract (docs/product.md §11): the feed's health, the timetable changes
 * the predictions follow, and the restart of a route's learning. Apart from contract/admin.ts, so
 * that only that page's JavaScript carries it.
 */
import { z } from 'zod';
import { FeedStatusSchema } from './bus';
import { text } from './strings';
import { DAY_TYPES, ROUTE_NOS } from './transit';

/**
 * POST /api/admin/timetable-restarts (docs/predictions.md §Following a changed timetable): learning
 * of `routeNo`'s departures restarts at the service date `since` ("yyyy-MM-dd", KST), which is
 * today or one of the HISTORY_WINDOW_DAYS days before (the api checks the range).
 */
export const TimetableRestartSchema = z.object({
  routeNo: z.enum(ROUTE_NOS, { errorMap: () => ({ message: '노선을 골라 주세요.' }) }),
  since: text().regex(/^\d{4}-\d{2}-\d{2}$/, '날짜를 YYYY-MM-DD 형식으로 적어 주세요.'),
});
export type TimetableRestart = z.infer<typeof TimetableRestartSchema>;
/** What the api answers a saved restart with (201). */
export const TIMETABLE_RESTART_SAVED = '저장했습니다. 10분 안에 예측에 반영됩니다.';
export const TimetableRestartSavedSchema = z.object({ success: z.literal(true), message: text() });

/** A timetable's shape for the admins: its first departure ("HH:mm", KST) and its median headway in minutes. */
const TimetableShapeSchema = z.object({ first: text(), headwayMin: z.number().int() });

/** GET /api/admin/feed: the bus feed's health (contract FeedStatusSchema) with today's GBIS calls. */
export const AdminFeedStatusSchema = FeedStatusSchema.extend({
  lastError: text().nullable(),
  /** Whether this api instance polls (holds the lease) or follows. */
  role: z.enum(['leader', 'follower']),
  /** GBIS calls spent on today's KST date, per GBIS dataset. */
  callsToday: z.object({ arrivals: z.number().int(), locations: z.number().int() }),
  /** GBIS_DAILY_QUOTA: calls per dataset per day; null when the api does not say. */
  dailyQuota: z.number().int().nullable(),
  /**
   * Each GBIS dataset's plan over a service day on a fresh quota (api/bus/feed/poll-plan.ts
   * planOfDay): calls a day and the mean seconds between them (locations: per route); null for the
   * demo simulator, which is free.
   */
  plan: z
    .object({
      arrivals: z.object({ callsPerDay: z.number().int(), meanIntervalSec: z.number().int() }),
      locations: z.object({ callsPerDay: z.number().int(), meanIntervalSec: z.number().int() }),
    })
    .nullable(),
  /**
   * The timetable changes today's predictions follow (docs/predictions.md §Following a changed
   * timetable), per route that has one: its first service date ("yyyy-MM-dd", KST), the day types
   * it was seen on, and today's day type's first departure ("HH:mm") and median headway (minutes)
   * before and since (null when today's day type was not learnt afresh).
   */
  timetableChanges: z.array(
    z.object({
      routeNo: text(),
      since: text(),
      dayTypes: z.array(z.enum(DAY_TYPES)),
      before: TimetableShapeSchema.nullable(),
      after: TimetableShapeSchema.nullable(),
    }),
  ),
  /** The latest restart an admin made per route (TimetableRestartSchema), with who and when (ISO instant). */
  timetableRestarts: z.array(z.object({ routeNo: text(), since: text(), actor: text(), at: text() })),
});
export type AdminFeedStatus = z.infer<typeof AdminFeedStatusSchema>;
