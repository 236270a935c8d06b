/**
 * The installable app in Debian's Chromium against the production build (`npm run
 * build`, which writes public/sw.js): the manifest and its icons, the service worker registering
 * under the CSP, and a phone that lost its connection after one visit: the offline page, and no
 * bus data answered from a cache.
 */
import { expect, test, type APIRequestContext, type Page } from './test';

/** Width and height of a PNG, read from its IHDR chunk (bytes 16–23, big-endian). */
function pngSize(body: Buffer): string {
  expect(body.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`;
}

async function expectPng(request: APIRequestContext, src: string, sizes: string): Promise<void> {
  const response = await request.get(src);
  expect(response.status(), src).toBe(200);
  expect(response.headers()['content-type'], src).toBe('image/png');
  expect(pngSize(await response.body()), src).toBe(sizes);
}

/** The path and query of every request the page's caches hold. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        const url = new URL(request.url);
        urls.push(url.pathname + url.search);
      }
    }
    return urls;
  });
}

test('the manifest makes the app installable: name, theme, standalone, and icons of their declared sizes', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBe('/manifest.webmanifest');
  const response = await request.get(manifestHref!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = JSON.parse(await response.text()) as {
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({
    name: '외대 버스',
    short_name: expect.any(String),
    lang: 'ko',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#ff69b4',
    background_color: '#ffe4ef',
  });
  expect(manifest.icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of manifest.icons) {
    expect(icon.type).toBe('image/png');
    await expectPng(request, icon.src, icon.sizes);
  }

  // Chromium's own reading: the manifest parses without errors and the page is installable (a
  // Playwright context is incognito, which alone keeps Chrome from offering the install).
  const cdp = await page.context().newCDPSession(page);
  expect((await cdp.send('Page.getAppManifest')).errors).toEqual([]);
  const installability = async () =>
    (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
      .map((error) => error.errorId)
      .filter((id) => id !== 'in-incognito');
  await expect.poll(installability).toEqual([]);

  const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  await expectPng(request, appleIcon!, '180x180');
  await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute('content', 'yes');
});

test('the service worker is revalidated on every check, registers under the CSP and controls the page', async ({
  page,
  request,
}) => {
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['cache-control']).toBe('no-cache');
  expect(sw.headers()['content-type']).toContain('javascript');

  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(message.text());
  });
  await page.goto('/');
  const worker = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { state: registration.active?.state, scope: registration.scope };
    });
  await expect.poll(worker).toEqual({ state: 'activated', scope: new URL('/', page.url()).href });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  expect(violations).toEqual([]);
});

test('after one visit, a phone offline sees the offline page, and no bus data comes from a cache', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // Online, through the worker: the bus data and a Remix data request answer, and are not kept.
  const online = await page.evaluate(() =>
    Promise.all(
      ['/bus/time-left', '/_root.data?_routes=routes%2F_index'].map(async (url) => (await fetch(url)).status),
    ),
  );
  expect(online).toEqual([200, 200]);
  const cached = await cachedUrls(page);
  expect(cached.map((url) => url.split('?')[0])).toContain('/offline.html');
  expect(
    cached.filter((url) => /^\/(bus|api|ads|images|admin-only|__manifest)\b|\.data\b|^\/(\?|$)/.test(url)),
  ).toEqual([]);

  await context.setOffline(true);
  const offline = await page.evaluate(() =>
    Promise.all(
      ['/bus/time-left', '/_root.data?_routes=routes%2F_index'].map((url) =>
        fetch(url).then(
          (response) => `answered ${response.status}`,
          () => 'failed',
        ),
      ),
    ),
  );
  expect(offline).toEqual(['failed', 'failed']);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '오프라인 상태입니다' })).toBeVisible();
  await expect(page.getByText('실시간 버스 정보는 인터넷에 연결되어 있어야 볼 수 있습니다.')).toBeVisible();
  // The logo and the app's stylesheet come from the precache too: the header is the app's hotpink one.
  expect(await page.locator('header img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('header.site-header')).toHaveCSS('background-color', 'rgb(255, 105, 180)');

  await context.setOffline(false);
  await page.getByRole('link', { name: '다시 시도' }).click();
  await expect(page.getByRole('tab', { name: '상행' })).toBeVisible();
});

test.describe('in English', () => {
  test.use({ locale: 'en-US' });

  test('an English phone installs the English app, and offline sees the English offline page', async ({
    page,
    context,
    request,
  }) => {
    await page.goto('/');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.en.webmanifest');
    expect(await (await request.get('/manifest.en.webmanifest')).json()).toMatchObject({
      name: 'HUFS Bus',
      lang: 'en',
    });
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
    await context.setOffline(false);
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page.getByRole('tab', { name: 'To campus' })).toBeVisible();
  });
});

test('a Korean phone that chose English sees the English offline page', async ({ page, context }) => {
  // The choice, not the phone's language: the worker keeps the language the site answered in.
  await page.goto('/language/en?back=/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect.poll(() => page.evaluate(async () => (await caches.match('/language'))?.text() ?? null)).toBe('en');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await context.setOffline(false);
});

test.describe('on an iPhone', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  });

  test('Safari shows the add-to-home-screen steps after the page, covering nothing, until closed for good', async ({
    page,
  }) => {
    await page.goto('/');
    const hint = page.getByRole('region', { name: '홈 화면에 외대 버스 추가' });
    await expect(hint.getByRole('listitem')).toHaveText([
      'Safari의 공유 버튼을 누르세요.',
      '‘홈 화면에 추가’를 누르세요.',
    ]);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);

    // A card inside the 390px frame after the page's last link, over nothing: every arrival card on
    // the first screen is what a tap at the middle of its shown part reaches.
    const cards = page.getByRole('region', { name: '도착 정보' }).getByRole('listitem');
    const reached = await cards.evaluateAll((items) =>
      items.flatMap((item) => {
        const box = item.getBoundingClientRect();
        const shown = { top: Math.max(box.top, 0), bottom: Math.min(box.bottom, window.innerHeight) };
        if (shown.bottom <= shown.top) return [];
        const hit = document.elementFromPoint(box.left + box.width / 2, (shown.top + shown.bottom) / 2);
        return [item.contains(hit)];
      }),
    );
    expect(reached.length).toBeGreaterThanOrEqual(2);
    expect(reached).toEqual(reached.map(() => true));
    const sheet = (await hint.boundingBox())!;
    expect(sheet.width).toBeLessThanOrEqual(390);
    const lastLink = page.getByRole('navigation', { name: '바로가기' }).getByRole('link').last();
    const link = (await lastLink.boundingBox())!;
    expect(link.y + link.height).toBeLessThanOrEqual(sheet.y);

    await hint.getByRole('button', { name: '설치 안내 닫기' }).click();
    await expect(hint).toBeHidden();
    await page.reload();
    // Hydrated (the countdown runs), and still no hint.
    await expect(page.locator('.countdown')).toContainText('00:03');
    await expect(hint).toBeHidden();
  });
});
