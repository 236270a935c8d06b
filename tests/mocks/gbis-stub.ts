/**
 * A stand-in GBIS server (node:http) for local runs and load tests:
 *
 *   npx tsx tests/mocks/gbis-stub.ts --port 4010 [--mode ok|quota]
 *   GBIS_BASE_URL=http://127.0.0.1:4010/6410000 GBIS_SERVICE_KEY=any …
 *
 * `ok` answers getBusArrivalListv2 / getBusLocationListv2 like a healthy GBIS for routes
 * 1150/1117/1303/1005 (liveAnswer: buses count down with the wall clock); `quota` answers every call
 * with the portal's daily-quota error (code 22, XML, HTTP 200). In-process: startGbisStub().
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { CallsPerPoll } from '../../api/bus/snapshot';
import {
  MOCK_ARRIVAL_STOP,
  MOCK_ROUTES,
  callOf,
  contentTypeOf,
  countCalls,
  liveAnswer,
  portalErrorBody,
  type GbisCall,
  type GbisReply,
} from './gbis';

export type GbisStubMode = 'ok' | 'quota';

export type GbisStub = {
  /** Base URL to use as GBIS_BASE_URL (ends in /6410000 like the real one). */
  url: string;
  close(): Promise<void>;
  setMode(mode: GbisStubMode): void;
  /** Every call received so far. */
  calls(): GbisCall[];
  /** Calls received so far per quota dataset. */
  counts(): CallsPerPoll;
};

/** Starts the stub on 127.0.0.1:`port` (0 = any free port). */
export async function startGbisStub(options: { port?: number; mode?: GbisStubMode } = {}): Promise<GbisStub> {
  let mode = options.mode ?? 'ok';
  const live = liveAnswer();
  const log: GbisCall[] = [];
  const server = createServer(async (request, response) => {
    const call = callOf(new URL(request.url ?? '/', 'http://stub'));
    log.push(call);
    const reply: GbisReply = mode === 'quota' ? { status: 200, body: portalErrorBody('22') } : await live(call);
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
    calls: () => [...log],
    counts: () => countCalls(log),
  };
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
  if (mode !== 'ok' && mode !== 'quota') throw new Error(`--mode must be ok or quota, not ${mode}`);
  const stub = await startGbisStub({ port: Number(argument('port') ?? 4010), mode });
  console.log(`GBIS stub (${mode}) listening: GBIS_BASE_URL=${stub.url}`);
  process.once('SIGINT', () => void stub.close().then(() => process.exit(0)));
}
