/**
 * The GBIS v2 feed source (docs/gbis.md §Field names): a poll reads what the poller asks for, the
 * getBusArrivalListv2 call at the campus crossroads and one getBusLocationListv2 call per asked
 * route with a known routeId, through the
 * GBIS HTTP client of http.ts. The ids are read before each poll (prepare), so a setup saved on the
 * admin page takes effect at the next poll (docs/gbis.md §Setup page).
 */
import { consoleLogger, type Logger } from '../../../logger';
import type { FeedReading, FeedSource, PollRequest } from '../snapshot';
import type { Arrival, VehiclePosition } from '../../../../contract/feed-snapshot';
import { FeedError } from '../snapshot';
import {
  IDS_UNKNOWN_MESSAGE,
  idsKnown,
  locatedRoutes,
  matchRoute,
  sectionOfStation,
  type RouteConfig,
  type TransitIds,
} from '../transit-config';
import {
  parseArrivalList,
  parseLocationList,
  type ArrivalItem,
  type ItemProblem,
  type LocationItem,
  type ParsedList,
} from './parse';
import { callGbis, GBIS_PATHS, gbisHttp, type GbisHttp } from './http';

export type GbisSourceOptions = {
  serviceKey: string;
  /** Default GBIS_BASE_URL (env GBIS_BASE_URL). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /**
   * The ids to poll with, read before each poll: env > saved setup > defaults in the api
   * (TransitIdsNow.refresh of api/bus/feed/gbis/setup-store.ts transitIdsFromDatabase, which also
   * keeps them for the page views' timetables).
   */
  ids: () => Promise<TransitIds>;
  /** Per-call time limit in ms; default 5000. */
  timeoutMs?: number;
  /** Where skipped items of other routes are reported; default the console. */
  logger?: Logger;
};

/** The live GBIS v2 feed. Polled by the poller only; every call counts against the daily quota. */
export class GbisSource implements FeedSource {
  readonly name = 'gbis' as const;
  readonly metered = true;
  private readonly http: GbisHttp;
  private readonly readIds: () => Promise<TransitIds>;
  /** The ids of the last prepare; null before the first. */
  private ids: TransitIds | null = null;
  private readonly logger: Logger;
  /** Per list ('arrivals' or a routeNo), messages of the invalid items its last good read skipped, already logged. */
  private readonly warned = new Map<string, Set<string>>();

  /** @throws FeedError('config') when the key is empty. */
  constructor(options: GbisSourceOptions) {
    if (options.serviceKey.trim() === '')
      throw new FeedError('config', 'The GBIS service key is empty (GBIS_SERVICE_KEY).');
    this.http = gbisHttp(options);
    this.readIds = options.ids;
    this.logger = options.logger ?? consoleLogger;
  }

  /** The routes with a known routeId, as of the last prepare (none before). */
  get locatedRoutes(): readonly RouteConfig[] {
    return this.ids ? locatedRoutes(this.ids) : [];
  }

  /**
   * Reads the ids for the next poll.
   * @throws FeedError('config', IDS_UNKNOWN_MESSAGE) when the campus crossroads has no stationId;
   *   what the provider throws (a database error) otherwise.
   */
  async prepare(): Promise<void> {
    const ids = await this.readIds();
    if (!idsKnown(ids)) throw new FeedError('config', IDS_UNKNOWN_MESSAGE);
    this.ids = ids;
  }

  /**
   * Reads, with the ids of the last prepare (prepared first when there was none), the arrivals at
   * the arrival stop (see toArrivals) when `request.arrivals`, and the vehicles of the requested
   * routes that have a routeId.
   *
   * An invalid item of another route (the arrival stop lists every route through it) is skipped and
   * logged once (warnSkipped); an invalid item that may be one of ours fails the poll, since
   * skipping it would drop one of our buses without a word.
   * @throws FeedError ('timeout' | 'http' | 'portal' | 'gbis' | 'body'); one failed call fails the
   *   poll; 'config' as prepare.
   */
  async poll(_now: Date, request: PollRequest, signal: AbortSignal): Promise<FeedReading> {
    if (!this.ids) await this.prepare();
    const ids = this.ids as TransitIds;
    const tracked = this.locatedRoutes.filter((route) => request.routes.includes(route.routeNo));
    const [arrivals, locationLists] = await Promise.all([
      request.arrivals
        ? callGbis(
            this.http,
            GBIS_PATHS.arrivalList,
            { stationId: ids.upStops[0].stationId },
            (text, status) => failOnOurs(parseArrivalList(text, status), ids.routes),
            signal,
          )
        : null,
      Promise.all(
        tracked.map((route) =>
          callGbis(
            this.http,
            GBIS_PATHS.locationList,
            { routeId: route.routeId },
            (text, status) => failOnOurs(parseLocationList(text, status), [route]),
            signal,
          ),
        ),
      ),
    ]);
    if (arrivals) this.warnSkipped('arrivals', arrivals.problems);
    tracked.forEach((route, i) => this.warnSkipped(route.routeNo, locationLists[i].problems));
    return {
      arrivals: arrivals && toArrivals(arrivals.items, ids.routes),
      vehicles: tracked.flatMap((route, i) => toVehicles(ids, route, locationLists[i].items)),
      terminusStationId: ids.terminus.stationId,
    };
  }

  /**
   * Logs the skipped items of one list (the arrival list, or a route's location list) not logged
   * after that list's previous good read, in one line. The remembered set is that read's, so a
   * broken item seen on every read is logged once, and again only after it was gone for a read.
   */
  private warnSkipped(list: string, problems: ItemProblem[]): void {
    const messages = new Set(problems.map((problem) => problem.message));
    const fresh = [...messages].filter((message) => !this.warned.get(list)?.has(message));
    this.warned.set(list, messages);
    if (fresh.length > 0) this.logger.warn(`[gbis] skipped invalid items of other routes: ${fresh.join('; ')}`);
  }
}

/**
 * Our routes' vehicles at the arrival stop, nearest first, at most two per route. A route with a
 * known `upStaOrder` keeps only its item with that staOrder: the up pass of the stop, toward
 * campus (an item without staOrder cannot be told to be that pass and is left out too). With
 * `upStaOrder` null the stop's passes cannot be told apart (a stop served in both directions
 * lists the route once per pass), so buses of both directions are mixed and the two nearest
 * kept, whichever way they run.
 */
function toArrivals(items: ArrivalItem[], routes: readonly RouteConfig[]): Arrival[] {
  const arrivals = items
    .flatMap((item) => {
      const route = matchRoute(item.routeId, item.routeName, routes);
      if (!route || (route.upStaOrder !== null && item.staOrder !== route.upStaOrder)) return [];
      return item.vehicles.map((vehicle): Arrival => ({ routeNo: route.routeNo, ...vehicle }));
    })
    .sort((a, b) => a.predictTimeSec - b.predictTimeSec);
  const perRoute = new Map<string, number>();
  return arrivals.filter((arrival) => {
    const count = (perRoute.get(arrival.routeNo) ?? 0) + 1;
    perRoute.set(arrival.routeNo, count);
    return count <= 2;
  });
}

/**
 * Returns `list` unless one of its invalid items may belong to `routes`: its routeId is one of
 * theirs, its routeName one of their numbers, or it names no route readably (then it may be ours).
 * @throws FeedError('body', "<problem message> (one of our routes)") for the first such item.
 */
function failOnOurs<T>(list: ParsedList<T>, routes: readonly RouteConfig[]): ParsedList<T> {
  const ours = list.problems.find(
    ({ routeId, routeName }) =>
      (routeId === null && routeName === null) ||
      routes.some((route) => (route.routeId !== '' && route.routeId === routeId) || route.routeNo === routeName),
  );
  if (ours) throw new FeedError('body', `${ours.message} (one of our routes)`);
  return list;
}

/** Location items of one route → positions on `ids`' lines; a vehicle with neither vehId nor plateNo is skipped. */
function toVehicles(ids: TransitIds, route: RouteConfig, items: LocationItem[]): VehiclePosition[] {
  return items.flatMap((item) => {
    const vehId = item.vehId ?? item.plateNo;
    if (vehId === null) return [];
    return [
      {
        routeNo: route.routeNo,
        vehId,
        plateNo: item.plateNo,
        stationId: item.stationId,
        stationSeq: item.stationSeq,
        stateCd: item.stateCd,
        section: sectionOfStation(ids, item.stationId),
      },
    ];
  });
}
