/**
 * Discovery for the setup (the admin page /admin-only/gbis and `npm run gbis:discover`; docs/gbis.md
 * §Setup page): reserves the most calls discover() can make in the database before the first one
 * (table upstream_calls, datasets 'routes' and 'stations', as the poller reserves its own), gives
 * back those it did not make, and turns what it found into a proposal to confirm (contract
 * GbisDiscovery).
 */
import type { GbisConfig, GbisDiscovery } from '../../../../contract/gbis';
import type { Db } from '../../../db/client';
import { formatKstDate } from '../../../../contract/kst';
import { FeedError } from '../snapshot';
import {
  discoveryCallsSpent,
  recordDiscoveryCall,
  releaseDiscoveryCalls,
  reserveDiscoveryCalls,
  type DiscoveryCalls,
} from '../store';
import type { TransitIds } from '../transit-config';
import { discover, discoveryCallsAtMost, timetableOf, type Discovery, type DiscoveryParser } from './discover';
import { GBIS_PATHS, type GbisHttp } from './http';
import { configOf } from './setup-store';

/** How many stops either side of a route's campus terminus the answer lists (for a person checking sides and upStaOrder). */
const LINE_CONTEXT = 8;

/**
 * What a discovery run came to: found (with the calls it spent), refused before any call because
 * today's quota of a dataset cannot hold it beside the calls spent or reserved, or failed at a call
 * (GBIS, the portal, the network) after spending `callsSpent`.
 */
type DiscoveryOutcome =
  | { outcome: 'found'; discovery: GbisDiscovery; callsSpent: number }
  | { outcome: 'no-budget'; spent: DiscoveryCalls; needed: DiscoveryCalls }
  | { outcome: 'failed'; error: FeedError; callsSpent: number };

/**
 * Runs discovery for `current` (the ids in use: their stop names, and what a lookup that cannot
 * decide keeps) as of `now`, spending at most discoveryCallsAtMost(current) calls of `dailyQuota`
 * per dataset. Those calls are reserved in one statement before the first call, so discoveries run
 * at once (by the page, the CLI, another instance) never spend more than the quota left together:
 * one the quota cannot hold beside those running is refused ('no-budget', `spent` counting their
 * reservations). The calls not made are given back when it ends.
 * @throws what the database throws (reserving, or giving back).
 */
export async function runDiscovery(options: {
  db: Db;
  http: GbisHttp;
  /** Where the answers are parsed (the api's worker thread; the CLI's own). */
  parse: DiscoveryParser;
  current: TransitIds;
  dailyQuota: number;
  now: Date;
}): Promise<DiscoveryOutcome> {
  const { db, http, parse, current, dailyQuota, now } = options;
  const day = formatKstDate(now);
  const needed = discoveryCallsAtMost(current);
  if (!(await reserveDiscoveryCalls(db, day, needed, dailyQuota))) {
    return { outcome: 'no-budget', spent: await discoveryCallsSpent(db, day), needed };
  }
  const made: DiscoveryCalls = { routes: 0, stations: 0 };
  const counted: GbisHttp = {
    ...http,
    fetch: async (input, init) => {
      const dataset = String(input).includes(GBIS_PATHS.stationSearch) ? 'stations' : 'routes';
      made[dataset] += 1;
      // Past the reservation (discover() calling more than discoveryCallsAtMost): counted as it goes.
      if (made[dataset] > needed[dataset]) await recordDiscoveryCall(db, day, dataset);
      return http.fetch(input, init);
    },
  };
  const callsSpent = () => made.routes + made.stations;
  try {
    const found = await discover({ http: counted, parse }, current);
    return { outcome: 'found', discovery: discoveryOf(found, current), callsSpent: callsSpent() };
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    return { outcome: 'failed', error, callsSpent: callsSpent() };
  } finally {
    await releaseDiscoveryCalls(db, day, {
      routes: needed.routes - made.routes,
      stations: needed.stations - made.stations,
    });
  }
}

/**
 * The proposal: what discovery decided, else the value in use (`current`). A route keeps its
 * upStaOrder only with its routeId unchanged; its timetable is route info's when GBIS gave one.
 */
function proposalOf(found: Discovery, current: TransitIds): GbisConfig {
  const config = configOf(current);
  for (const { route, routeId, info, upStaOrder } of found.routes) {
    const now = config.routes[route.routeNo as keyof GbisConfig['routes']];
    const id = routeId ?? now.routeId;
    now.upStaOrder = upStaOrder ?? (id === now.routeId ? now.upStaOrder : null);
    now.routeId = id;
    if (info) now.timetable = timetableOf(info, now.timetable);
  }
  for (const stop of found.stops) {
    const ids = stop.direction === 'up' ? config.upStationIds : config.downStationIds;
    if (stop.stationId) ids[stop.index] = stop.stationId;
  }
  config.terminusStationId = found.terminusId ?? config.terminusStationId;
  return config;
}

/** discover()'s result in the contract's shape, with the proposal. */
function discoveryOf(found: Discovery, current: TransitIds): GbisDiscovery {
  return {
    proposal: proposalOf(found, current),
    routes: found.routes.map(({ route, routeId, candidates, info, upStaOrder }) => ({
      routeNo: route.routeNo,
      routeId,
      candidates: candidates.map(({ routeId, routeName, regionName, startStationName, endStationName }) => ({
        routeId,
        routeName,
        regionName,
        startStationName,
        endStationName,
      })),
      termini: info ? `${info.startStationName ?? '?'} ⟷ ${info.endStationName ?? '?'}` : null,
      upStaOrder,
    })),
    stops: found.stops.map(({ direction, index, name, stationId, candidates }) => ({
      direction,
      index,
      name,
      stationId,
      candidates: candidates.map(({ stationId, stationName, mobileNo, side }) => ({
        stationId,
        stationName,
        mobileNo,
        side,
      })),
    })),
    lines: found.lines.map(({ routeNo, stations, terminus }) => ({
      routeNo,
      terminusSeq: terminus.stationSeq,
      stations: stations
        .filter((s) => {
          const distance = Math.abs(s.stationSeq - terminus.stationSeq);
          return Math.min(distance, stations.length - distance) <= LINE_CONTEXT;
        })
        .map(({ stationSeq, stationId, stationName, turnYn }) => ({
          seq: stationSeq,
          stationId,
          name: stationName,
          turn: turnYn === 'Y',
        })),
    })),
    terminusId: found.terminusId,
  };
}
