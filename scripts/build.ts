/**
 * `npm run build`, in four steps, each announced by a `[build]` line: the database seed a new
 * DATA_DIR starts from (api/db/client.ts writePgliteSeed → build/pglite-seed.tar.gz; PGlite's
 * initdb, in a second process, beside the next steps), the Remix build (build/index.js,
 * public/build/, its scripts marked for eager compilation: COMPILE_HINT), the service worker
 * (scripts/build-sw.ts), the production entries bundled to plain JavaScript
 * (scripts/build-entries.js: server.ts, api/main.ts and the operators' commands, and the api's
 * worker files, api/worker-pool.ts WORKERS, with api/, the
 * web's edge and what it uses of app/, lib/ and contract/ → build/ENTRY.js and build/chunks/, packages left as imports:
 * scripts/start.js runs them with node, without tsx); then the stamp of its inputs
 * (scripts/build-inputs.js), by which scripts/start.js knows it is up to date. No npx; the Remix
 * compiler and the service worker run in this process.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
// NOTE: Remix's classic compiler, called as `remix build` calls it (@remix-run/dev's
// dist/cli/commands.js `build` and dist/compiler/build.js), rather than through the CLI: the CLI
// loads Remix's Vite plugin for its vite:* commands whatever the command, and the plugin requires
// vite-node, which loads Vite's deprecated CJS build ("The CJS build of Vite's Node API is
// deprecated" on every build), though the classic compiler (remix.config.js) never uses Vite.
// These modules have no Vite in their imports; @remix-run/dev 2.x has no exports map, and its
// dist/*.d.ts type them.
import { create as createRemixCompiler } from '@remix-run/dev/dist/compiler/compiler.js';
import { createFileWatchCache } from '@remix-run/dev/dist/compiler/fileWatchCache.js';
import { readConfig } from '@remix-run/dev/dist/config.js';
import { logger } from '@remix-run/dev/dist/tux/logger.js';
import { build } from 'esbuild';
import { PGLITE_SEED } from '../api/db/client';
import { WORKERS } from '../api/worker-pool';
import { ENTRIES } from './build-entries.js';
import { inputsHash, STAMP } from './build-inputs.js';

const started = performance.now();
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
const hash = inputsHash();
const entries = [...Object.keys(ENTRIES), ...Object.keys(WORKERS)].map((name) => `build/${name}.js`);

console.log(
  `[build] 1/4 the database seed → ${relative('.', PGLITE_SEED)} (initdb and the migrations, beside the next steps)…`,
);
mkdirSync(dirname(PGLITE_SEED), { recursive: true });
// PGlite's initdb keeps its thread busy for seconds: in a process of its own, it runs beside the
// next steps instead of holding them up.
const seeding = promisify(execFile)(process.execPath, [
  '--import',
  'tsx',
  '--input-type=module',
  '--eval',
  "await (await import('./api/db/client.ts')).writePgliteSeed();",
]);

// What `remix build` does when NODE_ENV is unset.
process.env.NODE_ENV ??= 'production';
console.log(
  `[build] 2/4 the pages: Remix's compiler → build/index.js, public/build/ (NODE_ENV=${process.env.NODE_ENV})…`,
);
const config = await readConfig(process.cwd());
rmSync(config.assetsBuildDirectory, { recursive: true, force: true });
const remix = await createRemixCompiler({
  config,
  options: { mode: process.env.NODE_ENV, sourcemap: false },
  fileWatchCache: createFileWatchCache(),
  logger,
});
try {
  await remix.compile();
} finally {
  // Its esbuild contexts would keep this process alive (the CLI exits instead).
  await remix.dispose();
}

/**
 * V8's explicit compile hint (Chrome 136 and later; a comment to other engines), the first line of
 * each script the browser build wrote: V8 then compiles the whole script on a background thread as
 * it arrives, rather than each function on the main thread when first called. A page runs most of
 * each chunk it loads while it hydrates; unmarked, compiling them was most of the 60–130 ms tasks
 * that evaluated react-dom's chunk and the route modules on Lighthouse's phone (ADR 026).
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
for (const name of readdirSync(config.assetsBuildDirectory, { recursive: true, encoding: 'utf8' })) {
  if (!name.endsWith('.js')) continue;
  const path = join(config.assetsBuildDirectory, name);
  writeFileSync(path, COMPILE_HINT + readFileSync(path, 'utf8'));
}

console.log('[build] 3/4 the service worker and the offline page → public/sw.js, public/offline.html…');
await import('./build-sw');

console.log(`[build] 4/4 the entries → ${entries.join(', ')}…`);
rmSync('build/chunks', { recursive: true, force: true });
await build({
  entryPoints: { ...ENTRIES, ...WORKERS },
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
await seeding;
// A file the build writes among its inputs would make every later check stale (a clean clone
// has none of them before its first build): name it here rather than stamp a hash that never matches.
if (inputsHash() !== hash) {
  console.error('[build] the build changed its own inputs: add what it writes to OUTPUTS in scripts/build-inputs.js');
  process.exit(1);
}
writeFileSync(STAMP, hash);
console.log(`[build] done in ${seconds(started)}.`);
