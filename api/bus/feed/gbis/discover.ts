/**
 * Finding our GBIS ids: route search by number, stop search by name, route info (timetables) and
 * route stop lists, plus the rules that pick our routes, stops, the campus terminus
 * (campusTerminusOf; the terminus is the stop all resolved routes agree on) and each route's
 * upStaOrder out of the candidates. Anything ambiguous is left unresolved for a person, not guessed.
 * Run by the admin page /admin-only/gbis and scripts/gbis-discover.ts through setup-discovery.ts,
 * which turns the result into a proposal to confirm. The picking rules: docs/gbis.md §Routes and
 * stations.
 */
import { z } from 'zod';
import type { RouteConfig, Timetable, TransitIds } from '../transit-config';
import type { DayType } from '../../../../contract/transit';
import { gbisId, gbisNumber, gbisOptionalId, gbisRequiredNumber, gbisText, parseList } from './parse';
import { GBIS_PATHS, callGbis, type GbisHttp } from './http';
import { FeedError } from '../snapshot';
import type { WorkerPool } from '../../../worker-pool';
import type { ParsedAnswer } from './worker';

/** Matches input keys to the schema's keys ignoring case (GBIS clients disagree: nPeekAlloc vs npeekAlloc). */
function caseInsensitive<T extends z.ZodRawShape>(shape: T) {
  const byLower = new Map(Object.keys(shape).map((key) => [key.toLowerCase(), key]));
  return z.preprocess((item) => {
    if (typeof item !== 'object' || item === null) return item;
    return Object.fromEntries(
      Object.entries(item).map(([key, value]) => [byLower.get(key.toLowerCase()) ?? key, value]),
    );
  }, z.object(shape));
}

/** A getBusRouteListv2 item. */
const RouteCandidateSchema = caseInsensitive({
  routeId: gbisId,
  routeName: gbisText,
  routeTypeName: gbisText,
  regionName: gbisText,
  adminName: gbisText,
  startStationName: gbisText,
  endStationName: gbisText,
});
type RouteCandidate = z.infer<typeof RouteCandidateSchema>;

/** A getBusStationListv2 item; x/y are WGS84 longitude/latitude. */
const StationCandidateSchema = caseInsensitive({
  stationId: gbisId,
  stationName: gbisText,
  mobileNo: gbisText,
  regionName: gbisText,
  x: gbisNumber,
  y: gbisNumber,
});
type StationCandidate = z.infer<typeof StationCandidateSchema>;

/** A getBusRouteStationListv2 item, in route order (stationSeq from 1). */
const RouteStationSchema = caseInsensitive({
  stationId: gbisId,
  stationName: gbisText,
  stationSeq: gbisRequiredNumber,
  turnYn: gbisText,
});
type RouteStation = z.infer<typeof RouteStationSchema>;

/** "HH:MM" from GBIS "05:30", "0530" or 530; null when empty or unreadable. */
const gbisClock = gbisText.transform((value) => {
  const match = value?.match(/^(\d{1,2}):?(\d{2})$/);
  return match ? `${match[1].padStart(2, '0')}:${match[2]}` : null;
});

const DAY_PREFIXES = ['', 'sat', 'sun', 'we'] as const;
const TIME_FIELDS = ['UpFirstTime', 'UpLastTime', 'DownFirstTime', 'DownLastTime'] as const;
const ALLOC_FIELDS = ['PeekAlloc', 'NPeekAlloc'] as const;
const fieldName = (prefix: string, field: string) =>
  prefix ? `${prefix}${field}` : field[0].toLowerCase() + field.slice(1);

/**
 * A getBusRouteInfoItemv2 item: termini, turnaround, first/last times ("HH:MM") and headways (minutes)
 * per day prefix.
 */
const RouteInfoSchema = caseInsensitive({
  routeId: gbisId,
  routeName: gbisText,
  startStationId: gbisOptionalId,
  startStationName: gbisText,
  endStationId: gbisOptionalId,
  endStationName: gbisText,
  turnStID: gbisOptionalId,
  turnStNm: gbisText,
  companyName: gbisText,
  ...Object.fromEntries(
    DAY_PREFIXES.flatMap((prefix) => [
      ...TIME_FIELDS.map((field) => [fieldName(prefix, field), gbisClock]),
      ...ALLOC_FIELDS.map((field) => [fieldName(prefix, field), gbisNumber]),
    ]),
  ),
});
type RouteInfo = {
  routeId: string;
  routeName: string | null;
  startStationId: string | null;
  startStationName: string | null;
  endStationId: string | null;
  endStationName: string | null;
  turnStID: string | null;
  turnStNm: string | null;
  companyName: string | null;
  /** upFirstTime, satUpFirstTime, peekAlloc, weNPeekAlloc …: "HH:MM" strings or minutes, null when absent. */
  [field: string]: string | number | null;
};

// ── lookups (one GBIS call each) ──────────────────────────────────────────────────────────────

/** The GBIS lists discovery reads, by name: each answer's list key and item schema. */
const DISCOVERY_LISTS = {
  routeSearch: { key: 'busRouteList', schema: RouteCandidateSchema },
  stationSearch: { key: 'busStationList', schema: StationCandidateSchema },
  routeInfo: { key: 'busRouteInfoItem', schema: RouteInfoSchema },
  routeStations: { key: 'busRouteStationList', schema: RouteStationSchema },
} as const;
export type DiscoveryList = keyof typeof DISCOVERY_LISTS;

/**
 * The items of one discovery answer (parseList with the list's key and schema): 30–130 ms of CPU
 * for a route's 150 stops, so the api runs it in its worker thread (worker.ts).
 * @throws FeedError when the answer is not a list GBIS sends.
 */
export function parseDiscoveryList(list: DiscoveryList, text: string, status: number): unknown[] {
  const { key, schema } = DISCOVERY_LISTS[list];
  return parseList(text, status, key, schema as z.ZodTypeAny);
}

/**
 * Where discovery's answers are parsed (parseDiscoveryList): the api's worker thread
 * (worker.ts), or the calling thread for the CLI, which serves nothing.
 * @throws FeedError as parseDiscoveryList does.
 */
export type DiscoveryParser = (list: DiscoveryList, text: string, status: number) => Promise<unknown[]>;

/** parseDiscoveryList on the calling thread. */
export const parseInThread: DiscoveryParser = async (list, text, status) => parseDiscoveryList(list, text, status);

/** parseDiscoveryList in `pool`'s worker thread (worker.ts), its FeedError thrown again here. */
export function workerParser(pool: WorkerPool): DiscoveryParser {
  return async (list, text, status) => {
    const parsed = await pool.run<ParsedAnswer>('gbis-worker', 'parseDiscoveryAnswer', { list, text, status });
    if ('failure' in parsed) throw new FeedError(parsed.failure.kind, parsed.failure.message);
    return parsed.items;
  };
}

/** A GBIS client for discovery: its HTTP settings and where it parses the answers. */
export type DiscoveryClient = { http: GbisHttp; parse: DiscoveryParser };

/** Calls `path` with `params` and parses its answer as `list`. @throws FeedError */
function lookUp<T>(gbis: DiscoveryClient, path: string, params: Record<string, string>, list: DiscoveryList) {
  return callGbis(gbis.http, path, params, (text, status) => gbis.parse(list, text, status) as Promise<T[]>);
}

/** getBusRouteListv2?keyword= → every route whose number contains `keyword`. @throws FeedError */
function searchRoutes(gbis: DiscoveryClient, keyword: string): Promise<RouteCandidate[]> {
  return lookUp(gbis, GBIS_PATHS.routeSearch, { keyword }, 'routeSearch');
}

/** getBusStationListv2?keyword= → every stop whose name contains `keyword`. @throws FeedError */
function searchStations(gbis: DiscoveryClient, keyword: string): Promise<StationCandidate[]> {
  return lookUp(gbis, GBIS_PATHS.stationSearch, { keyword }, 'stationSearch');
}

/** getBusRouteInfoItemv2?routeId= → the route's info, or null when GBIS has none (resultCode 4). @throws FeedError */
async function getRouteInfo(gbis: DiscoveryClient, routeId: string): Promise<RouteInfo | null> {
  const [info] = await lookUp<RouteInfo>(gbis, GBIS_PATHS.routeInfo, { routeId }, 'routeInfo');
  return info ?? null;
}

/**
 * The timetable GBIS states for `route` now (getBusRouteInfoItemv2 of its routeId, timetableOf with
 * its timetable as the fallback), or null when GBIS has no info for it (resultCode 4). One call.
 * @throws FeedError
 */
export async function readRouteTimetable(
  gbis: DiscoveryClient,
  route: RouteConfig,
): Promise<RouteConfig['timetable'] | null> {
  const info = await getRouteInfo(gbis, route.routeId);
  return info && timetableOf(info, route.timetable);
}

/** getBusRouteStationListv2?routeId= → the route's stops ordered by stationSeq. @throws FeedError */
async function getRouteStations(gbis: DiscoveryClient, routeId: string): Promise<RouteStation[]> {
  const stations = await lookUp<RouteStation>(gbis, GBIS_PATHS.routeStations, { routeId }, 'routeStations');
  return stations.sort((a, b) => a.stationSeq - b.stationSeq);
}

// ── picking ───────────────────────────────────────────────────────────────────────────────────

const compact = (name: string | null) => (name ?? '').replace(/[\s.·()]/g, '');
const isCampus = (name: string | null) => compact(name).includes('외대');
const inYongin = (region: string | null) => region === null || region.includes('용인');

/** Route choice: `routeId` when exactly one candidate survives docs/gbis.md §Routes and stations, else null. */
function pickRoute(routeNo: string, candidates: RouteCandidate[]): { routeId: string | null; kept: RouteCandidate[] } {
  const exact = candidates.filter((c) => c.routeName === routeNo && inYongin(c.regionName));
  const kept =
    exact.length > 1 ? exact.filter((c) => isCampus(c.startStationName) || isCampus(c.endStationName)) : exact;
  return { routeId: kept.length === 1 ? kept[0].routeId : null, kept };
}

/**
 * A route's campus terminus on its stop list (chosen rule):
 * - the start stop (lowest stationSeq) when route info's startStationName is …외대… (routes that
 *   start at campus, e.g. 1117 한국외대 ⟷ 강변역);
 * - else the turnaround: the stop whose stationId is route info's turnStID, else the stop marked
 *   turnYn "Y" in the stop list, provided its name is …외대… (a route turning elsewhere does not
 *   end at campus, and its turnaround would put the sides the wrong way round).
 * Null when neither applies. Route info says which stop it is; the stop list gives its stationId
 * and stationSeq as the vehicle locations report them.
 */
function campusTerminusOf(info: RouteInfo, stations: RouteStation[]): RouteStation | null {
  if (stations.length === 0) return null;
  if (isCampus(info.startStationName)) return stations[0];
  const turn = stations.find((s) => s.stationId === info.turnStID) ?? stations.find((s) => s.turnYn === 'Y');
  return turn && isCampus(turn.stationName) ? turn : null;
}

/** A resolved route's stops ordered by stationSeq (1…n), with its campus terminus among them. */
type RouteLine = { routeNo: string; stations: RouteStation[]; terminus: RouteStation };

type Side = 'up' | 'down';

/**
 * Side of the pass at `seq` on a route: "up" when it lies in the half of the (circular) route
 * leading to the campus terminus, "down" in the half leaving it; null at the terminus itself
 * (served on both lines).
 */
function sideAt(line: RouteLine, seq: number): Side | null {
  const length = line.stations.length;
  const toTerminus = (((line.terminus.stationSeq - seq) % length) + length) % length;
  if (toTerminus === 0) return null;
  return toTerminus <= length / 2 ? 'up' : 'down';
}

/**
 * Side of a stop on a route: the side of its passes (sideAt); null when the route does not stop
 * there, or its passes lie on both sides or at the terminus.
 */
function directionOn(line: RouteLine, stationId: string): Side | null {
  const sides = new Set(line.stations.filter((s) => s.stationId === stationId).map((s) => sideAt(line, s.stationSeq)));
  return sides.size === 1 ? [...sides][0] : null;
}

/**
 * The route's upStaOrder: the stationSeq of its one pass of `stationId` (the campus crossroads) on
 * the up side, which GBIS arrival items at that stop carry as staOrder. Null when the route has no
 * such pass or several.
 */
function upPassSeq(line: RouteLine, stationId: string): number | null {
  const up = line.stations.filter((s) => s.stationId === stationId && sideAt(line, s.stationSeq) === 'up');
  return up.length === 1 ? up[0].stationSeq : null;
}

type StopChoice = {
  direction: Side;
  index: number;
  name: string;
  /** Chosen stationId, or null when ambiguous (see candidates). */
  stationId: string | null;
  /** Search candidates in Yongin whose name contains the product's name, with their side when known. */
  candidates: (StationCandidate & { side: Side | null })[];
};

/**
 * Picks the stationId of one progress-line stop: the single candidate on the stop's side according
 * to the route lines; or, with no side known for any candidate, the only candidate. Else null.
 */
function pickStop(
  stop: { direction: Side; index: number; name: string },
  found: StationCandidate[],
  lines: RouteLine[],
): StopChoice {
  const candidates = found
    .filter((c) => inYongin(c.regionName) && compact(c.stationName).includes(compact(stop.name)))
    .map((c) => {
      const sides = new Set(lines.map((line) => directionOn(line, c.stationId)).filter((side) => side !== null));
      return { ...c, side: sides.size === 1 ? [...sides][0] : null };
    });
  const onSide = candidates.filter((c) => c.side === stop.direction);
  const chosen =
    onSide.length === 1
      ? onSide[0]
      : candidates.length === 1 && candidates[0].side === null
        ? candidates[0]
        : undefined;
  return { ...stop, stationId: chosen?.stationId ?? null, candidates };
}

/**
 * Our timetable from route info: departures from the campus terminus are the up* times when the
 * route starts at campus, else the down* times (campus is the turnaround or end). Headways:
 * peekAlloc (min) / nPeekAlloc (max). Day types: weekday = no prefix, saturday = sat…,
 * holiday = sun… (Sunday or public holiday), else we…. A missing value keeps `fallback`'s.
 */
export function timetableOf(info: RouteInfo, fallback: RouteConfig['timetable']): RouteConfig['timetable'] {
  const leg = isCampus(info.startStationName) ? 'Up' : 'Down';
  const read = (prefixes: string[], field: string) =>
    prefixes.map((prefix) => info[fieldName(prefix, field)]).find((value) => value !== null && value !== undefined);
  const day = (prefixes: string[], estimate: Timetable): Timetable => ({
    first: (read(prefixes, `${leg}FirstTime`) as string | undefined) ?? estimate.first,
    last: (read(prefixes, `${leg}LastTime`) as string | undefined) ?? estimate.last,
    minHeadwayMin: (read(prefixes, 'PeekAlloc') as number | undefined) ?? estimate.minHeadwayMin,
    maxHeadwayMin: (read(prefixes, 'NPeekAlloc') as number | undefined) ?? estimate.maxHeadwayMin,
  });
  const prefixesOf: Record<DayType, string[]> = { weekday: [''], saturday: ['sat'], holiday: ['sun', 'we'] };
  return {
    weekday: day(prefixesOf.weekday, fallback.weekday),
    saturday: day(prefixesOf.saturday, fallback.saturday),
    holiday: day(prefixesOf.holiday, fallback.holiday),
  };
}

/**
 * The most GBIS calls discover() makes for `config`, per quota dataset: 3 route-service calls per
 * route, 1 station search per distinct stop name.
 */
export function discoveryCallsAtMost(config: Pick<TransitIds, 'routes' | 'upStops' | 'downStops'>) {
  const names = new Set([...config.upStops, ...config.downStops].map((stop) => compact(stop.name)));
  return { routes: config.routes.length * 3, stations: names.size };
}

// ── the whole discovery ───────────────────────────────────────────────────────────────────────

type RouteChoice = {
  route: RouteConfig;
  /** Chosen routeId, or null when ambiguous (see candidates). */
  routeId: string | null;
  candidates: RouteCandidate[];
  info: RouteInfo | null;
  /** stationSeq of the campus crossroads' up pass (upPassSeq), or null when not found. */
  upStaOrder: number | null;
};

export type Discovery = {
  routes: RouteChoice[];
  stops: StopChoice[];
  /** The stop lists of the routes whose campus terminus was found, for a human to check the sides. */
  lines: RouteLine[];
  /** The campus terminus's stationId: the campus terminus of every line when they agree, else null (none, or several). */
  terminusId: string | null;
};

/**
 * Resolves routeIds, timetables, the campus terminus, each route's upStaOrder and the progress-line
 * stationIds of `config`'s routes and stops. upStaOrder is read at the campus crossroads (upStops[0])
 * as picked here, else as configured. Calls (discoveryCallsAtMost): one route search, route info and
 * route stop list per route (route dataset), one stop search per distinct stop name (station dataset).
 * @throws FeedError from any call.
 */
export async function discover(
  gbis: DiscoveryClient,
  config: Pick<TransitIds, 'routes' | 'upStops' | 'downStops'>,
): Promise<Discovery> {
  const picked: Omit<RouteChoice, 'upStaOrder'>[] = [];
  const lines: RouteLine[] = [];
  for (const route of config.routes) {
    const candidates = await searchRoutes(gbis, route.routeNo);
    const { routeId } = pickRoute(route.routeNo, candidates);
    const info = routeId ? await getRouteInfo(gbis, routeId) : null;
    picked.push({ route, routeId, candidates, info });
    if (!routeId || !info) continue;
    const stations = await getRouteStations(gbis, routeId);
    const terminus = campusTerminusOf(info, stations);
    if (terminus) lines.push({ routeNo: route.routeNo, stations, terminus });
  }
  const stopsToFind = [
    ...config.upStops.map((stop, index) => ({ direction: 'up' as const, index, name: stop.name })),
    ...config.downStops.map((stop, index) => ({ direction: 'down' as const, index, name: stop.name })),
  ];
  const found = new Map<string, StationCandidate[]>();
  for (const { name } of stopsToFind) {
    if (!found.has(compact(name))) found.set(compact(name), await searchStations(gbis, compact(name)));
  }
  const stops = stopsToFind.map((stop) => pickStop(stop, found.get(compact(stop.name)) ?? [], lines));
  const crossroads = stops.find((stop) => stop.direction === 'up' && stop.index === 0);
  const crossroadsId = crossroads?.stationId ?? config.upStops[0]?.stationId;
  const upStaOrderOf = (routeNo: string) => {
    const line = lines.find((l) => l.routeNo === routeNo);
    return line && crossroadsId ? upPassSeq(line, crossroadsId) : null;
  };
  const termini = new Set(lines.map((line) => line.terminus.stationId));
  return {
    routes: picked.map((choice) => ({ ...choice, upStaOrder: upStaOrderOf(choice.route.routeNo) })),
    stops,
    lines,
    terminusId: termini.size === 1 ? [...termini][0] : null,
  };
}
