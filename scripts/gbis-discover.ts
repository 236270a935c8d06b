/**
 * `npm run gbis:discover [-- --save]`: the command-line side of the admin page /admin-only/gbis
 * (docs/gbis.md §Setup page). Resolves the GBIS routeIds of our routes, their timetables and up
 * pass of the campus crossroads (upStaOrder), the campus terminus and the stationIds of the
 * progress-line stops (picking rules: api/bus/feed/gbis/discover.ts), prints every candidate and
 * the proposal; with --save, stores the proposal as the setup (audited, actor 'cli'), which the
 * poller reads at its next poll. Env overrides (GBIS_ARRIVAL_STATION_ID, GBIS_ROUTE_IDS) still win.
 *
 * Where it runs: on the database the api uses (DATABASE_URL, or PGlite under DATA_DIR), counting
 * its calls in today's quota like the page does. While the running server holds DATA_DIR (the
 * embedded database has one owner), the server does it instead, over its local socket
 * (api/runtime.ts LOCAL_API_SOCKET, with the service token it keeps under DATA_DIR), with the
 * server's own key and BUS_FEED — the one way to reach a database another process owns.
 *
 * Env: GBIS_SERVICE_KEY (required here; the portal's Encoding or Decoding key), GBIS_BASE_URL,
 * GBIS_DAILY_QUOTA (optional). Costs at most 3 route-dataset calls per route and 6 station searches.
 */
import { gbisHttp } from '../api/bus/feed/gbis/http';
import { runDiscovery } from '../api/bus/feed/gbis/setup-discovery';
import { parseInThread } from '../api/bus/feed/gbis/discover';
import { loadTransitIds, overridesOf, saveGbisConfig } from '../api/bus/feed/gbis/setup-store';
import { openDatabase } from '../api/db/client';
import { DataDirBusyError } from '../api/db/data-dir-lock';
import { parseApiEnv } from '../api/env';
import { apiClock } from '../api/runtime';
import { GbisDiscoverResponseSchema, type GbisDiscovery } from '../contract/gbis';
import { parseCli } from './cli';
import { askRunningServer } from './local-api';

const values = parseCli('Usage: npm run gbis:discover [-- --save]', { save: { type: 'boolean', default: false } });
const env = parseApiEnv();
const now = apiClock(env).now();
const ACTOR = 'cli';

function report({ routes, stops, lines, terminusId, proposal }: GbisDiscovery): void {
  for (const { routeNo, routeId, candidates, termini, upStaOrder } of routes) {
    console.log(
      `\nRoute ${routeNo}: ${routeId ? `routeId ${routeId} (${termini ?? 'no route info'})` : 'AMBIGUOUS — pick one below'}, ` +
        `upStaOrder ${upStaOrder ?? 'UNKNOWN — read the up pass of the campus crossroads off its stops below'}`,
    );
    for (const c of candidates) {
      console.log(
        `  ${c.routeId === routeId ? '*' : ' '} ${c.routeId}  ${c.routeName ?? '?'}  [${c.regionName ?? '?'}]  ` +
          `${c.startStationName ?? '?'} ⟷ ${c.endStationName ?? '?'}`,
      );
    }
  }
  console.log(`\nCampus terminus: ${terminusId ?? 'UNKNOWN — the routes disagree, or none has a campus terminus'}`);
  for (const line of lines) {
    console.log(`\nStops of ${line.routeNo} around its campus terminus (seq ${line.terminusSeq}):`);
    for (const s of line.stations)
      console.log(`    ${String(s.seq).padStart(3)}  ${s.stationId}  ${s.name ?? '?'}${s.turn ? '  (turn)' : ''}`);
  }
  for (const stop of stops) {
    console.log(`\n${stop.direction} ${stop.index} ${stop.name}: ${stop.stationId ?? 'AMBIGUOUS — pick one below'}`);
    for (const c of stop.candidates)
      console.log(
        `  ${c.stationId === stop.stationId ? '*' : ' '} ${c.stationId}  ${c.stationName ?? '?'}  ` +
          `mobileNo ${c.mobileNo ?? '?'}  side ${c.side ?? '?'}`,
      );
  }
  console.log('\nProposal (what --save stores; correct it on /admin-only/gbis):');
  console.log(JSON.stringify(proposal, null, 2));
}

/** Discovery (and --save) on the database here. @throws DataDirBusyError while the server holds DATA_DIR. */
async function onDatabase(): Promise<void> {
  const serviceKey = env.GBIS_SERVICE_KEY;
  if (!serviceKey) {
    console.error(
      'GBIS_SERVICE_KEY is not set. Get a key for the GBIS v2 datasets at data.go.kr and run:\n  GBIS_SERVICE_KEY=… npm run gbis:discover',
    );
    process.exit(1);
  }
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const current = await loadTransitIds(database.db, overridesOf(env));
    const http = gbisHttp({ serviceKey, baseUrl: env.GBIS_BASE_URL, timeoutMs: 10_000 });
    // This process serves nothing: the answers are parsed on its own thread.
    const result = await runDiscovery({
      db: database.db,
      http,
      parse: parseInThread,
      current,
      dailyQuota: env.GBIS_DAILY_QUOTA,
      now,
    });
    if (result.outcome === 'no-budget') {
      throw new Error(
        `Today's quota cannot hold a discovery: spent or reserved by a discovery running now ${JSON.stringify(result.spent)}, ` +
          `needs ${JSON.stringify(result.needed)}.`,
      );
    }
    if (result.outcome === 'failed') {
      throw new Error(
        `GBIS discovery failed (${result.error.kind}) after ${result.callsSpent} calls: ${result.error.message}`,
      );
    }
    report(result.discovery);
    console.log(`\n${result.callsSpent} GBIS calls spent.`);
    if (values.save) {
      await saveGbisConfig(database.db, result.discovery.proposal, ACTOR, now);
      console.log('Saved: the poller uses it from its next poll.');
    }
  } finally {
    await database.close();
  }
}

/** Discovery (and --save) by the running server that holds DATA_DIR. */
async function byServer(): Promise<void> {
  const { discovery, callsSpent } = GbisDiscoverResponseSchema.parse(
    await askRunningServer(env, { method: 'POST', path: '/api/admin/gbis/discover', actor: ACTOR }),
  );
  report(discovery);
  console.log(`\n${callsSpent} GBIS calls spent (by the running server).`);
  if (values.save) {
    await askRunningServer(env, { method: 'PUT', path: '/api/admin/gbis', body: discovery.proposal, actor: ACTOR });
    console.log('Saved: the poller uses it from its next poll.');
  }
}

try {
  await onDatabase().catch(async (error: unknown) => {
    if (!(error instanceof DataDirBusyError)) throw error;
    console.error(`DATA_DIR is held by the running server (pid ${error.holderPid ?? '?'}): asking it.`);
    await byServer();
  });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
