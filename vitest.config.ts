import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tests/setup/sequencer';

export default defineConfig({
  resolve: {
    alias: {
      '~': fileURLToPath(new URL('./app', import.meta.url)),
    },
  },
  test: {
    globals: true,
    include: ['{api,app,contract,lib,tests,scripts}/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    // Business time is KST whatever the server's zone: run every test in a zone far from it.
    env: { TZ: 'America/Los_Angeles' },
    // Most files wait on sockets, child processes and databases rather than the CPU: two workers on
    // a 2-core machine (vitest's default there is one) take the suite from ~440 s to ~290–370 s.
    maxWorkers: 2,
    minWorkers: 1,
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
