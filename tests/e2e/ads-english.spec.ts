/**
 * A shop owner who reads no Korean applies for an ad and follows it (docs/product.md §1 Languages,
 * §2.5, §3.5), on a phone set to English, with JavaScript on and off: the form, its checks in the
 * product's order, the price line, the status link and the status page in English, the ad's content
 * kept in the language the applicant chose for it. The operator's bank name and holder (configured
 * in Korean on this deployment, playwright.config.ts AD_BANK_*) show as entered, marked Korean.
 */
import { fileURLToPath } from 'node:url';
import { koreanOutsideKo } from './hangul';
import { expect, test } from './test';
import { ADS_WEB_URL, applicationDetail, listedApplications, phoneIp } from './ads-deployment';

const IMAGE = fileURLToPath(new URL('../fixtures/images/web-banner-350x100.png', import.meta.url));
const STATUS_LINK = new RegExp(`^${ADS_WEB_URL}/ads/status/[\\w-]{43}$`);

test.use({ baseURL: ADS_WEB_URL, locale: 'en-US' });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({
      javaScriptEnabled,
      extraHTTPHeaders: { 'X-Forwarded-For': phoneIp(javaScriptEnabled ? 61 : 62) },
    });

    test('an English phone applies for a web ad, in English, and follows it on its status page', async ({
      page,
      request,
    }) => {
      test.slow();
      await page.goto('/ads/apply');
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      expect(await koreanOutsideKo(page)).toEqual([]);

      // Sent empty: the checks in the product's order, in English.
      await page.getByRole('button', { name: 'Apply' }).click();
      const summary = page.getByRole('alert').filter({ hasText: 'Please check what you entered' });
      await expect(summary.getByRole('listitem')).toHaveText([
        'Please upload an image.',
        'Please choose an ad type.',
        'Please enter a title.',
        'Please enter your name.',
        'Please enter a phone number.',
        'Please enter an e-mail address.',
        'Please choose how long the ad runs.',
      ]);

      const title = `Campus Cafe ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()}`;
      await page.getByRole('radio', { name: /Web banner ad/ }).check();
      await page.getByLabel('Ad title').fill(title);
      await page.getByLabel('Your name').fill('Alex Kim');
      await page.getByLabel('Phone number').fill('01012345678');
      await page.getByLabel('E-mail', { exact: true }).fill('alex@example.com');
      await page.getByLabel('Link', { exact: false }).first().fill('https://cafe.example/menu');
      await page.getByLabel('Ad image').setInputFiles(IMAGE);
      await page.getByRole('radio', { name: /2 months/ }).check();
      await page.getByRole('radio', { name: 'English' }).check();
      if (javaScriptEnabled) await expect(page.getByText('Total: 26,000 KRW × 2 months = 52,000 KRW')).toBeVisible();
      await page.getByRole('button', { name: 'Apply' }).click();

      await expect(page.getByRole('status').getByText('We received your ad application.')).toBeVisible();
      const link = page.getByRole('link', { name: STATUS_LINK });
      await expect(link).toBeVisible();
      expect(await koreanOutsideKo(page)).toEqual([]);

      // Stored as sent (its content's language shows on the status page below).
      const stored = (await listedApplications(request, 'web')).find((item) => item.title === title);
      expect(await applicationDetail(request, 'web', stored!.id)).toMatchObject({ title, status: 'pending' });

      await page.goto(String(await link.getAttribute('href')));
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your ad application');
      await expect(page.getByText('In review')).toBeVisible();
      await expect(page.getByText('캠퍼스은행', { exact: true })).toHaveAttribute('lang', 'ko');
      await expect(page.getByText(title)).toHaveAttribute('lang', 'en');
      expect(await koreanOutsideKo(page)).toEqual([]);
    });
  });
}
