/**
 * `npm run backtest -- [--days 14] [--history FILE.csv] [--json]`: how well the departure
 * predictions would have done on the last N service days (method and metrics: api/bus/backtest.ts).
 *
 * History: with --history, a CSV of observed departures (columns routeNo,departedAt[,arrivedAt],
 * ISO 8601 with offset). Otherwise the database the api uses (DATABASE_URL, or PGlite under
 * DATA_DIR) for the feed BUS_FEED; a demo database without departures is back-filled first, as the
 * api does on start. "Today" is the api's: CLOCK_START, when set, moves it. Prints a table, or the
 * report as JSON with --json.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { backtest, formatBacktestTable, parseHistoryCsv } from '../api/bus/backtest';
import { backfillDemoHistory, loadDepartures } from '../api/bus/departures';
import { HISTORY_WINDOW_DAYS, type ObservedDeparture } from '../api/bus/predictions';
import { openDatabase } from '../api/db/client';
import { parseApiEnv } from '../api/env';
import { apiClock } from '../api/runtime';
import { addServiceDays, serviceClock } from '../api/time';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '14' },
    history: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const parsedDays = z.coerce.number().int().min(1).max(366).safeParse(values.days);
if (!parsedDays.success) {
  console.error(`--days must be a whole number from 1 to 366, got "${values.days}"`);
  process.exit(2);
}
const days = parsedDays.data;

const env = parseApiEnv();
const now = apiClock(env).now();
const today = serviceClock(now).serviceDate;

async function historyFromDatabase(): Promise<ObservedDeparture[]> {
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    if (env.BUS_FEED === 'demo') await backfillDemoHistory(database.db, { seed: env.DEMO_SEED, now });
    return await loadDepartures(database.db, {
      source: env.BUS_FEED,
      fromDate: addServiceDays(today, -(days + HISTORY_WINDOW_DAYS)),
      toDate: addServiceDays(today, -1),
    });
  } finally {
    await database.close();
  }
}

const history = values.history ? parseHistoryCsv(readFileSync(values.history, 'utf8')) : await historyFromDatabase();
const report = backtest(history, { days: days, before: today });
console.log(values.json ? JSON.stringify(report, null, 2) : formatBacktestTable(report));
