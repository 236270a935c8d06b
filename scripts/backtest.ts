/**
 * `npm run backtest -- [--days 14] [--history FILE.csv] [--json] [--predictions-out OUT.csv]
 * [--seen-after SEC | --key CALLS]`: how well the departure predictions would have done on the last
 * N service days (method and metrics: api/bus/predictions/backtest.ts).
 *
 * Cadence (how soon the live estimate learns that a bus left: backtest.ts Cadence): by default
 * the poll plan of a development key (1,000 calls a day per dataset), and the estimate's ETA score
 * at the ideal cadence (seen as it leaves) is printed beside it; --seen-after SEC models a fixed
 * delay, --key CALLS the poll plan of a key of that size. The running server's report (below) is
 * at the server's own cadence.
 *
 * History: with --history, a CSV of observed departures (columns routeNo,departedAt[,arrivedAt],
 * ISO 8601 with offset). Otherwise the database the api uses (DATABASE_URL, or PGlite under
 * DATA_DIR) for the feed BUS_FEED; a demo database without departures is back-filled first, as the
 * api does on start. The timetables scored are those the api uses: with BUS_FEED=gbis the saved
 * setup's (env > database > defaults, docs/gbis.md §Setup page), else the defaults. While the server holds DATA_DIR (the embedded database has one owner), the
 * running server computes it (GET /api/admin/backtest over its local socket; days ≤ 28), with its
 * own "today". "Today" is the api's: CLOCK_START, when set, moves it. Prints a table, or the
 * report as JSON with --json. --predictions-out also writes what the history part predicted for each
 * test day (backtest-csv.ts predictionsCsv: routeNo,serviceDate,predictedAt,lowerAt,upperAt, the
 * last two the 80 % range, empty for a timetable estimate), for anyone's own scoring; it needs the
 * history here (--history, or a DATA_DIR no server holds).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { backtest, DEVELOPMENT_KEY_CADENCE, type Cadence } from '../api/bus/predictions/backtest';
import { backfillDemoHistory, loadDepartures } from '../api/bus/predictions/departures/store';
import { inThreadJobs } from '../api/bus/predictions/jobs';
import { HISTORY_WINDOW_DAYS, type DayPlan, type ObservedDeparture } from '../api/bus/predictions/day-plan';
import { openDatabase } from '../api/db/client';
import { overridesOf, transitIdsFromDatabase } from '../api/bus/feed/gbis/setup-store';
import { transitIdsNow, type RouteConfig } from '../api/bus/feed/transit-config';
import { DataDirBusyError } from '../api/db/data-dir-lock';
import { BacktestReportSchema, type BacktestReport } from '../contract/admin';
import { parseApiEnv } from '../api/env';
import { apiClock } from '../api/runtime';
import { parseHistoryCsv, predictionsCsv } from './backtest-csv';
import { formatBacktestTable } from './backtest-table';
import { parseCli } from './cli';
import { askRunningServer } from './local-api';
import { addServiceDays, serviceClock } from '../api/time';

const USAGE =
  'Usage: npm run backtest -- [--days 14] [--history FILE.csv] [--json] [--predictions-out OUT.csv] ' +
  '[--seen-after SEC | --key CALLS]';
const values = parseCli(USAGE, {
  days: { type: 'string', default: '14' },
  history: { type: 'string' },
  json: { type: 'boolean', default: false },
  'predictions-out': { type: 'string' },
  'seen-after': { type: 'string' },
  key: { type: 'string' },
});
const parsedDays = z.coerce.number().int().min(1).max(366).safeParse(values.days);
if (!parsedDays.success) {
  console.error(`--days must be a whole number from 1 to 366, got "${values.days}"`);
  process.exit(2);
}
const days = parsedDays.data;

/** The cadence asked for, or null for the default (the development key's, with the ideal beside it). */
function cadenceAsked(): Cadence | null {
  if (values['seen-after'] !== undefined && values.key !== undefined) {
    console.error(`--seen-after and --key are two cadences: give one.\n${USAGE}`);
    process.exit(2);
  }
  const number = (name: string, text: string, min: number) => {
    const parsed = z.coerce.number().int().min(min).max(86_400_000).safeParse(text);
    if (parsed.success) return parsed.data;
    console.error(`--${name} must be a whole number of at least ${min}, got "${text}"`);
    return process.exit(2);
  };
  if (values['seen-after'] !== undefined) return { seenAfterSec: number('seen-after', values['seen-after'], 0) };
  if (values.key !== undefined) return { dailyQuota: number('key', values.key, 1) };
  return null;
}
const cadence = cadenceAsked();

const env = parseApiEnv();
const now = apiClock(env).now();
const today = serviceClock(now).serviceDate;

/**
 * The report of the running server that holds DATA_DIR: GET /api/admin/backtest over its local
 * socket (api/runtime.ts LOCAL_API_SOCKET), with the service token it keeps under DATA_DIR.
 * @throws when the server answers an error (its message: e.g. days over HISTORY_WINDOW_DAYS).
 */
async function reportFromRunningServer(): Promise<BacktestReport> {
  return BacktestReportSchema.parse(
    await askRunningServer(env, { method: 'GET', path: `/api/admin/backtest?days=${days}` }),
  );
}

/** The database's history of the feed BUS_FEED, and the routes (timetables) in use with it. */
async function historyFromDatabase(): Promise<{ history: ObservedDeparture[]; routes: readonly RouteConfig[] }> {
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    if (env.BUS_FEED === 'demo')
      await backfillDemoHistory(database.db, {
        seed: env.DEMO_SEED,
        now,
        days: env.DEMO_HISTORY_DAYS,
        jobs: inThreadJobs, // this process serves nothing meanwhile
      });
    const transit = env.BUS_FEED === 'gbis' ? transitIdsFromDatabase(database.db, overridesOf(env)) : transitIdsNow();
    const history = await loadDepartures(database.db, {
      source: env.BUS_FEED,
      fromDate: addServiceDays(today, -(days + HISTORY_WINDOW_DAYS)),
      toDate: addServiceDays(today, -1),
    });
    return { history, routes: (await transit.refresh()).routes };
  } finally {
    await database.close();
  }
}

/** The test days' plans, kept for --predictions-out. */
const plans: DayPlan[] = [];
const onDayPlan = values['predictions-out'] ? (plan: DayPlan) => plans.push(plan) : undefined;

/**
 * The report at `cadence` (the development key's by default), from the CSV, the database, or
 * (DATA_DIR held by the running server) that server; with the default cadence, the estimate's
 * ETA score at the ideal one too (null from the running server).
 */
async function report(): Promise<{ report: BacktestReport; idealEtaScore: number | null }> {
  const scored = async (history: ObservedDeparture[], routes?: readonly RouteConfig[]) => {
    const options = { days, before: today, routes };
    const report = await backtest(history, { ...options, onDayPlan, cadence: cadence ?? DEVELOPMENT_KEY_CADENCE });
    const ideal = cadence ? null : await backtest(history, { ...options, cadence: { seenAfterSec: 0 } });
    return { report, idealEtaScore: ideal?.overall.methods.estimate.etaScore ?? null };
  };
  if (values.history) return scored(parseHistoryCsv(readFileSync(values.history, 'utf8')));
  try {
    const { history, routes } = await historyFromDatabase();
    return await scored(history, routes);
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    if (onDayPlan) {
      throw new Error(
        `${error.message}\n--predictions-out needs the history here: pass --history FILE.csv, or stop the server.`,
      );
    }
    console.error(
      `DATA_DIR is held by the running server (pid ${error.holderPid ?? '?'}): asking it (its own cadence).`,
    );
    const fromServer = reportFromRunningServer().then((report) => ({ report, idealEtaScore: null }));
    return fromServer.catch((cause: unknown) => {
      // No socket: the holder is not the server (another CLI), or a server of an older version.
      throw new Error(`${error.message}\n(${(cause as Error).message})`);
    });
  }
}

const { report: result, idealEtaScore } = await report().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
console.log(values.json ? JSON.stringify(result, null, 2) : formatBacktestTable(result));
if (idealEtaScore !== null) {
  const atKey = result.overall.methods.estimate.etaScore;
  (values.json ? console.error : console.log)(
    `Cadence: a development key's poll plan (1,000 calls a day): estimate ETA ${atKey?.toFixed(1) ?? '-'} %; ` +
      `seen as it leaves (ideal): ${idealEtaScore.toFixed(1)} %.`,
  );
}
if (values['predictions-out']) {
  writeFileSync(values['predictions-out'], predictionsCsv(plans));
  const rows = plans.reduce((sum, plan) => sum + plan.routes.reduce((n, route) => n + route.estimate.length, 0), 0);
  console.error(`${rows} predicted departures of ${plans.length} days written to ${values['predictions-out']}.`);
}
