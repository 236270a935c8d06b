/**
 * The admin side of the split deployment (tests/e2e/ads-deployment.ts): the web on ADS_WEB_PORT
 * signs its admin cookie with E2E_SESSION_SECRET, and playwright.config.ts creates the account
 * ADMIN_CREDENTIALS (npm run admin:create) before the api starts. Helpers seed ad applications the way
 * a shop sends them (presign, PUT, submit) and read or undo what the admin pages did, through the
 * api with the service token.
 */
import { adApplicationBody } from '../setup/ad-application';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { AdType } from '../../contract/ads';
import { ADS_API_URL, approve, managedAds, listedApplications, SERVICE_AUTH } from './ads-deployment';
import type { z } from 'zod';
import type { ServiceNotice, ServiceNoticeSchema } from '../../contract/admin';

/** SESSION_SECRET of the web on ADS_WEB_PORT (64 characters, test only). */
export const E2E_SESSION_SECRET = 'e2e-session-secret-0123456789abcdef0123456789abcdef0123456789abc';

/** The admin account the stories sign in with. */
export const ADMIN_CREDENTIALS = { username: 'e2e-admin', password: 'e2e-admin-password-0123' } as const;

export const IMAGE_FILES = {
  web: fileURLToPath(new URL('../fixtures/images/web-banner-350x100.png', import.meta.url)),
  kakao: fileURLToPath(new URL('../fixtures/images/kakao-card-350x175.png', import.meta.url)),
};

/**
 * Applies for an ad through the api as a shop at `ip` would (presign, PUT, submit; docs/product.md §7) and
 * returns the new application's id. Each ip may submit 5 times and upload 20 times in 10 minutes.
 */
export async function submitAdApplication(
  request: APIRequestContext,
  {
    type,
    title,
    ip,
    redirectUrl = 'https://shop.example/menu',
  }: { type: AdType; title: string; ip: string; redirectUrl?: string },
): Promise<number> {
  const headers = { 'X-Forwarded-For': ip };
  const image = readFileSync(IMAGE_FILES[type]);
  const upload = await request.post(`${ADS_API_URL}/api/s3/presigned-url/image`, {
    headers,
    data: { type, extension: 'png', byteSize: image.byteLength },
  });
  expect(upload.status()).toBe(200);
  const { presignedUrl, imageUrl } = (await upload.json()) as { presignedUrl: string; imageUrl: string };
  expect((await request.put(presignedUrl, { headers: { 'Content-Type': 'image/png' }, data: image })).status()).toBe(
    204,
  );
  const submit = await request.post(`${ADS_API_URL}/api/ads/${type}/submit`, {
    headers,
    data: adApplicationBody({ type, title, redirectUrl, imageUrl }),
  });
  expect(submit.status()).toBe(201);
  const stored = (await listedApplications(request, type)).find((item) => item.title === title);
  expect(stored, `application "${title}" listed by the api`).toBeTruthy();
  return stored!.id;
}

/** Applies for an ad and approves it through the api; returns the managed ad's id (last in the order). */
export async function approvedAd(
  request: APIRequestContext,
  options: { type: AdType; title: string; ip: string; redirectUrl?: string },
): Promise<number> {
  const applicationId = await submitAdApplication(request, options);
  await approve(request, options.type, applicationId);
  const ad = (await managedAds(request, options.type)).find((item) => item.title === options.title);
  expect(ad, `ad "${options.title}" managed`).toBeTruthy();
  return ad!.id;
}

/** Deletes every managed ad of `type` whose title contains `tag` (DELETE /api/{type}/ads/{id}), so the home banner is left as found. */
export async function deleteAdsTagged(request: APIRequestContext, type: AdType, tag: string): Promise<void> {
  for (const ad of await managedAds(request, type)) {
    if (!ad.title?.includes(tag)) continue;
    const response = await request.delete(`${ADS_API_URL}/api/${type}/ads/${ad.id}`, { headers: SERVICE_AUTH });
    expect([200, 404]).toContain(response.status());
  }
}

/** The public service notice (GET /api/notice on the api). */
export async function publicNotice(request: APIRequestContext): Promise<ServiceNotice> {
  const response = await request.get(`${ADS_API_URL}/api/notice`);
  expect(response.status()).toBe(200);
  return response.json();
}

/**
 * Saves the service notice through the admin api (PUT /api/admin/notice) on the version saved now,
 * to put it back after a story.
 */
export async function saveNotice(request: APIRequestContext, notice: z.input<typeof ServiceNoticeSchema>) {
  const read = await request.get(`${ADS_API_URL}/api/admin/notice`, { headers: SERVICE_AUTH });
  const { version } = (await read.json()) as { version: string | null };
  const response = await request.put(`${ADS_API_URL}/api/admin/notice`, {
    headers: SERVICE_AUTH,
    data: { ...notice, version },
  });
  expect(response.status()).toBe(200);
}

/** Opens `path`, is sent to the login page, signs in there and is brought back to `path`. */
export async function signIn(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(`/admin-only/login?${new URLSearchParams({ redirectTo: path })}`);
  await page.getByLabel('아이디', { exact: true }).fill(ADMIN_CREDENTIALS.username);
  await page.getByLabel('비밀번호', { exact: true }).fill(ADMIN_CREDENTIALS.password);
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page).toHaveURL(path);
}

/** The inquiries the api holds, newest first (GET /api/admin/inquiries with the service token). */
export async function storedInquiries(request: APIRequestContext) {
  const response = await request.get(`${ADS_API_URL}/api/admin/inquiries`, { headers: SERVICE_AUTH });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { id: number; content: string; email: string | null }[] }).data;
}

/** Sends an inquiry as /contact does (POST /api/inquiries) from `ip`. @returns its id. */
export async function sendInquiry(
  request: APIRequestContext,
  inquiry: { content: string; email?: string },
  ip: string,
): Promise<number> {
  const response = await request.post(`${ADS_API_URL}/api/inquiries`, {
    headers: { 'X-Forwarded-For': ip },
    data: inquiry,
  });
  expect(response.status()).toBe(201);
  const stored = (await storedInquiries(request)).find((row) => row.content === inquiry.content);
  expect(stored, `inquiry "${inquiry.content}" stored`).toBeTruthy();
  return stored!.id;
}
