/**
 * A local shop applies for an ad (docs/product.md §2.5 Ad application page, §5, §7, §8) on a phone, with
 * JavaScript on and off, for a web banner and for a chatbot ad, with a real image file; the
 * application is then read back through the api, as the admins will see it.
 */
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from './test';
import { ADS_WEB_URL, listedApplications, phoneIp, applicationDetail } from './ads-deployment';
import { axeViolations } from './axe';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/images/${name}`, import.meta.url));
const IMAGES = { web: fixture('web-banner-350x100.png'), kakao: fixture('kakao-card-350x175.png') };
const TYPE_NAMES = { web: /웹 배너 광고/, kakao: /챗봇 광고/ };
/** The private status link the form shows once after an application is taken, on the page's origin. */
const STATUS_LINK = new RegExp(`^${ADS_WEB_URL}/ads/status/[\\w-]{43}$`);

test.use({ baseURL: ADS_WEB_URL });

async function fillApplication(page: Page, type: 'web' | 'kakao', title: string) {
  await page.getByRole('radio', { name: TYPE_NAMES[type] }).check();
  await page.getByLabel('광고 제목').fill(title);
  await page.getByLabel('신청자 이름').fill('김모현');
  await page.getByLabel('전화번호').fill('01012345678');
  await page.getByLabel('이메일').fill('shop@example.com');
  await page.getByLabel('연결할 링크').fill('https://shop.example/menu');
  await page.getByLabel('광고 이미지').setInputFiles(IMAGES[type]);
  if (type === 'kakao') await page.getByLabel('광고 메시지').fill('학생증 보여주면 음료 서비스!');
  await page.getByRole('radio', { name: /2개월/ }).check();
}

for (const javaScriptEnabled of [true, false]) {
  for (const type of ['web', 'kakao'] as const) {
    test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({
        javaScriptEnabled,
        extraHTTPHeaders: { 'X-Forwarded-For': phoneIp((javaScriptEnabled ? 10 : 20) + (type === 'web' ? 1 : 2)) },
      });

      test(`a shop applies for a ${type} ad with a real image and the api stores it as sent`, async ({
        page,
        request,
      }) => {
        const title = `${type} ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()}`;
        await page.goto('/ads/apply');
        await expect(page.getByText('캠퍼스은행 123-456-789012 (예금주 외대버스)')).toBeVisible();
        await fillApplication(page, type, title);
        if (javaScriptEnabled) {
          await expect(page.getByLabel('전화번호')).toHaveValue('010-1234-5678');
          const size = type === 'web' ? '350×100' : '350×175';
          await expect(page.getByText(`선택한 이미지: ${size}`)).toBeVisible();
          await expect(page.getByText('결제 금액: 52,000원 (2개월)')).toBeVisible();
        }
        await page.getByRole('button', { name: '광고 신청하기' }).click();

        await expect(page.getByRole('status').getByText('광고 접수가 완료되었습니다.')).toBeVisible();
        // The status link came over the redirect in a cookie, which the page's data request (with
        // JavaScript, /ads/apply.data) carries as the document request does.
        await expect(page.getByRole('link', { name: STATUS_LINK })).toBeVisible();
        // Post/redirect/get: a fresh form, and a reload would not send the application again.
        await expect(page).toHaveURL(/\/ads\/apply\?submitted=1$/);
        await expect(page.getByLabel('광고 제목')).toHaveValue('');
        await expect(page.getByRole('radio', { name: TYPE_NAMES[type] })).not.toBeChecked();
        await expect(page.getByText('결제 금액:')).toHaveCount(0);
        await expect(page.getByText('선택한 이미지:')).toHaveCount(0);

        const stored = (await listedApplications(request, type)).find((item) => item.title === title);
        expect(stored).toBeTruthy();
        const detail = await applicationDetail(request, type, stored!.id);
        expect(detail).toMatchObject({
          title,
          applicantName: '김모현',
          applicantPhone: '01012345678',
          applicantEmail: 'shop@example.com',
          duration: 2,
          redirectUrl: 'https://shop.example/menu',
          content: type === 'kakao' ? '학생증 보여주면 음료 서비스!' : null,
          status: 'pending',
        });
        const image = await request.get(String(detail.imageUrl));
        expect(image.status()).toBe(200);
        expect(image.headers()['content-type']).toBe('image/png');
        expect(image.headers()['x-content-type-options']).toBe('nosniff');
      });
    });
  }
}

test.describe('JavaScript on', () => {
  test.use({ extraHTTPHeaders: { 'X-Forwarded-For': phoneIp(31) } });

  test('the file input refuses to open before an ad type is chosen', async ({ page }) => {
    await page.goto('/ads/apply');
    let opened = false;
    page.on('filechooser', () => (opened = true));
    await page.getByLabel('광고 이미지').click();
    await expect(page.getByText('이미지 파일 선택 전 먼저 광고 유형을 선택해주세요.')).toBeVisible();
    expect(opened).toBe(false);

    await page.getByRole('radio', { name: /웹 배너 광고/ }).check();
    const chooser = page.waitForEvent('filechooser');
    await page.getByLabel('광고 이미지').click();
    await (await chooser).setFiles(fixture('not-an-image.png'));
    await expect(page.getByText('JPG, PNG, GIF 이미지만 올릴 수 있습니다.')).toBeVisible();
    await expect(page.getByLabel('광고 이미지')).toHaveValue('');

    // Sent like that, the summary says why the image is refused, in the field's words, not that it is missing.
    await page.getByRole('button', { name: '광고 신청하기' }).click();
    const summary = page.getByRole('alert').filter({ hasText: '입력한 내용을 확인해주세요' });
    await expect(summary.getByRole('listitem').first()).toHaveText('JPG, PNG, GIF 이미지만 올릴 수 있습니다.');
    await expect(summary).not.toContainText('이미지를 업로드해주세요.');
    await expect(page.getByText('이미지를 업로드해주세요.')).toHaveCount(0);
  });

  test('conform shows the spec messages before any round trip, in the spec order with the image first', async ({
    page,
  }) => {
    await page.goto('/ads/apply');
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST') posted = true;
    });
    await page.getByRole('button', { name: '광고 신청하기' }).click();
    const summary = page.getByRole('alert').filter({ hasText: '입력한 내용을 확인해주세요' });
    await expect(summary.getByRole('listitem')).toHaveText([
      '이미지를 업로드해주세요.',
      '광고 유형을 선택해주세요.',
      '제목을 입력해주세요.',
      '이름을 입력해주세요.',
      '전화번호를 입력해주세요.',
      '이메일을 입력해주세요.',
      '광고 게재 기간을 선택해주세요.',
    ]);
    expect(posted).toBe(false);
    await expect(page.getByLabel('광고 제목')).toHaveAttribute('aria-required', 'true');
    await expect(page.getByLabel('연결할 링크')).toHaveAttribute('aria-required', 'false');
    await page.getByLabel('광고 제목').fill('   ');
    await page.getByLabel('광고 제목').blur();
    await expect(page.getByText('제목을 입력해주세요.').first()).toBeVisible();
  });
});

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false, extraHTTPHeaders: { 'X-Forwarded-For': phoneIp(41) } });

  test('the server refuses an incomplete form with the spec messages and keeps what was typed', async ({ page }) => {
    await page.goto('/ads/apply');
    await page.getByRole('radio', { name: /챗봇 광고/ }).check();
    await page.getByLabel('광고 제목').fill('모현 분식');
    await page.getByLabel('이메일').fill('shop@example.com');
    await page.getByLabel('연결할 링크').fill('javascript:alert(1)');
    await page.getByRole('button', { name: '광고 신청하기' }).click();

    const summary = page.getByRole('alert').filter({ hasText: '입력한 내용을 확인해주세요' });
    await expect(summary.getByRole('listitem')).toHaveText([
      '이미지를 업로드해주세요.',
      '이름을 입력해주세요.',
      '전화번호를 입력해주세요.',
      '링크는 http:// 또는 https://로 시작하는 주소만 넣을 수 있습니다.',
      '광고 게재 기간을 선택해주세요.',
      '광고 메시지를 입력해주세요.',
    ]);
    await expect(page.getByLabel('광고 제목')).toHaveValue('모현 분식');
    await expect(page.getByLabel('이메일')).toHaveValue('shop@example.com');
    await expect(page.getByRole('radio', { name: /챗봇 광고/ })).toBeChecked();
    await expect(page.getByText('이미지는 다시 선택해주세요.')).toBeVisible();
  });

  test('an image over 5 MB gets the site’s page with the form’s message, and Back returns to the form as typed', async ({
    page,
  }) => {
    await page.goto('/ads/apply');
    await fillApplication(page, 'web', '모현 분식 큰 사진');
    // 6 MB that starts as a PNG: refused by its size at the door, before it is read.
    const big = Buffer.alloc(6 * 1024 * 1024, 0);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    await page.getByLabel('광고 이미지').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await page.getByRole('button', { name: '광고 신청하기' }).click();

    await expect(page.getByRole('heading', { name: '보낸 내용이 너무 큽니다' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('5MB');
    await expect(page.getByRole('alert')).toContainText('뒤로 버튼을 누르면 입력하신 내용이 그대로 남아 있는 양식으로');
    // The site's look: its pink page background.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(
      'rgb(255, 228, 239)',
    );
    await page.goBack();
    await expect(page.getByLabel('광고 제목')).toHaveValue('모현 분식 큰 사진');
    await expect(page.getByLabel('이메일')).toHaveValue('shop@example.com');
  });
});

test.describe('JavaScript off: the status link', () => {
  test.use({ javaScriptEnabled: false, extraHTTPHeaders: { 'X-Forwarded-For': phoneIp(42) } });

  test('an applicant sees the private link once, opens it and finds the application under review', async ({ page }) => {
    // An application with its image, then three axe passes: 20–37 s beside the other worker's tests.
    test.slow();
    const title = `status nojs ${Date.now()}`;
    await page.goto('/ads/apply');
    await fillApplication(page, 'web', title);
    await page.getByRole('button', { name: '광고 신청하기' }).click();

    await expect(page.getByRole('status')).toHaveText('광고 접수가 완료되었습니다. 입금을 확인한 뒤 검토합니다.');
    const link = page.getByRole('link', { name: STATUS_LINK });
    await expect(link).toBeVisible();
    await expect(page.getByText('검토 결과는 아래 링크에서 확인할 수 있습니다.', { exact: false })).toBeVisible();
    // This deployment sends no e-mail: nothing promises one.
    await expect(page.getByText('이메일로도 보내드렸습니다', { exact: false })).toHaveCount(0);
    await expect(page).toHaveURL(/\/ads\/apply\?submitted=1$/);
    expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);
    const statusUrl = (await link.getAttribute('href'))!;

    // Shown once: a reload keeps the success message but not the link.
    await page.reload();
    await expect(page.getByRole('link', { name: STATUS_LINK })).toHaveCount(0);

    const opened = await page.goto(statusUrl);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()).toMatchObject({
      'x-robots-tag': 'noindex',
      'cache-control': 'no-store',
      'referrer-policy': expect.stringMatching(/no-referrer$/),
    });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('광고 신청 현황');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.getByRole('definition').filter({ hasText: title })).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: '검토 중' })).toBeVisible();
    expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);

    const unknown = await page.goto(`${statusUrl.slice(0, -1)}${statusUrl.endsWith('A') ? 'B' : 'A'}`);
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('신청 현황을 찾을 수 없습니다.');
    expect(await axeViolations(page, { javaScriptEnabled: false })).toEqual([]);
  });
});
