/**
 * The base-information side of the GBIS stand-in (route search, stop search, route info, a route's
 * stops: docs/gbis.md §Calls), for discovery against tests/mocks/gbis-stub.ts or msw. Every mock route
 * runs the same line of MOCK_LINE_LENGTH stops: road, the five up stops from the campus crossroads
 * (MOCK_ARRIVAL_STOP, at CROSSROADS_SEQ like the live answers), the campus terminus (its turnaround),
 * the four down stops, road again. So discovery finds every id without ambiguity: MOCK_DISCOVERED.
 */
import { STOP_NAMES } from '../../contract/transit';
import { GBIS_PATHS } from '../../api/bus/feed/gbis/http';
import type { RouteConfig, TransitIds } from '../../api/bus/feed/transit-config';
import { CROSSROADS_SEQ, MOCK_IDS, MOCK_ROUTES, listBody, noResultBody, type GbisCall, type GbisReply } from './gbis';

const TERMINUS_SEQ = CROSSROADS_SEQ + STOP_NAMES.up.length;
const MOCK_LINE_LENGTH = 2 * TERMINUS_SEQ - 1;
const fakeId = (seq: number) => `98${String(seq).padStart(7, '0')}`;

/** The ids discovery finds on the mock GBIS: MOCK_ROUTES' routeIds, MOCK_ARRIVAL_STOP, fake ids elsewhere. */
export const MOCK_DISCOVERED: TransitIds = {
  ...MOCK_IDS,
  routes: MOCK_ROUTES,
  upStops: MOCK_IDS.upStops.map((stop, i) => ({
    ...stop,
    stationId: i === 0 ? stop.stationId : fakeId(CROSSROADS_SEQ + i),
  })),
  downStops: MOCK_IDS.downStops.map((stop, i) => ({ ...stop, stationId: fakeId(TERMINUS_SEQ + 1 + i) })),
  terminus: { ...MOCK_IDS.terminus, stationId: fakeId(TERMINUS_SEQ) },
};

/** Route info's timetable on the mock GBIS (down leg: the routes turn at campus), the same every day. */
export const MOCK_TIMETABLE = { first: '05:55', last: '23:05', minHeadwayMin: 11, maxHeadwayMin: 22 };

/** The line's stops, in order (stationSeq from 1). */
const LINE = Array.from({ length: MOCK_LINE_LENGTH }, (_, i) => {
  const seq = i + 1;
  const up = seq - CROSSROADS_SEQ;
  const down = seq - TERMINUS_SEQ - 1;
  const stop =
    seq === TERMINUS_SEQ
      ? MOCK_DISCOVERED.terminus
      : (MOCK_DISCOVERED.upStops[up] ??
        MOCK_DISCOVERED.downStops[down] ?? { name: `정류소 ${seq}`, stationId: fakeId(seq) });
  return {
    stationId: Number(stop.stationId),
    stationName: stop.name,
    stationSeq: seq,
    turnYn: seq === TERMINUS_SEQ ? 'Y' : 'N',
  };
});

const compact = (name: string) => name.replace(/\s/g, '');

/**
 * The answer of the mock GBIS to a discovery call, or undefined for another operation. It knows
 * `routes` (default MOCK_ROUTES): a route search for any other number finds nothing (resultCode 4).
 */
export function discoveryReply(call: GbisCall, routes: readonly RouteConfig[] = MOCK_ROUTES): GbisReply | undefined {
  const { operation, params } = call;
  const known = (routeId: string) => routes.find((route) => route.routeId === routeId);
  const reply = (key: string, items: unknown[]) => ({
    status: 200,
    body: items.length > 0 ? listBody(key, items) : noResultBody(),
  });
  switch (operation) {
    case operationOf(GBIS_PATHS.routeSearch):
      return reply(
        'busRouteList',
        routes
          .filter((route) => route.routeNo.includes(params.keyword ?? ''))
          .map((route) => ({
            routeId: Number(route.routeId),
            routeName: Number(route.routeNo),
            routeTypeName: '직행좌석형시내버스',
            regionName: '용인',
            adminName: '경기도 용인시',
            startStationName: '강남역',
            endStationName: '한국외대',
          })),
      );
    case operationOf(GBIS_PATHS.routeInfo): {
      const route = known(params.routeId ?? '');
      const { first, last, minHeadwayMin, maxHeadwayMin } = MOCK_TIMETABLE;
      const info = route && {
        routeId: Number(route.routeId),
        routeName: Number(route.routeNo),
        startStationName: '강남역',
        endStationName: '한국외대',
        turnStID: Number(MOCK_DISCOVERED.terminus.stationId),
        turnStNm: MOCK_DISCOVERED.terminus.name,
        downFirstTime: first,
        downLastTime: last,
        peekAlloc: minHeadwayMin,
        nPeekAlloc: maxHeadwayMin,
      };
      return reply('busRouteInfoItem', info ? [info] : []);
    }
    case operationOf(GBIS_PATHS.routeStations):
      return reply('busRouteStationList', known(params.routeId ?? '') ? LINE : []);
    case operationOf(GBIS_PATHS.stationSearch): {
      const keyword = compact(params.keyword ?? '');
      const found = LINE.filter(
        (stop) => compact(stop.stationName).includes(keyword) && !/^정류소/.test(stop.stationName),
      );
      return reply(
        'busStationList',
        [...new Map(found.map((stop) => [stop.stationId, stop])).values()].map((stop) => ({
          stationId: stop.stationId,
          stationName: stop.stationName,
          mobileNo: ` ${String(stop.stationId).slice(-5)}`,
          regionName: '용인',
          x: 127.26,
          y: 37.34,
        })),
      );
    }
    default:
      return undefined;
  }
}

const operationOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
