/**
 * `npm run build`: the Remix build (build/index.js, public/build/), the service worker
 * (scripts/build-sw.ts), the production entries bundled to plain JavaScript (scripts/build-entries.js:
 * server.ts, api/main.ts and the operators' commands, with api/, app/utils, lib/ and contract/ →
 * build/ENTRY.js and build/chunks/, packages left as imports: scripts/start.js runs them with node,
 * without tsx), then the stamp of its inputs (scripts/build-inputs.js), by which scripts/start.js
 * knows it is up to date.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { ENTRIES } from './build-entries.js';
import { inputsHash, STAMP } from './build-inputs.js';

const hash = inputsHash();
execFileSync('npx', ['remix', 'build'], { stdio: 'inherit' });
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-sw.ts'], { stdio: 'inherit' });
rmSync('build/chunks', { recursive: true, force: true });
await build({
  entryPoints: ENTRIES,
  outdir: 'build',
  // What is imported only when configured (S3, GBIS, PostgreSQL), and the code the entries share,
  // stays in chunks, loaded on demand, so that a start loads none of what it does not use.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
console.log(
  `[build] ${Object.keys(ENTRIES)
    .map((name) => `build/${name}.js`)
    .join(', ')} bundled.`,
);
// A file the build writes among its inputs would make every later check stale (a clean clone
// has none of them before its first build): name it here rather than stamp a hash that never matches.
if (inputsHash() !== hash) {
  console.error('[build] the build changed its own inputs: add what it writes to OUTPUTS in scripts/build-inputs.js');
  process.exit(1);
}
writeFileSync(STAMP, hash);
