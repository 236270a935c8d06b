/**
 * `npm run screenshots [-- --label NAME | --out DIR]` (after `npm run build`; it builds nothing): a
 * full-page screenshot of every page at a 390 px phone width (docs/product.md §9's frame), once with
 * JavaScript and once without, as `<DIR>/<page>-js.png` and `<page>-nojs.png`, and every public
 * page again on a phone set to English, as `<page>-en-js.png` and `<page>-en-nojs.png`
 * (docs/product.md §1 Languages; DIR defaults to screenshots/NAME, NAME to `latest`; the folder is
 * git-ignored). The expected-times modal is taken
 * as the phone's first screen, since it sits over the page and scrolls inside itself.
 *
 * It serves the build as playwright.config.ts's split deployment does, on a fresh DATA_DIR with the
 * demo feed and the api clock started on a weekday morning: an admin account made with the
 * admin-create entry before the api opens the database, the api (build/api.js) with a service
 * token, and the web (build/server.js) that reaches it over HTTP. The home page is taken once with
 * its default banner; then, through the api, the script seeds what the other pages show: two
 * approved ads (one with a long link, to see long strings wrap), a pending application, and an
 * inquiry. The admin pages are taken signed in (the login form, as a phone would).
 * Debian's Chromium (/usr/bin/chromium) drives the pages through the Playwright library.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { adApplicationBody } from '../tests/setup/ad-application';
import { parseCli } from './cli';
import { measureDataDir, serveForMeasure, type Served } from './serve-for-measure';

const USAGE = 'Usage: npm run screenshots -- [--label NAME] [--out DIR]   (after npm run build)';
const WEB_PORT = 3340;
const API_PORT = 3341;
const SERVICE_TOKEN = 'screenshots-service-token-0123456789abcdef';
const SESSION_SECRET = 'screenshots-session-secret-0123456789abcdef0123456789abcdef012345';
const ADMIN = { username: 'screens-admin', password: 'screens-admin-password-0123' };
/** A link longer than a line of the frame, without a space: it must wrap, not widen the page. */
const LONG_URL = `https://shop.example/menu/${'spring-lunch-special-'.repeat(4)}coupon?campaign=hufs-global-campus-2026`;
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

type Shot = {
  name: string;
  path: string;
  /** The phone's first screen instead of the full page (what sits over the page shows there). */
  viewportOnly?: boolean;
  /** JavaScript only (what shows only with it). */
  jsOnly?: boolean;
  userAgent?: string;
};

const values = parseCli(USAGE, { label: { type: 'string', default: 'latest' }, out: { type: 'string' } });
const outDir = values.out ?? join('screenshots', values.label);
mkdirSync(outDir, { recursive: true });

const common = {
  BUS_FEED: 'demo',
  DEMO_SEED: '20240604',
  CLOCK_START: '2026-11-23T08:00:00+09:00',
  TZ: 'Asia/Seoul',
};
const dataDir = measureDataDir();
execFileSync('node', ['build/admin-create.js', '--username', ADMIN.username], {
  env: { ...process.env, ...common, NODE_ENV: 'production', DATA_DIR: dataDir },
  input: ADMIN.password,
  stdio: ['pipe', 'ignore', 'inherit'],
  timeout: 60_000,
});

const served: Served[] = [];
let browser: Browser | null = null;
try {
  const api = await serveForMeasure({
    port: API_PORT,
    command: ['node', 'build/api.js'],
    path: '/api/healthz',
    dataDir,
    env: { ...common, API_PORT: String(API_PORT), API_SERVICE_TOKEN: SERVICE_TOKEN },
  });
  served.push(api);
  const web = await serveForMeasure({
    port: WEB_PORT,
    command: ['node', 'build/server.js'],
    path: '/healthz',
    env: {
      ...common,
      API_BASE_URL: `http://127.0.0.1:${API_PORT}`,
      API_SERVICE_TOKEN: SERVICE_TOKEN,
      SESSION_SECRET,
      AD_BANK_NAME: '캠퍼스은행',
      AD_BANK_ACCOUNT: '123-456-789012',
      AD_BANK_HOLDER: '외대버스',
    },
  });
  served.push(web);

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const phonesIn = async (locale: Locale, prefix: string) => [
    { suffix: `${prefix}js`, locale, javaScriptEnabled: true, context: await phone(browser!, true, locale) },
    { suffix: `${prefix}nojs`, locale, javaScriptEnabled: false, context: await phone(browser!, false, locale) },
  ];
  const phones = await phonesIn('ko-KR', '');
  const englishPhones = await phonesIn('en-US', 'en-');
  const shoot = async (shots: Shot[], on = phones) => {
    for (const { suffix, locale, javaScriptEnabled, context } of on) {
      for (const shot of shots.filter((each) => javaScriptEnabled || !each.jsOnly)) {
        const shotContext = shot.userAgent ? await phone(browser!, javaScriptEnabled, locale, shot.userAgent) : context;
        await take(shotContext, web.url, shot, join(outDir, `${shot.name}-${suffix}.png`), javaScriptEnabled);
        if (shotContext !== context) await shotContext.close();
      }
    }
  };

  // Before any ad is approved: the default banner that invites shops.
  await shoot([{ name: 'home-default-banner', path: '/' }]);
  await shoot([{ name: 'home-default-banner', path: '/' }], englishPhones);
  const seeded = await seed(`http://127.0.0.1:${API_PORT}`);
  await waitForAccuracy(web.url);
  const publicShots: Shot[] = [
    { name: 'home-up', path: '/' },
    { name: 'home-up-iphone', path: '/', jsOnly: true, userAgent: IPHONE_SAFARI },
    { name: 'home-down', path: '/?dir=down' },
    // As the opener and the filter form link them: at the next departure.
    { name: 'times-all', path: '/?dir=down&times=all#times-next', viewportOnly: true },
    { name: 'times-sorted', path: '/?dir=down&times=all&sort=time#times-next', viewportOnly: true },
    { name: 'times-1150', path: '/?dir=down&times=1150#times-next', viewportOnly: true },
    { name: 'ads-apply', path: '/ads/apply' },
    { name: 'ads-status', path: `/ads/status/${seeded.statusToken}` },
    { name: 'contact', path: '/contact' },
    { name: 'faq', path: '/faq' },
    { name: 'howtouse', path: '/howtouse' },
    { name: 'privacypolicy', path: '/privacypolicy' },
    { name: 'not-found', path: '/no-such-page' },
  ];
  await shoot([...publicShots, { name: 'admin-login', path: '/admin-only/login' }]);
  await shoot(publicShots, englishPhones);
  for (const { context } of englishPhones) await context.close();
  for (const { context } of phones) await signIn(context, web.url);
  await shoot([
    { name: 'admin-home', path: '/admin-only' },
    { name: 'admin-ads-web', path: '/admin-only/ads/web' },
    { name: 'admin-ads-kakao', path: '/admin-only/ads/kakao' },
    { name: 'admin-confirm', path: `/admin-only/ads/web/confirm/${seeded.pendingId}` },
    { name: 'admin-edit-web', path: '/admin-only/ads/edit/web' },
    { name: 'admin-edit-kakao', path: '/admin-only/ads/edit/kakao' },
    { name: 'admin-notice', path: '/admin-only/notice' },
    { name: 'admin-inquiries', path: '/admin-only/inquiries' },
    { name: 'admin-mail', path: '/admin-only/mail' },
    { name: 'admin-feed', path: '/admin-only/feed' },
    { name: 'admin-gbis', path: '/admin-only/gbis' },
    { name: 'admin-audit', path: '/admin-only/audit' },
  ]);
  for (const { context } of phones) await context.close();
  console.log(`Screenshots in ${outDir}`);
} finally {
  await browser?.close();
  for (const server of served.reverse()) await server.stop();
}

/** A phone's language setting: Korean, or English (which the site answers in English). */
type Locale = 'ko-KR' | 'en-US';

/** A 390 × 844 phone (2× pixels) in `locale` and KST, with or without JavaScript. */
function phone(
  browser: Browser,
  javaScriptEnabled: boolean,
  locale: Locale,
  userAgent?: string,
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale,
    timezoneId: 'Asia/Seoul',
    javaScriptEnabled,
    ...(userAgent && { userAgent }),
  });
}

/** Opens `shot` and saves it as `file`; with JavaScript, once hydrated and the loads are done. */
async function take(context: BrowserContext, origin: string, shot: Shot, file: string, javaScriptEnabled: boolean) {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${shot.name}] ${error.message}`));
  await page.goto(origin + shot.path, { waitUntil: 'load' });
  if (javaScriptEnabled) await settle(page);
  await page.screenshot({ path: file, fullPage: !shot.viewportOnly, animations: 'disabled' });
  await page.close();
}

/** Hydrated (Remix's router is up) and no request for half a second, or 5 s at most (the home refreshes every 4 s). */
async function settle(page: Page) {
  await page.waitForFunction(() => '__remixRouter' in window, null, { polling: 100, timeout: 30_000 });
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
}

/** Signs the admin in through the login form; the session cookie is then the context's. */
async function signIn(context: BrowserContext, origin: string) {
  const page = await context.newPage();
  await page.goto(`${origin}/admin-only/login`);
  await page.getByLabel('아이디', { exact: true }).fill(ADMIN.username);
  await page.getByLabel('비밀번호', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: '로그인' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  await page.close();
}

/**
 * Seeds the api as shops and an admin would (docs/product.md §7): a web ad with a long link and a
 * chatbot ad, both approved, a pending web application, and an inquiry.
 * @returns the first ad's status token and the pending application's id.
 */
async function seed(apiUrl: string): Promise<{ statusToken: string; pendingId: number }> {
  const auth = { Authorization: `Bearer ${SERVICE_TOKEN}` };
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(path, apiUrl), init);
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const apply = async (type: 'web' | 'kakao', title: string, redirectUrl: string) => {
    const file = type === 'web' ? 'web-banner-350x100.png' : 'kakao-card-350x175.png';
    const image = readFileSync(new URL(`../tests/fixtures/images/${file}`, import.meta.url));
    const upload = await postJson('/api/s3/presigned-url/image', {
      type,
      extension: 'png',
      byteSize: image.byteLength,
    });
    const { presignedUrl, imageUrl } = (await upload.json()) as { presignedUrl: string; imageUrl: string };
    await call(presignedUrl, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: image });
    const submitted = await postJson(
      `/api/ads/${type}/submit`,
      adApplicationBody({ type, title, redirectUrl, imageUrl }),
    );
    return (await submitted.json()) as { id: number; statusToken: string };
  };
  const approve = (type: 'web' | 'kakao', id: number) =>
    call(`/api/ads/${type}/submit/${id}/approve`, { method: 'POST', headers: auth });

  const cafe = await apply('web', '학교 앞 카페 봄맞이 점심 할인', LONG_URL);
  await approve('web', cafe.id);
  const kakao = await apply('kakao', '기숙사 앞 분식집 음료 서비스', 'https://snack.example/');
  await approve('kakao', kakao.id);
  const pending = await apply('web', '모현 꽃집 졸업 시즌 꽃다발 예약', 'https://flowers.example/');
  await postJson('/api/inquiries', {
    content: '하행 출발 예상 시간이 실제와 5분 정도 차이 나는 것 같아요. 확인 부탁드립니다.',
    email: 'student@example.com',
  });
  return { statusToken: cafe.statusToken, pendingId: pending.id };
}

/**
 * Waits (up to 60 s) until the down tab states its accuracy: the api back-fills the demo history
 * and computes the figure seconds after a first start, and the admin feed page's backtest reads
 * the same history.
 */
async function waitForAccuracy(origin: string) {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    const body = await (await fetch(`${origin}/?dir=down`)).text();
    if (body.includes('지난 2주 동안 예상 출발 시각의 평균 오차는')) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.warn('The accuracy figure is not there after 60 s: the down tab is taken without it.');
}
