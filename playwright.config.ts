/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; no browser download) against the built
 * app served by server.ts on the embedded defaults: a fresh PGlite directory, the demo feed with a
 * fixed seed, and the api clock started on a weekday morning so buses run whenever CI runs.
 *
 * The ads stories (tests/e2e/ads-*.spec.ts) run against a second deployment with the api apart
 * (API_BASE_URL), so a test can read what was stored through the api with its service token, and
 * the web trusts one proxy hop so each test can be its own phone (X-Forwarded-For) for the api's
 * per-IP rate limits.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { ADS_API_PORT, ADS_WEB_PORT, E2E_SERVICE_TOKEN } from './tests/e2e/ads-deployment';

const PORT = 3100;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'campus-bus-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const adsDataDir = process.env.E2E_ADS_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'campus-bus-e2e-ads-'));
process.env.E2E_ADS_DATA_DIR = adsDataDir;
const common = {
  TZ: 'America/Los_Angeles', // the server must keep KST whatever its zone
  NODE_ENV: 'production',
  BUS_FEED: 'demo',
  DEMO_SEED: '20240604',
  CLOCK_START: '2026-11-23T08:00:00+09:00',
};

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
  webServer: [
    {
      command: 'npx tsx server.ts',
      url: `http://localhost:${PORT}/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: { ...common, PORT: String(PORT), DATA_DIR: dataDir },
    },
    {
      command: 'npx tsx api/main.ts',
      url: `http://127.0.0.1:${ADS_API_PORT}/api/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: { ...common, API_PORT: String(ADS_API_PORT), DATA_DIR: adsDataDir, API_SERVICE_TOKEN: E2E_SERVICE_TOKEN },
    },
    {
      command: 'npx tsx server.ts',
      url: `http://localhost:${ADS_WEB_PORT}/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        ...common,
        PORT: String(ADS_WEB_PORT),
        API_BASE_URL: `http://127.0.0.1:${ADS_API_PORT}`,
        TRUST_PROXY: '1',
        AD_BANK_NAME: '캠퍼스은행',
        AD_BANK_ACCOUNT: '123-456-789012',
        AD_BANK_HOLDER: '외대버스',
      },
    },
  ],
});
