import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
