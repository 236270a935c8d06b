/**
 * The build stamp (`npm start` does not rebuild when the build is up to date with the
 * sources): the SHA-256 of every input of `npm run build`, kept in build/inputs.sha256. Plain
 * JavaScript, so that `npm start` checks it without tsx's loader (0.3 s of every start). `root` is
 * the package root, where npm runs its scripts (the current directory by default).
 *
 * Inputs: server.ts, api/, app/, contract/, drizzle/ (the migrations make the database seed), lib/,
 * public/ (less what the build writes there, and less the tests), the operators' commands the build
 * bundles (scripts/build-entries.js) and what they import from scripts/, package.json,
 * package-lock.json, remix.config.js, tsconfig.json and the build scripts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const STAMP = 'build/inputs.sha256';
export const INPUT_DIRS = ['api', 'app', 'contract', 'drizzle', 'lib', 'public'];
export const INPUT_FILES = [
  'server.ts',
  'package.json',
  'remix.config.js',
  'tsconfig.json',
  'package-lock.json',
  'scripts/build.ts',
  'scripts/build-entries.js',
  'scripts/build-inputs.js',
  'scripts/build-sw.ts',
  'scripts/admin-create.ts',
  'scripts/backtest.ts',
  'scripts/backtest-csv.ts',
  'scripts/backtest-table.ts',
  'scripts/gbis-discover.ts',
  'scripts/cli.ts',
  'scripts/local-api.ts',
];
/** Tests sit beside the modules; the build leaves them out (remix.config.js ignoredRouteFiles). */
const TEST_FILE = /\.test\.tsx?$/;
/** What the build itself writes under public/. */
const OUTPUTS = ['public/build', 'public/sw.js', 'public/offline.html', 'public/offline.en.html'];

/**
 * @param {string} root
 * @returns {string[]} the input files, relative to `root`, sorted.
 */
export function inputFiles(root) {
  const files = [...INPUT_FILES];
  for (const dir of INPUT_DIRS) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      const path = relative(root, join(entry.parentPath, entry.name));
      const output = OUTPUTS.some((out) => path === out || path.startsWith(`${out}/`));
      if (entry.isFile() && !output && !TEST_FILE.test(path)) files.push(path);
    }
  }
  return files.sort();
}

/**
 * @param {string} [root]
 * @returns {string} SHA-256 (hex) over the input files' paths and contents.
 */
export function inputsHash(root = '.') {
  const hash = createHash('sha256');
  for (const file of inputFiles(root)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/**
 * @param {string} [root]
 * @returns {boolean} whether build/ was made from the sources as they are now (its stamp matches).
 */
export function buildIsFresh(root = '.') {
  const stamp = join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === inputsHash(root);
}
