/**
 * Route and stop identity of the product (docs/product.md §2.3 Home screen; GBIS ids: docs/gbis.md
 * §Routes and stations): the routes' timetables and the defaults of their GBIS ids.
 *
 * GBIS ids marked "unverified" come from public student projects; empty ids are unknown; the
 * timetables here are estimates. The ids and timetables in use are a TransitIds value resolved
 * before each poll (env > the admin page's saved setup > DEFAULT_TRANSIT_IDS:
 * api/bus/feed/gbis/setup-store.ts, docs/gbis.md §Setup page) and held in memory (TransitIdsNow)
 * for everything that reads a timetable. A GBIS item is matched to a route by routeId when known,
 * else by its routeName.
 */
import type { Section } from '../../../contract/bus';
import { ROUTE_NOS, STOP_NAMES, type DayType, type Direction, type RouteNo } from '../../../contract/transit';

/** First/last departure from the campus terminus ("HH:mm" KST, may exceed 24:00) and headway range in minutes. */
export type Timetable = { first: string; last: string; minHeadwayMin: number; maxHeadwayMin: number };

/** A Timetable time "HH:mm" (hours may exceed 23) → minutes after 00:00 of the service day. */
export function timetableMinutes(hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return hours * 60 + minutes;
}

export type RouteConfig = {
  routeNo: string;
  /** GBIS routeId; '' when not yet discovered. */
  routeId: string;
  /**
   * GBIS staOrder (= stationSeq on the route) of the campus crossroads (TransitIds upStops[0]) on the route's
   * up leg, toward campus: arrival items of any other pass of that stop are the down direction.
   * null when unknown (not yet discovered): then both passes' buses are shown.
   */
  upStaOrder: number | null;
  /** Per day type (weekday / Saturday / Sunday-or-public-holiday), GBIS getBusRouteInfoItemv2 shape. */
  timetable: Record<DayType, Timetable>;
  /** Minutes the bus waits at the campus terminus between its up and down runs. */
  layoverMin: number;
};

export type StopConfig = {
  /** The product's name (Korean): contract STOP_NAMES, shown on the progress line. */
  name: string;
  /** GBIS stationId; '' when not yet discovered. */
  stationId: string;
};

/**
 * The four routes' GBIS ids and timetables, keyed by the contract's routeNo. Timetables are estimates
 * until discovery reads the real ones from getBusRouteInfoItemv2 (upFirstTime/upLastTime,
 * peekAlloc/nPeekAlloc, sat…/we…).
 */
const ROUTE_DETAILS: Record<RouteNo, Omit<RouteConfig, 'routeNo'>> = {
  '1150': {
    routeId: '',
    upStaOrder: null,
    layoverMin: 8,
    timetable: {
      weekday: { first: '05:30', last: '23:30', minHeadwayMin: 12, maxHeadwayMin: 25 },
      saturday: { first: '05:40', last: '23:20', minHeadwayMin: 18, maxHeadwayMin: 30 },
      holiday: { first: '05:50', last: '23:00', minHeadwayMin: 20, maxHeadwayMin: 35 },
    },
  },
  '1117': {
    routeId: '',
    upStaOrder: null,
    layoverMin: 6,
    timetable: {
      weekday: { first: '05:20', last: '23:40', minHeadwayMin: 10, maxHeadwayMin: 20 },
      saturday: { first: '05:30', last: '23:30', minHeadwayMin: 15, maxHeadwayMin: 25 },
      holiday: { first: '05:40', last: '23:10', minHeadwayMin: 18, maxHeadwayMin: 30 },
    },
  },
  '1303': {
    routeId: '',
    upStaOrder: null,
    layoverMin: 10,
    timetable: {
      weekday: { first: '05:40', last: '22:50', minHeadwayMin: 25, maxHeadwayMin: 40 },
      saturday: { first: '06:00', last: '22:30', minHeadwayMin: 30, maxHeadwayMin: 45 },
      holiday: { first: '06:10', last: '22:00', minHeadwayMin: 35, maxHeadwayMin: 50 },
    },
  },
  '1005': {
    routeId: '',
    upStaOrder: null,
    layoverMin: 7,
    timetable: {
      weekday: { first: '05:10', last: '23:50', minHeadwayMin: 15, maxHeadwayMin: 30 },
      saturday: { first: '05:20', last: '23:40', minHeadwayMin: 20, maxHeadwayMin: 35 },
      holiday: { first: '05:30', last: '23:20', minHeadwayMin: 25, maxHeadwayMin: 40 },
    },
  },
};

/** The routes in the product's route filter order (contract ROUTE_NOS, docs/product.md §9). */
export const ROUTES: readonly RouteConfig[] = ROUTE_NOS.map((routeNo) => ({ routeNo, ...ROUTE_DETAILS[routeNo] }));

/** One GBIS stationId per name of STOP_NAMES[direction] (same length, same order); '' when not yet discovered. */
type SameLength<T extends readonly string[]> = { -readonly [I in keyof T]: string };
type StationIds = { [D in Direction]: SameLength<(typeof STOP_NAMES)[D]> };

/** Default GBIS stationIds of the progress-line stops, by index into the contract's STOP_NAMES. */
const STATION_IDS: StationIds = {
  up: ['', '228000351' /* 모현사거리, unverified */, '', '', ''],
  down: ['', '', '', ''],
};

/** The progress line of `direction` with `stationIds` (STOP_NAMES order; missing ones ''). */
export const stopsOf = (direction: Direction, stationIds: readonly string[]): StopConfig[] =>
  STOP_NAMES[direction].map((name, index) => ({ name, stationId: stationIds[index] ?? '' }));

/**
 * The GBIS identity the feed works with, resolved once per poll (api/bus/feed/gbis/setup-store.ts
 * resolveTransitIds) and passed to whatever needs ids: the GBIS source, sectionOfStation, discovery.
 */
export type TransitIds = {
  /** The routes in ROUTES order, with their routeId, upStaOrder and timetables. */
  routes: readonly RouteConfig[];
  /** Up progress line, toward campus, in STOP_NAMES.up order; index 0 (the campus crossroads) is where arrivals are read. */
  upStops: readonly StopConfig[];
  /** Down progress line, leaving campus, in STOP_NAMES.down order; index 0 is the down terminus of departures. */
  downStops: readonly StopConfig[];
  /**
   * The campus terminus between the two lines (GBIS turnaround, or the start of a route such as
   * 1117 that begins at campus): buses wait here between their up and down runs, and a down
   * departure is the moment a bus leaves it (api/bus/predictions/departures/detector.ts). Not on
   * either progress line. Discovery's rule: api/bus/feed/gbis/discover.ts campusTerminusOf.
   */
  terminus: StopConfig;
};

/** The ids of this file: what applies where neither env nor the saved setup sets one. */
export const DEFAULT_TRANSIT_IDS: TransitIds = {
  routes: ROUTES,
  upStops: stopsOf('up', STATION_IDS.up),
  downStops: stopsOf('down', STATION_IDS.down),
  terminus: { name: '한국외대종점', stationId: '228000349' }, // unverified
};

/**
 * The TransitIds in use, held in memory, so that the page views read their timetables without a
 * database read (docs/architecture.md §The hot path). Refreshed where the ids are read: the GBIS
 * source before each poll, a follower instance at each reload of the feed state, and the setup
 * page's save (api/bus/feed/gbis/setup-store.ts transitIdsFromDatabase). Read by the timeLeft view,
 * the predictions, the chatbot and the accuracy backtest.
 */
export type TransitIdsNow = {
  /** The ids of the last refresh (DEFAULT_TRANSIT_IDS before the first); the same object while they do not change. Memory only. */
  current(): TransitIds;
  /** Reads the ids afresh, keeps them as current() and returns them. @throws what the read throws. */
  refresh(): Promise<TransitIds>;
};

/**
 * Holds what `read` gives, DEFAULT_TRANSIT_IDS until the first refresh; a refresh that reads the
 * same ids keeps the object, so caches keyed on it (the day plan) stay. Without `read`, always the
 * defaults (the demo feed, whose simulator runs on them).
 */
export function transitIdsNow(read: () => Promise<TransitIds> = async () => DEFAULT_TRANSIT_IDS): TransitIdsNow {
  let ids = DEFAULT_TRANSIT_IDS;
  return {
    current: () => ids,
    refresh: async () => {
      const next = await read();
      if (JSON.stringify(next) !== JSON.stringify(ids)) ids = next;
      return ids;
    },
  };
}

/**
 * Matches a GBIS item to one of our routes: by routeId when that route's id is known, else by
 * routeName (GBIS sends it as a number when numeric). Returns undefined for other routes.
 */
export function matchRoute(
  routeId: string,
  routeName: string | null,
  routes: readonly RouteConfig[],
): RouteConfig | undefined {
  return (
    routes.find((route) => route.routeId !== '' && route.routeId === routeId) ??
    routes.find((route) => route.routeId === '' && routeName !== null && route.routeNo === routeName)
  );
}

/** Maps a GBIS stationId to its place on a progress line, or null when it is outside the campus section. */
export function sectionOfStation(ids: Pick<TransitIds, 'upStops' | 'downStops'>, stationId: string): Section | null {
  if (stationId === '') return null;
  const up = ids.upStops.findIndex((stop) => stop.stationId === stationId);
  if (up >= 0) return { direction: 'up', stopIndex: up };
  const down = ids.downStops.findIndex((stop) => stop.stationId === stationId);
  if (down >= 0) return { direction: 'down', stopIndex: down };
  return null;
}

/** The routes whose vehicles GBIS can list (getBusLocationListv2 takes a routeId): those with a known routeId. */
export const locatedRoutes = (ids: TransitIds): readonly RouteConfig[] =>
  ids.routes.filter((route) => route.routeId !== '');

/** Whether the GBIS source can poll: the campus crossroads, where arrivals are read, has a stationId. */
export const idsKnown = (ids: TransitIds): boolean => ids.upStops[0].stationId !== '';

/**
 * Why the GBIS source cannot poll (idsKnown false: BUS_FEED=gbis before the setup). The poller stores
 * it as the feed's lastError, "config: " and this, which the home and the chatbot read as "not set up
 * yet", not as a failure (api/bus/time-left-view.ts).
 */
export const IDS_UNKNOWN_MESSAGE =
  'the GBIS ids are not set up: the campus crossroads has no stationId (admin page /admin-only/gbis, ' +
  '`npm run gbis:discover -- --save`, or GBIS_ARRIVAL_STATION_ID)';
