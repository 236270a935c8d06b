/**
 * The pages' layout on a 390 px phone (docs/product.md §9's frame), with and without JavaScript, in
 * Debian's Chromium against the built app: Korean words stay whole at a line's end, a long stored
 * URL wraps instead of widening the page, no empty band is kept where nothing comes, and the admin's
 * backtest tables stack into one block per row. The public pages are the main deployment's (no
 * ads: the default banner shows); the admin pages are the ads deployment's, signed in.
 */
import { expect, test, type Page } from '@playwright/test';
import { approve, ADS_WEB_URL, phoneIp } from './ads-deployment';
import { deleteAdsTagged, signIn, submitAdRequest } from './admin-deployment';

const PHONE = { width: 390, height: 844 };
/** The home page without its no-JavaScript reload (every 4 s), which would pull the page from under a measurement. */
const HOME = '/?refresh=off';
const PUBLIC_PAGES = [
  HOME,
  '/?dir=down&refresh=off',
  '/ads/apply',
  '/contact',
  '/faq',
  '/howtouse',
  '/privacypolicy',
  '/no-such-page',
];
/** In the titles this spec approves, so the ads are taken down again after each test. */
const TAG = '배치e2e';
/** A stored link longer than any line of the frame, without a space to break at. */
const LONG_URL = `https://shop.example/menu/${'spring-lunch-special-'.repeat(4)}coupon?campaign=hufs-global-campus-2026`;

test.use({ viewport: PHONE });

/**
 * The Korean words (runs of two or more Hangul syllables) of the page's drawn text that are split
 * across two lines: a word's range has boxes on more than one line.
 */
function splitKoreanWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const split: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/[가-힣]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)),
        );
        if (lines.size > 1) split.push(match[0]);
      }
    }
    return split;
  });
}

/** The page is no wider than the phone: nothing makes it scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('every public page keeps Korean words whole at the end of a line and fits the phone', async ({ page }) => {
      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        await expect(page.locator('body'), path).toHaveCSS('word-break', 'keep-all');
        expect(await splitKoreanWords(page), path).toEqual([]);
        await expectNoSidewaysScroll(page);
      }
      // The default banner's invitation ("… 광고 신청하기") breaks between words too.
      await page.goto(HOME);
      const invite = page.getByRole('region', { name: '광고' }).getByRole('link');
      await expect(invite).toContainText('광고 신청하기');
      await expect(invite).toHaveCSS('word-break', 'keep-all');
    });

    test('the home page keeps no empty band between the last arrival card and the banner', async ({ page }) => {
      await page.goto(HOME);
      const cards = page.getByRole('region', { name: '도착 정보' }).getByRole('listitem');
      await expect(cards.first()).toBeVisible();
      // Read together: with JavaScript a refresh may add or drop a card between two reads.
      const gap = await page.evaluate(() => {
        const last = [...document.querySelectorAll('.home__cards li')].at(-1)!.getBoundingClientRect();
        return document.querySelector('.ad-banner')!.getBoundingClientRect().top - last.bottom;
      });
      expect(gap).toBeCloseTo(16, 0); // the banner's own margin, whatever the number of cards
    });
  });
}

test.describe('the admin pages', () => {
  test.use({ baseURL: ADS_WEB_URL });
  test.afterEach(async ({ request }) => {
    await deleteAdsTagged(request, 'web', TAG);
  });

  for (const javaScriptEnabled of [true, false]) {
    test(`a long stored link wraps inside the phone, words stay whole, and no band sits under the edit page's heading (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
      browser,
      request,
    }) => {
      const ip = phoneIp(javaScriptEnabled ? 71 : 72);
      const title = `${TAG} 긴 링크 ${Date.now()}`;
      const id = await submitAdRequest(request, { type: 'web', title, ip, redirectUrl: LONG_URL });
      await approve(request, 'web', id);
      const context = await browser.newContext({
        baseURL: ADS_WEB_URL,
        viewport: PHONE,
        javaScriptEnabled,
        extraHTTPHeaders: { 'X-Forwarded-For': ip },
      });
      const page = await context.newPage();
      await signIn(page, '/admin-only/ads/edit/web');

      for (const path of ['/admin-only/ads/edit/web', `/admin-only/ads/web/confirm/${id}`]) {
        if (page.url() !== ADS_WEB_URL + path) await page.goto(path);
        const link = page.getByText(LONG_URL, { exact: true });
        await expect(link, path).toBeVisible();
        const box = (await link.boundingBox())!;
        expect(box.x + box.width, path).toBeLessThanOrEqual(PHONE.width);
        expect(box.height, `${path}: the link takes several lines`).toBeGreaterThan(40);
        await expectNoSidewaysScroll(page);
        await expect(page.locator('body')).toHaveCSS('word-break', 'keep-all');
        expect(await splitKoreanWords(page), path).toEqual([]);
      }

      // Under the heading only the page's usual gap: the empty status and alert regions take no room.
      await page.goto('/admin-only/ads/edit/web');
      const gap = await page.getByRole('heading', { level: 1 }).evaluate((heading) => {
        let next = heading.nextElementSibling;
        while (next && next.getBoundingClientRect().height === 0) next = next.nextElementSibling;
        return next!.getBoundingClientRect().top - heading.getBoundingClientRect().bottom;
      });
      expect(gap).toBeCloseTo(16, 0);
      await context.close();
    });
  }

  test('the backtest tables stack one block per row on a phone, each figure beside its column name', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(73) });
    await signIn(page, '/admin-only');
    const section = page.getByRole('region', { name: /백테스트/ });
    const overall = section.getByRole('table', { name: /^전체/ });
    const row = overall.getByRole('row', { name: /^예측\(실시간 반영\)/ });
    // Seconds after a first start the api is still back-filling the demo history, and the backtest
    // may not answer in time: the page then says so, and a reload shows it once the api has room.
    await expect(async () => {
      await page.goto('/admin-only/feed');
      await expect(row).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expectNoSidewaysScroll(page);

    // Every cell takes the row's width (no column squeezed to a syllable a line), its name before it.
    const cells = await section.locator('tbody').evaluateAll((bodies) =>
      bodies.flatMap((body) =>
        [...body.querySelectorAll('th, td')].map((cell) => ({
          width: cell.getBoundingClientRect().width,
          label: getComputedStyle(cell, '::before').content,
        })),
      ),
    );
    expect(cells.length).toBeGreaterThan(30);
    expect(Math.min(...cells.map((cell) => cell.width))).toBeGreaterThan(250);
    const mae = row.getByRole('cell').first();
    expect(await mae.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('"평균 오차(MAE)" / ""');
    await expect(mae).toHaveText(/^\d+(분 \d+)?초$/);

    // Chromium still reads them as tables: the cell is named by its figure alone, under its column header.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const roles = nodes.filter((node) => !node.ignored).map((node) => node.role?.value);
    expect(roles.filter((role) => role === 'table').length).toBeGreaterThan(4);
    expect(roles).toContain('columnheader');
    expect(roles).toContain('rowheader');
    const named = nodes.filter((node) => node.role?.value === 'cell').map((node) => String(node.name?.value ?? ''));
    expect(named.some((name) => /^\d+분 \d+초$/.test(name))).toBe(true);
    expect(named.filter((name) => name.startsWith('평균 오차'))).toEqual([]);
  });
});
