/**
 * `npm run build`: the Remix build (build/index.js, public/build/), the service worker
 * (scripts/build-sw.ts), the production entry bundled to plain JavaScript (server.ts with api/,
 * app/utils and contract/ → build/server.js, packages left as imports: `npm start` runs it with
 * node, without tsx's loader), then a stamp: the SHA-256 of every input file, in
 * build/inputs.sha256. `npm start` runs this with `--if-stale`, which builds only when the inputs
 * differ from the stamp (issue 11: a warm start does not rebuild). Inputs: server.ts, api/, app/,
 * contract/, public/ (less what the build writes there, and less the tests), package.json, package-lock.json,
 * remix.config.js, tsconfig.json and the build scripts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const STAMP = 'build/inputs.sha256';
const INPUT_DIRS = ['api', 'app', 'contract', 'public'];
const INPUT_FILES = [
  'server.ts',
  'package.json',
  'remix.config.js',
  'tsconfig.json',
  'package-lock.json',
  'scripts/build.ts',
  'scripts/build-sw.ts',
];
/** Tests sit beside the modules; the build leaves them out (remix.config.js ignoredRouteFiles). */
const TEST_FILE = /\.test\.tsx?$/;
/** What the build itself writes under public/. */
const OUTPUTS = new Set(['public/build', 'public/sw.js', 'public/offline.html']);

function inputFiles(): string[] {
  const files = [...INPUT_FILES];
  for (const dir of INPUT_DIRS) {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name);
      const output = [...OUTPUTS].some((out) => path === out || path.startsWith(`${out}/`));
      if (entry.isFile() && !output && !TEST_FILE.test(path)) {
        files.push(path);
      }
    }
  }
  return files.sort();
}

/** SHA-256 (hex) over the input files' paths and contents. */
function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of inputFiles()) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const hash = inputsHash();
if (process.argv.includes('--if-stale') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) {
  console.log('[build] up to date with the sources: not rebuilt.');
} else {
  execFileSync('npx', ['remix', 'build'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-sw.ts'], { stdio: 'inherit' });
  await build({
    entryPoints: ['server.ts'],
    outfile: 'build/server.js',
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
    console.error('[build] the build changed its own inputs: add what it writes to OUTPUTS in scripts/build.ts');
    process.exit(1);
  }
  writeFileSync(STAMP, hash);
}
