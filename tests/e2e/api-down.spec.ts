/**
 * The fault suite's web half: with its api down, every page of the web still renders,
 * the home screen says the bus data is unavailable, the forms answer with their failure messages,
 * and nothing typed is lost. The web's liveness stays 200 while its readiness says 503.
 */
import { fileURLToPath } from 'node:url';
import { expect, test } from './test';
import { API_DOWN_WEB_URL } from './ads-deployment';

test.use({ baseURL: API_DOWN_WEB_URL });

const UNAVAILABLE = '버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.';

test('the probes: alive but not ready', async ({ request }) => {
  const live = await request.get('/healthz');
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: 'degraded', api: 'unreachable' });
  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(503);
  expect(await ready.json()).toEqual({ status: 'unavailable', api: 'unreachable' });
});

test('every public page renders; the home screen says the bus data is unavailable', async ({ page }) => {
  for (const path of ['/', '/?tab=down', '/faq', '/howtouse', '/privacypolicy', '/contact', '/ads/apply']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await page.goto('/');
  await expect(page.getByText(UNAVAILABLE)).toBeVisible();
});

test('an inquiry answers with its failure message and keeps the text', async ({ page }) => {
  await page.goto('/contact');
  const text = '1150번 도착 시간이 이상해요.';
  await page.getByRole('textbox', { name: '문의 내용' }).fill(text);
  await page.getByRole('textbox', { name: '이메일 (선택)' }).fill('student@example.com');
  await page.getByRole('button', { name: '문의 보내기' }).click();
  await expect(page.getByRole('alert')).toContainText('문의 전송에 실패했습니다.');
  await expect(page.getByRole('textbox', { name: '문의 내용' })).toHaveValue(text);
  await expect(page.getByRole('textbox', { name: '이메일 (선택)' })).toHaveValue('student@example.com');
});

test('an ad application answers with its failure message and keeps what was typed', async ({ page }) => {
  await page.goto('/ads/apply');
  await page.getByRole('radio', { name: /웹 배너/ }).check();
  await page.getByLabel('광고 제목').fill('캠퍼스 카페');
  await page.getByLabel('신청자 이름').fill('김모현');
  await page.getByLabel('전화번호').fill('01012345678');
  await page.getByLabel('이메일').fill('shop@example.com');
  await page.getByLabel('연결할 링크').fill('https://shop.example/menu');
  await page
    .getByLabel('광고 이미지')
    .setInputFiles(fileURLToPath(new URL('../fixtures/images/web-banner-350x100.png', import.meta.url)));
  await page.getByRole('radio', { name: /2개월/ }).check();
  await page.getByRole('button', { name: '광고 신청하기' }).click();
  await expect(page.getByText('광고 접수에 실패했습니다.')).toBeVisible();
  await expect(page.getByLabel('광고 제목')).toHaveValue('캠퍼스 카페');
  await expect(page.getByLabel('신청자 이름')).toHaveValue('김모현');
  await expect(page.getByLabel('이메일')).toHaveValue('shop@example.com');
  await expect(page.getByLabel('연결할 링크')).toHaveValue('https://shop.example/menu');
  await expect(page.getByRole('radio', { name: /웹 배너/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /2개월/ })).toBeChecked();
});

test('the admin sign-in answers with its failure message and keeps the username', async ({ page }) => {
  await page.goto('/admin-only/login');
  await page.getByLabel('아이디').fill('admin');
  await page.getByLabel('비밀번호').fill('a-long-password-123');
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page.getByText('로그인하지 못했습니다. 잠시 후 다시 시도해주세요.')).toBeVisible();
  await expect(page.getByLabel('아이디')).toHaveValue('admin');
});
