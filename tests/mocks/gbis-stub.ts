/**
 * A stand-in GBIS server (node:http) for local runs and load tests:
 *
 *   npx tsx tests/mocks/gbis-stub.ts --port 4010 [--mode ok|quota|key|error500|hang|…]
 *   GBIS_BASE_URL=http://127.0.0.1:4010/6410000 GBIS_SERVICE_KEY=any …
 *
 * `ok` answers getBusArrivalListv2 / getBusLocationListv2 like a healthy GBIS for routes
 * 1150/1117/1303/1005 (liveAnswer: buses count down with the wall clock), and discovery's route
 * and stop lookups (gbis-discovery.ts); the other modes (GbisStubMode) answer every call with one
 * fault. In-process: startGbisStub().
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { GbisSource, type GbisSourceOptions } from '../../api/bus/feed/gbis/source';
import type { DatasetCalls } from '../../api/bus/feed/snapshot';
import type { RouteConfig } from '../../api/bus/feed/transit-config';
import { discoveryReply } from './gbis-discovery';
import {
  MOCK_ARRIVAL_STOP,
  MOCK_ROUTES,
  arrivalListBody,
  mockIds,
  callOf,
  contentTypeOf,
  countCalls,
  liveAnswer,
  noResultBody,
  portalErrorBody,
  type GbisAnswer,
  type GbisCall,
  type GbisReply,
} from './gbis';

/**
 * How the stub answers every call:
 * - ok: like a healthy GBIS (discoveryReply, else liveAnswer);
 * - quota / key: the portal's daily-quota (22) or unregistered-key (30) error, XML with HTTP 200;
 * - error500: HTTP 500 with an HTML page;
 * - hang: no answer until the stub closes (the caller's time limit cuts it);
 * - truncated: a healthy JSON body cut in half;
 * - html: HTTP 200 with an HTML page that echoes the query, service key included (a firewall's
 *   "request rejected" page);
 * - noHeader: JSON with a body and no msgHeader;
 * - noResult: GBIS's "no result" (resultCode 4), as at night when no bus runs;
 * - huge: a healthy-looking JSON body of 3 MB.
 */
export const GBIS_STUB_MODES = [
  'ok',
  'quota',
  'key',
  'error500',
  'hang',
  'truncated',
  'html',
  'noHeader',
  'noResult',
  'huge',
] as const;
export type GbisStubMode = (typeof GBIS_STUB_MODES)[number];

export type GbisStub = {
  /** Base URL to use as GBIS_BASE_URL (ends in /6410000 like the real one). */
  url: string;
  close(): Promise<void>;
  setMode(mode: GbisStubMode): void;
  /** Every answer waits this long first (0 by default). */
  setDelay(ms: number): void;
  /** Every call received so far (counted on arrival, answered or not). */
  calls(): GbisCall[];
  /** Calls received so far per quota dataset. */
  counts(): DatasetCalls;
  /** When each arrival-list call arrived, by the stub's clock (ms since the epoch). */
  pollTimes(): number[];
};

let hugeBody: string | undefined;

const HTML_PAGE = '<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>';

async function replyIn(
  mode: Exclude<GbisStubMode, 'hang'>,
  call: GbisCall,
  live: GbisAnswer,
  query: string,
): Promise<GbisReply> {
  switch (mode) {
    case 'ok':
      return live(call);
    case 'quota':
      return { status: 200, body: portalErrorBody('22') };
    case 'key':
      return { status: 200, body: portalErrorBody('30') };
    case 'error500':
      return { status: 500, body: HTML_PAGE };
    case 'truncated': {
      const { body } = await live(call);
      return { status: 200, body: body.slice(0, Math.floor(body.length / 2)) };
    }
    case 'html':
      return { status: 200, body: `<html><body><h1>Request rejected</h1><p>${query}</p></body></html>` };
    case 'noHeader':
      return { status: 200, body: JSON.stringify({ response: { msgBody: { busArrivalList: [] } } }) };
    case 'noResult':
      return { status: 200, body: noResultBody() };
    case 'huge':
      return { status: 200, body: (hugeBody ??= arrivalListBody([{ pad: 'x'.repeat(3 * 1024 * 1024) }])) };
  }
}

/**
 * Starts the stub on 127.0.0.1:`port` (0 = any free port); `clock` drives the ok mode's buses
 * (default: the wall clock); `knownRoutes` are the routes its route search finds (default MOCK_ROUTES).
 */
export async function startGbisStub(
  options: {
    port?: number;
    mode?: GbisStubMode;
    clock?: () => Date;
    knownRoutes?: readonly RouteConfig[];
    /** What mode ok answers the polls' calls with; default liveAnswer(clock). */
    answer?: GbisAnswer;
  } = {},
): Promise<GbisStub> {
  let mode = options.mode ?? 'ok';
  let delayMs = 0;
  const clock = options.clock ?? (() => new Date());
  const poll = options.answer ?? liveAnswer(clock);
  const live: GbisAnswer = (call) => discoveryReply(call, options.knownRoutes) ?? poll(call);
  const log: GbisCall[] = [];
  const pollTimes: number[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    const call = callOf(url);
    log.push(call);
    if (countCalls([call]).arrivals === 1) pollTimes.push(clock().getTime());
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (mode === 'hang') return; // closeAllConnections ends it
    const reply = await replyIn(mode, call, live, url.search);
    response.writeHead(reply.status, { 'content-type': contentTypeOf(reply.body) }).end(reply.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/6410000`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // keep-alive sockets would hold close() for seconds
      }),
    setMode(next) {
      mode = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    calls: () => [...log],
    counts: () => countCalls(log),
    pollTimes: () => [...pollTimes],
  };
}

/** A GbisSource on `stub` with the mock routes and arrival stop (key 'stub-key'). */
export function gbisStubSource(
  stub: Pick<GbisStub, 'url'>,
  options: Pick<GbisSourceOptions, 'logger' | 'timeoutMs'> = {},
): GbisSource {
  return new GbisSource({
    serviceKey: 'stub-key',
    baseUrl: stub.url,
    ids: mockIds(),
    ...options,
  });
}

/** The api's env (api/env.ts) for BUS_FEED=gbis against `stub`, with the mock routes' ids. */
export function gbisStubEnv(stub: Pick<GbisStub, 'url'>): Record<string, string> {
  return {
    BUS_FEED: 'gbis',
    GBIS_SERVICE_KEY: 'stub-key',
    GBIS_BASE_URL: stub.url,
    GBIS_ROUTE_IDS: MOCK_ROUTES.map((route) => `${route.routeNo}=${route.routeId}`).join(','),
    GBIS_ARRIVAL_STATION_ID: MOCK_ARRIVAL_STOP.stationId,
  };
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mode = argument('mode') ?? 'ok';
  if (!GBIS_STUB_MODES.includes(mode as GbisStubMode)) {
    throw new Error(`--mode must be one of ${GBIS_STUB_MODES.join(', ')}, not ${mode}`);
  }
  const stub = await startGbisStub({ port: Number(argument('port') ?? 4010), mode: mode as GbisStubMode });
  console.log(`GBIS stub (${mode}) listening: GBIS_BASE_URL=${stub.url}`);
  process.once('SIGINT', () => void stub.close().then(() => process.exit(0)));
}
