/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; no browser download) against the built
 * app served by server.ts on the embedded defaults: a fresh PGlite directory, the demo feed with a
 * fixed seed, and the api clock started on a weekday morning so buses run whenever CI runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = 3100;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'campus-bus-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${PORT}`,
    ...devices['Pixel 7'],
    browserName: 'chromium',
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'npx tsx server.ts',
    url: `http://localhost:${PORT}/healthz`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      TZ: 'America/Los_Angeles', // the server must keep KST whatever its zone
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      BUS_FEED: 'demo',
      DEMO_SEED: '20240604',
      CLOCK_START: '2026-11-23T08:00:00+09:00',
    },
  },
});
