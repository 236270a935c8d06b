/**
 * The home banner (docs/product.md §2, §3.4 Ad banner, §4.3 Ad banner, §9): two approved web ads rotate every
 * 6 seconds, each is counted once when first shown, and a click opens the shop's page in a new tab
 * through the counting redirect. The ads are applied for and approved through the api.
 */
import { expect, test, type APIRequestContext } from './test';
import { submitAdApplication } from './admin-deployment';
import { ADS_WEB_URL, approve, managedAds, phoneIp } from './ads-deployment';

test.use({ baseURL: ADS_WEB_URL });

/** Applies for a web ad through the api (presign, PUT, submit) and approves it. */
async function approvedWebAd(request: APIRequestContext, title: string, redirectUrl: string, ip: string) {
  await approve(request, 'web', await submitAdApplication(request, { type: 'web', title, ip, redirectUrl }));
}

test('two approved ads rotate every 6 s, are counted when shown, and a click opens the shop in a new tab, counted', async ({
  page,
  context,
  request,
}) => {
  const stamp = Date.now();
  const first = `첫째 가게 ${stamp}`;
  const second = `둘째 가게 ${stamp}`;
  await approvedWebAd(request, first, 'https://first-shop.example/', phoneIp(51));
  await approvedWebAd(request, second, 'https://second-shop.example/menu', phoneIp(52));
  await context.route('https://*.example/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>shop</title>가게' }),
  );

  await page.clock.install();
  await page.goto('/');
  const banner = page.getByRole('region', { name: '광고', exact: true });
  const firstImage = banner.getByRole('img', { name: `광고: ${first}` });
  const secondImage = banner.getByRole('img', { name: `광고: ${second}` });
  await expect(firstImage).toBeVisible();
  await expect(secondImage).toBeHidden();
  expect(await firstImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(350);

  const counts = async (title: string) => (await managedAds(request, 'web')).find((ad) => ad.title === title)!;
  await expect.poll(async () => (await counts(first)).impressions).toBe(1);
  expect((await counts(second)).impressions).toBe(0);

  await page.clock.runFor(6_000);
  await expect(secondImage).toBeVisible();
  await expect(firstImage).toBeHidden();
  await expect.poll(async () => (await counts(second)).impressions).toBe(1);

  const link = banner.getByRole('link', { name: new RegExp(second) });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  const popup = page.waitForEvent('popup');
  await link.click();
  await expect(await popup).toHaveURL('https://second-shop.example/menu');
  await expect.poll(async () => (await counts(second)).clicks).toBe(1);
  expect((await counts(first)).clicks).toBe(0);

  // Back to the first after another 6 s; it is not counted twice on the same day.
  await page.clock.runFor(6_000);
  await expect(firstImage).toBeVisible();
  await page.reload();
  await expect(firstImage).toBeVisible();
  expect((await counts(first)).impressions).toBe(1);
});

test('each new ad slides in, and with reduced motion it changes every 6 s without moving', async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const titles = [`움직임 하나 ${stamp}`, `움직임 둘 ${stamp}`];
  for (const [index, title] of titles.entries()) {
    await approvedWebAd(request, title, 'https://motion-shop.example/', phoneIp(53 + index));
  }
  const banner = page.getByRole('region', { name: '광고', exact: true });
  const visibleSlideAnimation = () =>
    banner.locator('.ad-banner__slide:not([hidden])').evaluate((slide) => getComputedStyle(slide).animationName);

  await page.clock.install();
  await page.goto('/');
  // The rotation's timer starts at hydration: the fake clock must not run before it.
  await expect(page.locator('.countdown')).toContainText('다음 새로고침');
  // The first ad shows without motion; the next one slides in.
  expect(await visibleSlideAnimation()).toBe('none');
  const [shownFirst] = await banner
    .locator('.ad-banner__slide:not([hidden]) img')
    .evaluateAll((images) => images.map((image) => image.getAttribute('alt')));
  await page.clock.runFor(6_000);
  await expect(banner.locator('.ad-banner__slide:not([hidden]) img')).not.toHaveAttribute('alt', shownFirst!);
  expect(await visibleSlideAnimation()).toBe('ad-banner-in');

  await page.emulateMedia({ reducedMotion: 'reduce' });
  const shownBefore = await banner.locator('.ad-banner__slide:not([hidden]) img').getAttribute('alt');
  await page.clock.runFor(6_000);
  await expect(banner.locator('.ad-banner__slide:not([hidden]) img')).not.toHaveAttribute('alt', shownBefore!);
  expect(await visibleSlideAnimation()).toBe('none');
});

test('the click redirect refuses anything but a stored ad, and never takes a URL from the query', async ({
  request,
}) => {
  for (const path of ['/ads/click/999999', '/ads/click/abc', '/ads/click/1?url=https://evil.example/']) {
    const response = await request.get(path, { maxRedirects: 0 });
    if (response.status() === 302) expect(response.headers().location).not.toContain('evil.example');
    else expect(response.status()).toBe(404);
  }
});
