/**
 * The production entries `npm run build` bundles into build/ENTRY.js (scripts/build.ts) and
 * `node scripts/start.js ENTRY` runs (scripts/start.js): the web, the api alone, and the operators'
 * commands. Plain JavaScript, read by both.
 */
export const ENTRIES = {
  server: 'server.ts',
  api: 'api/main.ts',
  'admin-create': 'scripts/admin-create.ts',
  backtest: 'scripts/backtest.ts',
  'gbis-discover': 'scripts/gbis-discover.ts',
};
