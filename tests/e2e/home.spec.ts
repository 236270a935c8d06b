/**
 * The home screen as a phone sees it, in Debian's Chromium against the built app (demo feed, api
 * clock on a weekday morning): arrival cards, the tabs, and the 4-second refresh. The browser's
 * timers run on Playwright's fake clock, so the countdown is driven, not waited for.
 */
import { expect, test } from '@playwright/test';
import { TimeLeftResponseSchema } from '../../contract/bus';

test('a phone sees live arrival cards, switches tabs instantly, and watches the countdown refresh the data', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');

  const upTab = page.getByRole('tab', { name: '상행' });
  const downTab = page.getByRole('tab', { name: '하행' });
  await expect(upTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('데모 데이터')).toBeVisible();

  const cards = page.getByRole('region', { name: '도착 정보' }).getByRole('listitem');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThan(0);
  await expect(cards.first()).toContainText(/\d+번, (\d+분 후 도착, \d+정거장 전|도착 정보 없음)/);
  const stops = page.getByRole('region', { name: '버스 위치' }).getByRole('listitem');
  await expect(stops.first()).toContainText('외대사거리');

  // Tabs switch without a loader call.
  let loaderCalls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.data')) loaderCalls += 1; // single fetch's loader calls
  });
  await downTab.click();
  await expect(page).toHaveURL(/\?dir=down$/);
  await expect(downTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: '출발 예상 시간' })).toBeVisible();
  await expect(stops.first()).toContainText('파란지붕');
  await upTab.click();
  await expect(upTab).toHaveAttribute('aria-selected', 'true');
  expect(loaderCalls).toBe(0);

  // The countdown runs 00:04 → 00:01, then refreshes through /bus/time-left and starts again.
  // The refresh answer is the server's own, with the first bus moved to 3 minutes / 2 stops away
  // so the test can see that what is on screen is the new answer (red at ≤ 4 minutes, docs/product.md §9).
  let refreshes = 0;
  await page.route('**/bus/time-left*', async (route) => {
    const real = TimeLeftResponseSchema.parse(await (await route.fetch()).json());
    refreshes += 1;
    real.data[0].routes[0] = { ...real.data[0].routes[0], time: 3, location: 2, predictTimeSec: 170 };
    await route.fulfill({ json: real });
  });
  const countdown = page.locator('.countdown');
  await expect(countdown).toContainText('00:04');
  await page.clock.runFor(1000);
  await expect(countdown).toContainText('00:03');
  await page.clock.runFor(3000);
  await expect.poll(() => refreshes).toBe(1);
  await expect(countdown).toContainText('00:04');
  await expect(cards.first()).toContainText('3분 후 도착, 2정거장 전');
  await expect(cards.first().locator('.card__time--soon')).toHaveText('3분');
  await expect(page.getByRole('status')).toContainText('데모 데이터');
});

test('a phone with JavaScript off still sees the arrivals and both tabs as links', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('region', { name: '도착 정보' }).getByRole('listitem').first()).toContainText(/\d+번, /);
  await page.getByRole('tab', { name: '하행' }).click();
  await expect(page).toHaveURL(/\?dir=down$/);
  await expect(page.getByRole('tab', { name: '하행' })).toHaveAttribute('aria-selected', 'true');
  await context.close();
});

test('an unknown address shows the 404 page with a way home', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('페이지를 찾을 수 없습니다.')).toBeVisible();
});

test('with no ad yet, the default banner invites shops to advertise, and nothing loads from a third party', async ({
  page,
}) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://localhost:')) foreign.push(request.url());
  });
  await page.goto('/');
  const invite = page.getByRole('region', { name: '광고', exact: true }).getByRole('link');
  await expect(invite).toContainText('이 자리에 가게를 알려보세요');
  await expect(page.getByRole('complementary', { name: '제휴 광고' })).toHaveCount(0);
  await invite.click();
  await expect(page).toHaveURL(/\/ads\/apply$/);
  await expect(page.getByRole('heading', { name: '광고 신청' })).toBeVisible();
  expect(foreign).toEqual([]);
});

test('the app stylesheet comes inline with the document, and stays through client-side navigation', async ({
  page,
}) => {
  const stylesheetRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheetRequests.push(request.url());
  });
  await page.goto('/');
  const header = page.locator('header.site-header');
  await expect(header).toHaveCSS('background-color', 'rgb(255, 105, 180)');
  await expect(page.locator('.countdown')).toContainText('다음 새로고침'); // hydrated
  let dataRequests = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.data')) dataRequests += 1;
  });
  await page.getByRole('link', { name: '자주 묻는 질문' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '자주 묻는 질문' })).toBeVisible();
  expect(dataRequests).toBeGreaterThan(0); // a client-side navigation, not a new document
  await expect(header).toHaveCSS('background-color', 'rgb(255, 105, 180)');
  await expect(page.locator('head style')).toHaveCount(1);
  expect(stylesheetRequests).toEqual([]);
});
