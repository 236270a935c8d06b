/**
 * How the production entries run: `node scripts/start.js [ENTRY] [ARGS…]` builds when the sources
 * changed since the last build (scripts/build-inputs.js; it says so, then scripts/build.ts prints a
 * line per step), then runs build/ENTRY.js, plain JavaScript, in this process: no tsx, no second
 * Node (docs/benchmarks.md: start time). ENTRY is
 * `server` (the default: `npm start`), `api` (`npm run start:api`), or one of the operators'
 * commands: `admin-create`, `backtest`, `gbis-discover` (scripts/build.ts ENTRIES). ARGS reach the
 * entry as its own process.argv.
 *
 * A rebuild needs the dev dependencies (Remix's compiler, esbuild, tsx): a production install
 * (`npm ci --omit=dev`) runs a build made beforehand and never rebuilds.
 */
import { spawnSync } from 'node:child_process';
import { buildIsFresh } from './build-inputs.js';
import { ENTRIES } from './build-entries.js';

const [entry = 'server'] = process.argv.splice(2, 1);
if (!Object.hasOwn(ENTRIES, entry)) {
  console.error(`Unknown entry ${JSON.stringify(entry)}: one of ${Object.keys(ENTRIES).join(', ')}.`);
  process.exit(2);
}
if (!buildIsFresh()) {
  // The build's output goes to stderr: an entry's own stdout (backtest --json) stays clean.
  console.error('[start] building the app (first start or sources changed)…');
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: ['ignore', 2, 2] });
  if (built.status !== 0) {
    console.error('[build] failed (without the dev dependencies, run a build made beforehand with `npm run build`).');
    process.exit(built.status || 1);
  }
} else if (entry === 'server' || entry === 'api') {
  console.log('[build] up to date with the sources: not rebuilt.');
}
process.setSourceMapsEnabled(true);
await import(`../build/${entry}.js`);
