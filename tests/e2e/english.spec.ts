/**
 * An English phone on the public site (docs/product.md §1 Languages), in Debian's Chromium set to
 * en-US against the built app, with JavaScript and without: every public page is `<html lang="en">`
 * with no Hangul a rider sees or hears outside an element marked `lang="ko"` (the stops' signs, the
 * advertisers' Korean), the forms' validation messages in English in the product's check order, and
 * the header's language switch there and back, remembered across pages and visits.
 */
import { koreanOutsideKo } from './hangul';
import { expect, test } from './test';

/** Every public page a rider reaches, both home tabs and the not-found page included. */
const PUBLIC_PAGES = [
  '/',
  '/?tab=down',
  '/howtouse',
  '/faq',
  '/contact',
  '/privacypolicy',
  '/ads/apply',
  '/no-such-page',
];

test.use({ locale: 'en-US' });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('every public page is in English, with Korean only where it is marked so', async ({ page }) => {
      for (const path of PUBLIC_PAGES) {
        const response = await page.goto(path);
        expect(response?.headers()['content-language'], path).toBe('en');
        await expect(page.locator('html'), path).toHaveAttribute('lang', 'en');
        expect(await koreanOutsideKo(page), path).toEqual([]);
        // The switch back to Korean is there, named in Korean.
        await expect(page.getByRole('link', { name: '한국어' }), path).toHaveAttribute('hreflang', 'ko');
      }
    });

    test('the contact form’s checks answer in English, in the form’s order, and keep what was typed', async ({
      page,
    }) => {
      await page.goto('/contact');
      await page.getByRole('textbox', { name: 'Email (optional)' }).fill('not-an-email');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('alert').getByRole('link')).toHaveText([
        'Please enter your message',
        'That email address doesn’t look right.',
      ]);
      await expect(page.getByRole('textbox', { name: 'Email (optional)' })).toHaveValue('not-an-email');
      expect(await koreanOutsideKo(page)).toEqual([]);
    });

    test('the switch goes to Korean and back, and the choice sticks across pages and visits', async ({ page }) => {
      await page.goto('/faq');
      await page.getByRole('link', { name: '한국어' }).click();
      await expect(page).toHaveURL(/\/faq$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('자주 묻는 질문');
      // Another page, and a new visit: still Korean, though the phone asks for English.
      await page.goto('/contact');
      await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', 'ko');

      await page.getByRole('link', { name: 'English' }).click();
      await expect(page).toHaveURL(/\/contact$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      expect(await koreanOutsideKo(page)).toEqual([]);
    });
  });
}
