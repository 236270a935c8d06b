/**
 * The GBIS setup of the admin page /admin-only/gbis (docs/gbis.md §Setup page): the ids and timetables an
 * admin confirms (GbisConfigSchema, stored in the api's gbis_config table), what discovery found, and
 * the api's answers under /api/admin/gbis. Ids are GBIS's own (routeId, stationId: digits); '' means
 * "not set here", so the next source in the precedence (env > database > api defaults) decides.
 */
import { z } from 'zod';
import { ROUTE_NOS, STOP_NAMES, type RouteNo } from './transit';
import { text, trimmedLine } from './strings';

/** A GBIS id as stored: digits, or '' when not set. */
export const GbisIdSchema = trimmedLine('GBIS id').regex(/^(\d{1,12})?$/, '숫자로 된 GBIS id를 입력해주세요.');

/** "HH:mm" from the campus terminus, KST; hours up to 29 (a run after midnight belongs to the service day before). */
const ClockSchema = trimmedLine('시간').regex(/^([01]\d|2[0-9]):[0-5]\d$/, '시간은 05:30처럼 HH:mm으로 입력해주세요.');

/** Minutes between buses. */
const HeadwaySchema = z.number().int('분은 정수로 입력해주세요.').min(1, '1분 이상이어야 합니다.').max(240);

/** First and last departure from the campus terminus and the headway range in minutes (GBIS getBusRouteInfoItemv2). */
export const TimetableSchema = z
  .object({ first: ClockSchema, last: ClockSchema, minHeadwayMin: HeadwaySchema, maxHeadwayMin: HeadwaySchema })
  .refine((t) => t.minHeadwayMin <= t.maxHeadwayMin, {
    message: '최소 배차 간격이 최대보다 클 수 없습니다.',
    path: ['maxHeadwayMin'],
  });

/** One route's GBIS identity: routeId, its up pass of the campus crossroads (GBIS staOrder) and timetables. */
export const GbisRouteSchema = z.object({
  routeId: GbisIdSchema,
  /** GBIS staOrder (= stationSeq) of the campus crossroads on the route's up leg; null when unknown. */
  upStaOrder: z.number().int().min(1, '1 이상의 정류장 순번을 입력해주세요.').max(999).nullable(),
  timetable: z.object({ weekday: TimetableSchema, saturday: TimetableSchema, holiday: TimetableSchema }),
});

const stationIds = (count: number) => z.array(GbisIdSchema).length(count, `정류장 ${count}곳의 id가 필요합니다.`);

/**
 * The stored GBIS setup (gbis_config.value): the four routes by routeNo, the stationIds of the
 * progress lines' stops in contract STOP_NAMES order (up[0] is the campus crossroads, where arrivals
 * are read) and the campus terminus's stationId.
 */
export const GbisConfigSchema = z.object({
  routes: z.object(
    Object.fromEntries(ROUTE_NOS.map((routeNo) => [routeNo, GbisRouteSchema])) as Record<
      RouteNo,
      typeof GbisRouteSchema
    >,
  ),
  upStationIds: stationIds(STOP_NAMES.up.length),
  downStationIds: stationIds(STOP_NAMES.down.length),
  terminusStationId: GbisIdSchema,
});
export type GbisConfig = z.infer<typeof GbisConfigSchema>;

/** A route candidate of GBIS's route search (getBusRouteListv2). */
const RouteCandidateSchema = z.object({
  routeId: text(),
  routeName: text().nullable(),
  regionName: text().nullable(),
  startStationName: text().nullable(),
  endStationName: text().nullable(),
});

/** A stop candidate of GBIS's stop search (getBusStationListv2), with the side our routes put it on. */
const StationCandidateSchema = z.object({
  stationId: text(),
  stationName: text().nullable(),
  mobileNo: text().nullable(),
  side: z.enum(['up', 'down']).nullable(),
});

/** What discovery found: a proposal (GbisConfig, '' / null where it could not decide) with the candidates. */
export const GbisDiscoverySchema = z.object({
  proposal: GbisConfigSchema,
  routes: z.array(
    z.object({
      routeNo: text(),
      /** null when ambiguous or not found: pick among `candidates`. */
      routeId: text().nullable(),
      candidates: z.array(RouteCandidateSchema),
      /** "start ⟷ end" of GBIS route info; null without it. */
      termini: text().nullable(),
      upStaOrder: z.number().int().nullable(),
    }),
  ),
  stops: z.array(
    z.object({
      direction: z.enum(['up', 'down']),
      index: z.number().int(),
      name: text(),
      stationId: text().nullable(),
      candidates: z.array(StationCandidateSchema),
    }),
  ),
  /** The stops around each resolved route's campus terminus (stationSeq order), to check sides and upStaOrder by. */
  lines: z.array(
    z.object({
      routeNo: text(),
      terminusSeq: z.number().int(),
      stations: z.array(
        z.object({ seq: z.number().int(), stationId: text(), name: text().nullable(), turn: z.boolean() }),
      ),
    }),
  ),
  /** null when the routes disagree on the campus terminus, or none has one. */
  terminusId: text().nullable(),
});
export type GbisDiscovery = z.infer<typeof GbisDiscoverySchema>;

/** GBIS calls per quota dataset (the portal counts each dataset apart, per KST day). */
export const GbisCallsSchema = z.object({
  arrivals: z.number().int(),
  locations: z.number().int(),
  routes: z.number().int(),
  stations: z.number().int(),
});

/** GET /api/admin/gbis: what the poller uses now and where each part comes from. */
export const GbisSetupSchema = z.object({
  /** BUS_FEED: GBIS is in use only with 'gbis'. */
  feed: z.enum(['demo', 'gbis']),
  /** Whether GBIS_SERVICE_KEY is set (discovery needs it). */
  keyConfigured: z.boolean(),
  /** The ids the poller uses (env > database > defaults). */
  effective: GbisConfigSchema,
  /** Whether the campus crossroads' stationId is known: without it nothing is polled. */
  idsKnown: z.boolean(),
  /** The stored setup, or null before the first save. */
  stored: z
    .object({ value: GbisConfigSchema, updatedAt: text().datetime({ offset: true }), updatedBy: text() })
    .nullable(),
  /** Env overrides, which win over the stored setup: GBIS_ARRIVAL_STATION_ID and GBIS_ROUTE_IDS. */
  overrides: z.object({ arrivalStationId: text().nullable(), routeIds: z.record(text(), text()) }),
  /** Today's (KST) GBIS calls per dataset, and GBIS_DAILY_QUOTA (per dataset). */
  callsToday: GbisCallsSchema,
  dailyQuota: z.number().int(),
});
export type GbisSetup = z.infer<typeof GbisSetupSchema>;

/** POST /api/admin/gbis/discover: what was found, and the GBIS calls it spent. */
export const GbisDiscoverResponseSchema = z.object({
  discovery: GbisDiscoverySchema,
  callsSpent: z.number().int(),
});
