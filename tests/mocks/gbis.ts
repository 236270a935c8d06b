/**
 * GBIS v2 for tests: builders of GBIS-shaped bodies (docs/gbis.md §Envelope and
 * §Quirks), a "live" answerer whose buses count down with the clock, and msw handlers that log
 * every call so a test can count what one poll (or 1000 phones) cost in GBIS calls.
 *
 * Route ids: a route's configured routeId, else a fake one ("99000" + route number); the arrival
 * stop likewise. Fake ids start with 99 and never reach transit-config. On every mock route the
 * campus crossroads is stop CROSSROADS_SEQ, which the arrival items carry as staOrder.
 */
import { http, HttpResponse } from 'msw';
import { GBIS_PATHS } from '../../api/bus/feed/gbis/http';
import type { DatasetCalls } from '../../api/bus/feed/snapshot';
import {
  DEFAULT_TRANSIT_IDS,
  ROUTES,
  type RouteConfig,
  type StopConfig,
  type TransitIds,
} from '../../api/bus/feed/transit-config';

const { upStops: UP_STOPS, downStops: DOWN_STOPS } = DEFAULT_TRANSIT_IDS;

export const GBIS_TEST_BASE_URL = 'https://gbis.test/6410000';

/** Stop order of the campus crossroads on every mock route (its up pass); the campus section follows. */
export const CROSSROADS_SEQ = 30;

/**
 * Our routes with a routeId each (configured, else fake), so location calls happen in tests, and
 * upStaOrder CROSSROADS_SEQ, as discovery would set it.
 */
export const MOCK_ROUTES: readonly RouteConfig[] = ROUTES.map((route) => ({
  ...route,
  routeId: route.routeId || `99000${route.routeNo}`,
  upStaOrder: CROSSROADS_SEQ,
}));

/** The arrival stop (the campus crossroads) with a stationId (configured, else fake). */
export const MOCK_ARRIVAL_STOP: StopConfig = { ...UP_STOPS[0], stationId: UP_STOPS[0].stationId || '990000001' };

/** The default ids with MOCK_ROUTES and MOCK_ARRIVAL_STOP. */
export const MOCK_IDS: TransitIds = {
  ...DEFAULT_TRANSIT_IDS,
  routes: MOCK_ROUTES,
  upStops: [MOCK_ARRIVAL_STOP, ...UP_STOPS.slice(1)],
};

/** A GbisSource ids provider (GbisSourceOptions.ids) answering MOCK_IDS with `over` over it. */
export const mockIds =
  (over: Partial<TransitIds> = {}) =>
  async (): Promise<TransitIds> => ({ ...MOCK_IDS, ...over });

// ── bodies ────────────────────────────────────────────────────────────────────────────────────

/** A JSON body with resultCode 0 and `items` under msgBody[key] (as GBIS sends it: a plain array). */
export function listBody(key: string, items: unknown[]): string {
  return JSON.stringify({
    response: {
      comMsgHeader: '',
      msgHeader: { queryTime: '2026-09-14 13:30:00.158', resultCode: 0, resultMessage: '정상적으로 처리되었습니다.' },
      msgBody: { [key]: items },
    },
  });
}

export const arrivalListBody = (items: unknown[]) => listBody('busArrivalList', items);
export const locationListBody = (items: unknown[]) => listBody('busLocationList', items);

/** A header-only JSON body (gbis.md: 1 system error, 2 missing parameter, 4 no result). */
export function resultBody(resultCode: number, resultMessage: string): string {
  return JSON.stringify({
    response: { comMsgHeader: '', msgHeader: { queryTime: '2026-09-14 13:30:00.158', resultCode, resultMessage } },
  });
}

export const noResultBody = () => resultBody(4, '결과가 존재하지 않습니다.');

const PORTAL_NAMES = {
  '01': 'SERVICE ERROR',
  '22': 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR',
  '30': 'SERVICE_KEY_IS_NOT_REGISTERED_ERROR',
} as const;

/** A portal gateway error (sent with HTTP 200), XML by default; the name sits in returnAuthMsg as in the classic form. */
export function portalErrorBody(code: keyof typeof PORTAL_NAMES, format: 'xml' | 'json' = 'xml'): string {
  const header = { errMsg: 'SERVICE ERROR', returnAuthMsg: PORTAL_NAMES[code], returnReasonCode: code };
  if (format === 'json') return JSON.stringify({ OpenAPI_ServiceResponse: { cmmMsgHeader: header } });
  const fields = Object.entries(header)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return `<OpenAPI_ServiceResponse><cmmMsgHeader>${fields}</cmmMsgHeader></OpenAPI_ServiceResponse>`;
}

/** One vehicle of an arrival item; omitted optional fields are sent as "" like GBIS does. */
export type MockVehicle = {
  predictTimeSec: number;
  locationNo: number;
  plateNo: string;
  vehId?: string;
  stationName?: string;
  lowPlate?: number;
  remainSeatCnt?: number;
  crowded?: number;
  stateCd?: number;
};

const numeric = (value: string) => (/^\d+$/.test(value) ? Number(value) : value);

/**
 * A getBusArrivalListv2 item at MOCK_ARRIVAL_STOP for `route`'s pass `staOrder` (default the up
 * pass of the crossroads) with 0–2 vehicles: numbers as JSON numbers, routeName a number when
 * numeric, predictTime in whole minutes, flag PASS and "" fields when no bus is coming.
 */
export function arrivalItem(
  route: Pick<RouteConfig, 'routeId' | 'routeNo'>,
  vehicles: MockVehicle[],
  staOrder = CROSSROADS_SEQ,
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    flag: vehicles.length > 0 ? 'RUN' : 'PASS',
    routeDestName: '한국외대',
    routeId: numeric(route.routeId),
    routeName: numeric(route.routeNo),
    routeTypeCd: 11,
    staOrder,
    stationId: numeric(MOCK_ARRIVAL_STOP.stationId),
  };
  ([1, 2] as const).forEach((suffix, index) => {
    const v = vehicles[index];
    Object.assign(item, {
      [`predictTime${suffix}`]: v ? Math.ceil(v.predictTimeSec / 60) : '',
      [`predictTimeSec${suffix}`]: v ? v.predictTimeSec : '',
      [`locationNo${suffix}`]: v ? v.locationNo : '',
      [`plateNo${suffix}`]: v ? v.plateNo : '',
      [`vehId${suffix}`]: v?.vehId ? numeric(v.vehId) : '',
      [`stationNm${suffix}`]: v?.stationName ?? '',
      [`lowPlate${suffix}`]: v?.lowPlate ?? '',
      [`remainSeatCnt${suffix}`]: v?.remainSeatCnt ?? '',
      [`crowded${suffix}`]: v?.crowded ?? '',
      [`stateCd${suffix}`]: v?.stateCd ?? '',
    });
  });
  return item;
}

/** A getBusLocationListv2 item. */
export function locationItem(fields: {
  routeId: string;
  stationId: string;
  stationSeq: number;
  plateNo: string;
  vehId?: string;
  remainSeatCnt?: number;
  stateCd?: number;
}): Record<string, unknown> {
  return {
    crowded: 0,
    lowPlate: 0,
    plateNo: fields.plateNo,
    remainSeatCnt: fields.remainSeatCnt ?? -1,
    routeId: numeric(fields.routeId),
    routeTypeCd: 11,
    stateCd: fields.stateCd ?? 1,
    stationId: numeric(fields.stationId),
    stationSeq: fields.stationSeq,
    vehId: fields.vehId ? numeric(fields.vehId) : '',
  };
}

// ── live data ─────────────────────────────────────────────────────────────────────────────────

const SEC_PER_STOP = 120;

/** stationId of a stop sequence: the campus stops of transit-config where known, else fake. */
function stationIdAt(seq: number): string {
  const campus =
    seq < CROSSROADS_SEQ + UP_STOPS.length
      ? UP_STOPS[seq - CROSSROADS_SEQ]
      : DOWN_STOPS[seq - CROSSROADS_SEQ - UP_STOPS.length + 1];
  return campus?.stationId || `99${String(seq).padStart(7, '0')}`;
}

/** Phase of a route at `now`: seconds since its last bus passed the crossroads, and its headway. */
function phase(route: RouteConfig, index: number, now: Date) {
  const headwaySec = route.timetable.weekday.minHeadwayMin * 60;
  const sinceLast = (Math.floor(now.getTime() / 1000) + index * 211) % headwaySec;
  return { headwaySec, sinceLast };
}

/** The next two buses of each route at the crossroads: predictTimeSec counts down with `now`. */
export function liveArrivalItems(now: Date, routes: readonly RouteConfig[] = MOCK_ROUTES): Record<string, unknown>[] {
  return routes.map((route, index) => {
    const { headwaySec, sinceLast } = phase(route, index, now);
    const vehicles = [0, 1].map((k): MockVehicle => {
      const predictTimeSec = headwaySec - sinceLast + k * headwaySec;
      return {
        predictTimeSec,
        locationNo: Math.max(1, Math.ceil(predictTimeSec / SEC_PER_STOP)),
        plateNo: `경기7${k}바${route.routeNo}`,
        vehId: `99${route.routeNo}00${k}`,
        stationName: `정류소 ${CROSSROADS_SEQ - Math.ceil(predictTimeSec / SEC_PER_STOP)}`,
        remainSeatCnt: 20 + k * 5,
      };
    });
    return arrivalItem(route, vehicles);
  });
}

/** The vehicles of one route: the two coming buses plus the last one, inside the campus section. */
export function liveLocationItems(
  routeId: string,
  now: Date,
  routes: readonly RouteConfig[] = MOCK_ROUTES,
): Record<string, unknown>[] {
  const index = routes.findIndex((route) => route.routeId === routeId);
  if (index < 0) return [];
  const route = routes[index];
  const { headwaySec, sinceLast } = phase(route, index, now);
  const buses = [
    { k: 0, seq: CROSSROADS_SEQ - Math.ceil((headwaySec - sinceLast) / SEC_PER_STOP) },
    { k: 1, seq: CROSSROADS_SEQ - Math.ceil((2 * headwaySec - sinceLast) / SEC_PER_STOP) },
    { k: 2, seq: CROSSROADS_SEQ + Math.floor(sinceLast / SEC_PER_STOP) },
  ];
  return buses
    .filter((bus) => bus.seq >= 1 && bus.seq < CROSSROADS_SEQ + UP_STOPS.length + DOWN_STOPS.length - 1)
    .map((bus) =>
      locationItem({
        routeId,
        stationId: stationIdAt(bus.seq),
        stationSeq: bus.seq,
        plateNo: `경기7${bus.k}바${route.routeNo}`,
        vehId: `99${route.routeNo}00${bus.k}`,
      }),
    );
}

// ── answering ─────────────────────────────────────────────────────────────────────────────────

/** One call as GBIS sees it: the operation (last path segment) and the query parameters. */
export type GbisCall = { operation: string; params: Record<string, string> };
/** An answer as GBIS sends it: HTTP status and raw body. */
export type GbisReply = { status: number; body: string };
export type GbisAnswer = (call: GbisCall) => GbisReply | Promise<GbisReply>;

const ok = (body: string): GbisReply => ({ status: 200, body });

const operationOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Answers like a healthy GBIS: live arrivals at MOCK_ARRIVAL_STOP (resultCode 4 elsewhere), live
 * vehicles for MOCK_ROUTES (4 for other routes), resultCode 2 without the required parameter,
 * portal error 30 without a serviceKey, HTTP 404 for other operations.
 */
export function liveAnswer(clock: () => Date = () => new Date()): GbisAnswer {
  return ({ operation, params }) => {
    if (!params.serviceKey) return ok(portalErrorBody('30'));
    const missing = ok(resultBody(2, '필수 요청 Parameter 가 존재하지 않습니다.'));
    if (operation === operationOf(GBIS_PATHS.arrivalList)) {
      if (!params.stationId) return missing;
      return ok(
        params.stationId === MOCK_ARRIVAL_STOP.stationId ? arrivalListBody(liveArrivalItems(clock())) : noResultBody(),
      );
    }
    if (operation === operationOf(GBIS_PATHS.locationList)) {
      if (!params.routeId) return missing;
      const items = liveLocationItems(params.routeId, clock());
      return ok(items.length > 0 ? locationListBody(items) : noResultBody());
    }
    return { status: 404, body: 'Not Found' };
  };
}

/** GBIS calls per quota dataset (gbis.md, Quotas): arrival operations and location operations. */
export function countCalls(calls: readonly GbisCall[]): DatasetCalls {
  return {
    arrivals: calls.filter((call) => call.operation.startsWith('getBusArrival')).length,
    locations: calls.filter((call) => call.operation.startsWith('getBusLocation')).length,
  };
}

/** Reads a call from a request URL; the operation is the last path segment. */
export function callOf(url: URL): GbisCall {
  return { operation: operationOf(url.pathname), params: Object.fromEntries(url.searchParams) };
}

/**
 * msw handlers for GBIS under `baseUrl` (default GBIS_TEST_BASE_URL), answering with `answer`
 * (default liveAnswer()) and logging every call. `answerWith` swaps the answer (e.g. a quota error),
 * `reset` clears the log and restores the default.
 */
export function createGbisMock(options: { baseUrl?: string; answer?: GbisAnswer } = {}) {
  const baseUrl = options.baseUrl ?? GBIS_TEST_BASE_URL;
  const initial = options.answer ?? liveAnswer();
  let answer = initial;
  const log: GbisCall[] = [];
  const handlers = [
    http.get(`${baseUrl}/*`, async ({ request }) => {
      const call = callOf(new URL(request.url));
      log.push(call);
      const reply = await answer(call);
      return new HttpResponse(reply.body, {
        status: reply.status,
        headers: { 'content-type': contentTypeOf(reply.body) },
      });
    }),
  ];
  return {
    baseUrl,
    handlers,
    calls: (): GbisCall[] => [...log],
    counts: (): DatasetCalls => countCalls(log),
    answerWith(next: GbisAnswer) {
      answer = next;
    },
    reset() {
      log.length = 0;
      answer = initial;
    },
  };
}

/** The content type GBIS would send with a body: XML when it starts with '<', else JSON. */
export function contentTypeOf(body: string): string {
  return body.trimStart().startsWith('<') ? 'application/xml;charset=UTF-8' : 'application/json;charset=UTF-8';
}
