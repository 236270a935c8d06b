/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; no browser download) against the built
 * app served as production runs it (build/server.js, build/api.js) on the embedded defaults: a
 * fresh PGlite directory, the demo feed with a fixed seed, and the api clock started on a weekday
 * morning so buses run whenever CI runs.
 *
 * The ads stories (tests/e2e/ads-*.spec.ts) run against a second deployment with the api apart
 * (API_BASE_URL), so a test can read what was stored through the api with its service token, and
 * the web trusts one proxy hop so each test can be its own phone (X-Forwarded-For) for the api's
 * per-IP rate limits. The admin stories (tests/e2e/admin*.spec.ts) sign in to that web as the
 * account ADMIN_CREDENTIALS, created with `npm run admin:create` before the api opens the database
 * (the embedded PGlite directory belongs to one process while the api runs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { ADMIN_CREDENTIALS, E2E_SESSION_SECRET } from './tests/e2e/admin-deployment';
import {
  ADS_API_PORT,
  ADS_WEB_PORT,
  API_DOWN_API_PORT,
  API_DOWN_WEB_PORT,
  E2E_KAKAO_SKILL_SECRET,
  E2E_PORT_OFFSET,
  E2E_SERVICE_TOKEN,
} from './tests/e2e/ads-deployment';

const PORT = 3100 + E2E_PORT_OFFSET;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'campus-bus-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
const adsDataDir = process.env.E2E_ADS_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'campus-bus-e2e-ads-'));
process.env.E2E_ADS_DATA_DIR = adsDataDir;
// The config is read again in each worker (which inherits this env): the account is created once.
if (!process.env.E2E_ADMIN_CREATED) {
  execFileSync(process.execPath, ['build/admin-create.js', '--username', ADMIN_CREDENTIALS.username], {
    env: { ...process.env, DATA_DIR: adsDataDir },
    input: ADMIN_CREDENTIALS.password,
    stdio: ['pipe', 'ignore', 'inherit'],
    timeout: 60_000,
  });
  process.env.E2E_ADMIN_CREATED = '1';
}
/**
 * The specs that use the ads deployment (its web, its api, or the admin's helpers on it). They share
 * its state (the ads, the service notice, the admin's account), so they run one at a time, in the
 * 'ads deployment' project, beside the other specs in the 'main deployment' project: two browsers
 * at once, never two on one deployment.
 */
const E2E_DIR = fileURLToPath(new URL('tests/e2e', import.meta.url));
const adsDeploymentSpecs = readdirSync(E2E_DIR)
  .filter((name) => name.endsWith('.spec.ts'))
  .filter((name) =>
    /\bADS_(WEB|API)_URL\b|from '\.\/admin-deployment'/.test(readFileSync(join(E2E_DIR, name), 'utf8')),
  );

const common = {
  TZ: 'America/Los_Angeles', // the server must keep KST whatever its zone
  NODE_ENV: 'production',
  BUS_FEED: 'demo',
  DEMO_SEED: '20240604',
  CLOCK_START: '2026-11-23T08:00:00+09:00',
  // The servers' lines as a person reads them in the run's output (`[web] …`), not JSON.
  LOG_FORMAT: 'pretty',
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'main deployment', testIgnore: adsDeploymentSpecs, workers: 1 },
    { name: 'ads deployment', testMatch: adsDeploymentSpecs, workers: 1 },
  ],
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
      command: 'node build/server.js',
      // Ready: the database is open (the server listens before it is: ADR 025).
      url: `http://localhost:${PORT}/readyz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        ...common,
        PORT: String(PORT),
        DATA_DIR: dataDir,
        KAKAO_SKILL_SECRET: E2E_KAKAO_SKILL_SECRET,
        PUBLIC_BASE_URL: 'https://bus.example',
      },
    },
    {
      command: 'node build/api.js',
      url: `http://127.0.0.1:${ADS_API_PORT}/api/readyz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: { ...common, API_PORT: String(ADS_API_PORT), DATA_DIR: adsDataDir, API_SERVICE_TOKEN: E2E_SERVICE_TOKEN },
    },
    {
      command: 'node build/server.js',
      url: `http://localhost:${ADS_WEB_PORT}/readyz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        ...common,
        PORT: String(ADS_WEB_PORT),
        API_BASE_URL: `http://127.0.0.1:${ADS_API_PORT}`,
        TRUST_PROXY: '1',
        SESSION_SECRET: E2E_SESSION_SECRET,
        API_SERVICE_TOKEN: E2E_SERVICE_TOKEN,
        AD_BANK_NAME: '캠퍼스은행',
        AD_BANK_ACCOUNT: '123-456-789012',
        AD_BANK_HOLDER: '외대버스',
      },
    },
    {
      // The api of this web never runs: every page must still render (tests/e2e/api-down.spec.ts).
      // Its liveness (/healthz) answers 200 'degraded'; its readiness (/readyz) 503.
      command: 'node build/server.js',
      url: `http://localhost:${API_DOWN_WEB_PORT}/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        ...common,
        PORT: String(API_DOWN_WEB_PORT),
        API_BASE_URL: `http://127.0.0.1:${API_DOWN_API_PORT}`,
        SESSION_SECRET: E2E_SESSION_SECRET,
        API_SERVICE_TOKEN: E2E_SERVICE_TOKEN,
      },
    },
  ],
});
