/**
 * `npm start`: builds when the sources changed since the last build (scripts/build-inputs.js), then
 * runs the production server (build/server.js) in this process. Plain JavaScript, so that a start
 * with an up-to-date build loads neither tsx nor a second Node (issue 11: warm start).
 */
import { spawnSync } from 'node:child_process';
import { buildIsFresh } from './build-inputs.js';

if (buildIsFresh()) {
  console.log('[build] up to date with the sources: not rebuilt.');
} else {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
process.setSourceMapsEnabled(true);
await import('../build/server.js');
