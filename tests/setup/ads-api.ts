/**
 * The api with its ads parts for tests, one per test on the file's test database (adsApiFor, on
 * testApi), a valid application, and an image uploaded the way the web uploads one (presign, then
 * the one signed PUT).
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { z } from 'zod';
import { AdApplicationSchema, ImageUploadResponseSchema, type AdApplication, type AdType } from '../../contract/ads';
import { ApiErrorSchema } from '../../contract/bus';
import type { Api } from '../../api/app';
import { PNG } from '../fixtures/images';
import { testApi } from './api';
import { testDatabaseFor, type TestDatabaseKind } from './db';
import { FakeClock } from './fakes';
import { tempLocalStore } from './storage';

/**
 * Registers, for the suite on `kind`, the file's test database (emptied before each test) and, made
 * afresh for each test, a temporary local image store, a FakeClock at 2026-11-23 10:00 KST and
 * testApi on the three (with `serviceToken` when given). Returns their getters, read at each call.
 */
export function adsApiFor(kind: TestDatabaseKind, serviceToken?: string) {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;
  const db = () => database().db;
  beforeEach(() => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = testApi({ db: db(), storage: store, clock, serviceToken });
  });
  afterEach(() => store.remove());
  return { db, store: () => store, clock: () => clock, app: () => app };
}

/** The `message` of an api's error answer ({ message }, contract ApiErrorSchema). */
export const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;

/**
 * A valid application of `type` for `imageUrl` (a kakao one with an ad message), parsed by the
 * contract, with `fields` over the defaults.
 */
export function validApplication(
  type: AdType,
  imageUrl: string,
  fields: Partial<Record<keyof AdApplication, unknown>> = {},
): z.output<typeof AdApplicationSchema> {
  return AdApplicationSchema.parse({
    type,
    title: '캠퍼스 카페',
    applicantName: '홍길동',
    applicantPhone: '01012345678',
    applicantEmail: 'owner@example.com',
    imageUrl,
    duration: 1,
    ...(type === 'kakao' ? { content: '광고 메시지' } : {}),
    ...fields,
  });
}

/**
 * Uploads `bytes` (a PNG by default) for an ad of `type` through `app`, from client `ip`.
 * @returns the issued imageUrl and the server-chosen key; asserts the presign (200) and the PUT (204).
 */
export async function uploadImageThrough(
  app: Api,
  type: AdType,
  bytes: Uint8Array = PNG,
  ip = '203.0.113.7',
): Promise<{ imageUrl: string; key: string }> {
  const presign = await app.request('http://api.internal/api/s3/presigned-url/image', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify({ type, extension: 'png', byteSize: bytes.byteLength }),
  });
  expect(presign.status).toBe(200);
  const { presignedUrl, imageUrl } = ImageUploadResponseSchema.parse(await presign.json());
  const put = await app.request(presignedUrl, {
    method: 'PUT',
    body: bytes.slice(),
    headers: { 'Content-Type': 'image/png' },
  });
  expect(put.status).toBe(204);
  return { imageUrl, key: imageUrl.slice(imageUrl.lastIndexOf('/') + 1) };
}
