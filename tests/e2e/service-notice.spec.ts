/**
 * The home screen's blocking service-suspension modal (docs/product.md §1, §4), driven by the admins'
 * notice: with JavaScript it is a real modal (focus inside, Esc does not close it, the page behind
 * takes no click or focus); without it the server's HTML shows it open over an inert page, and the
 * page does not reload itself under it. Both pass axe. The notice is switched through the admin
 * api and put back after each story.
 */
import { expect, test, type Page } from './test';
import { DEFAULT_SERVICE_NOTICE } from '../../contract/admin';
import { publicNotice, saveNotice } from './admin-deployment';
import { ADS_WEB_URL } from './ads-deployment';
import { axeViolations } from './axe';

test.use({ baseURL: ADS_WEB_URL });

test.beforeEach(async ({ request }) => {
  expect((await publicNotice(request)).enabled).toBe(false);
  await saveNotice(request, { enabled: true, ...DEFAULT_SERVICE_NOTICE });
});

test.afterEach(async ({ request }) => {
  await saveNotice(request, { enabled: false, ...DEFAULT_SERVICE_NOTICE });
});

/** Clicks where the 하행 tab is drawn (as a finger would) and checks that nothing happened. */
async function tapBehindTheModal(page: Page) {
  const box = (await page.locator('#tab-down').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page).toHaveURL(`${ADS_WEB_URL}/`);
  await expect(page.locator('#tab-up')).toHaveAttribute('aria-selected', 'true');
}

test('with JavaScript the notice is a modal that keeps focus and cannot be dismissed', async ({ page }) => {
  await page.goto('/');
  const dialog = page.getByRole('alertdialog', { name: DEFAULT_SERVICE_NOTICE.title });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(DEFAULT_SERVICE_NOTICE.text);
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  // Hydrated, the server's open dialog becomes a modal one.
  await expect.poll(() => dialog.evaluate((element: HTMLDialogElement) => element.matches(':modal'))).toBe(true);

  // Focus moves into it, and Tab never reaches the page behind: it cycles through the dialog's
  // link and the browser's own controls (the document body), as a native modal dialog does.
  const focusIn = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return 'browser';
      return active.closest('dialog') ? 'dialog' : `page: ${active.outerHTML.slice(0, 80)}`;
    });
  await expect.poll(focusIn).toBe('dialog');
  const seen = new Set<string>();
  for (let press = 0; press < 4; press += 1) {
    await page.keyboard.press('Tab');
    seen.add(await focusIn());
  }
  expect([...seen].sort()).toEqual(['browser', 'dialog']);
  // Esc, even twice (Chrome lets a repeated Esc close a dialog), does not dismiss it.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element: HTMLDialogElement) => element.open)).toBe(true);

  await tapBehindTheModal(page);
  expect(await axeViolations(page, { javaScriptEnabled: true })).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the notice is open in the HTML over an inert page that does not reload itself', async ({ page }) => {
    await page.goto('/');
    const dialog = page.getByRole('alertdialog', { name: DEFAULT_SERVICE_NOTICE.title });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(DEFAULT_SERVICE_NOTICE.text);
    await expect(page.locator('.home')).toHaveAttribute('inert', '');
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);

    // Keyboard: nothing behind the notice takes focus (the header and the home are inert).
    let reachedDialog = false;
    for (let press = 0; press < 6; press += 1) {
      await page.keyboard.press('Tab');
      await expect(page.locator(':focus:not(dialog *)')).toHaveCount(0);
      reachedDialog ||= (await dialog.getByRole('link', { name: '문의하기' }).locator(':scope:focus').count()) > 0;
    }
    expect(reachedDialog).toBe(true);
    await tapBehindTheModal(page);
    expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);
  });
});

test('once the admins switch the notice off, the home is usable again', async ({ page, request }) => {
  await saveNotice(request, { enabled: false, ...DEFAULT_SERVICE_NOTICE });
  await page.goto('/');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.getByRole('tab', { name: '하행' }).click();
  await expect(page).toHaveURL(/\?dir=down$/);
});
