import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tests/setup/sequencer';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const TEST_FOLDERS = ['api', 'app', 'contract', 'lib', 'tests', 'scripts'];
const TEST_FILE = /\.test\.tsx?$/;

/**
 * The test files that need a process of their own: those that render in a DOM
 * (`@vitest-environment`) or replace a module (`vi.mock`), whose state would leak into the next file
 * run in the same process. Found by what a file says, so a new one is placed as it is written.
 */
const isolatedFiles = TEST_FOLDERS.flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => TEST_FILE.test(path) && !path.startsWith('e2e/'))
    .map((path) => `${folder}/${path}`),
).filter((file) => /@vitest-environment|\bvi\.mock\(/.test(readFileSync(join(ROOT, file), 'utf8')));

export default defineConfig({
  resolve: {
    alias: {
      '~': fileURLToPath(new URL('./app', import.meta.url)),
    },
  },
  test: {
    globals: true,
    // Business time is KST whatever the server's zone: run every test in a zone far from it.
    env: { TZ: 'America/Los_Angeles' },
    // Many files wait on timers, sockets and child processes rather than the CPU: on the 2-core
    // machine the suite took 349 s with two workers, 309 s with three and 299 s with four (the load
    // then past 7); three, to leave the timing-sensitive tests some room.
    maxWorkers: 3,
    minWorkers: 1,
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The files that leave nothing behind share their worker's process ('shared'), so a run starts
    // about 20 processes rather than one per file (each a start and its imports); the others keep
    // one each ('isolated').
    projects: [
      { extends: true, test: { name: 'isolated', include: isolatedFiles } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: [`{${TEST_FOLDERS.join(',')}}/**/*.test.{ts,tsx}`],
          exclude: ['tests/e2e/**', 'node_modules/**', ...isolatedFiles],
          isolate: false,
        },
      },
    ],
  },
});
