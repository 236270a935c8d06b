/**
 * `npm run build`: the Remix build (build/index.js, public/build/), the service worker
 * (scripts/build-sw.ts), the production entry bundled to plain JavaScript (server.ts with api/,
 * app/utils and contract/ → build/server.js and build/server-chunks/, packages left as imports:
 * `npm start` runs it with node, without tsx's loader), then the stamp of its inputs
 * (scripts/build-inputs.js), by which `npm start` (scripts/start.js) knows it is up to date.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { inputsHash, STAMP } from './build-inputs.js';

const hash = inputsHash();
execFileSync('npx', ['remix', 'build'], { stdio: 'inherit' });
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-sw.ts'], { stdio: 'inherit' });
rmSync('build/server-chunks', { recursive: true, force: true });
await build({
  entryPoints: ['server.ts'],
  outdir: 'build',
  // What the server imports only when configured (S3, GBIS, PostgreSQL) stays in its own chunk,
  // loaded on demand, so that a start loads none of it (issue 11).
  splitting: true,
  chunkNames: 'server-chunks/[name]-[hash]',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
console.log('[build] build/server.js bundled.');
// A file the build writes among its inputs would make every later check stale (a clean clone
// has none of them before its first build): name it here rather than stamp a hash that never matches.
if (inputsHash() !== hash) {
  console.error('[build] the build changed its own inputs: add what it writes to OUTPUTS in scripts/build-inputs.js');
  process.exit(1);
}
writeFileSync(STAMP, hash);
