/**
 * The image upload api for api/routes/uploads-*.test.ts: adsApiFor's (the file's test database, and a
 * store, a clock and the api made afresh for each test), with its presign, signed PUT and image GET.
 */
import { expect } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { ImageUploadResponseSchema } from '../../contract/ads';
import { adsApiFor } from './ads-api';
import type { TestDatabaseKind } from './db';

/** Registers the setup for the file's suite on `kind` (adsApiFor); returns the helpers, read at each call. */
export function uploadsApiFor(kind: TestDatabaseKind) {
  const { db, store, clock, app } = adsApiFor(kind);

  const presign = (body: unknown) =>
    app().request('/api/s3/presigned-url/image', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** A presigned upload for `bytes` as `extension`; returns the URLs and the server's key. */
  async function issue(bytes: Uint8Array, extension = 'png', type = 'web') {
    const response = await presign({ type, extension, byteSize: bytes.byteLength });
    expect(response.status).toBe(200);
    const body = ImageUploadResponseSchema.parse(await response.json());
    const key = body.imageUrl.slice('/images/'.length);
    return { ...body, key };
  }
  const put = (url: string, body: Uint8Array, contentType = 'image/png') =>
    app().request(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'Content-Type': contentType } });
  const getImage = (key: string) => app().request(`/api/images/${key}`);
  const storedFiles = () => (existsSync(store().dir) ? readdirSync(store().dir) : []);

  return { db, store, clock, app, presign, issue, put, getImage, storedFiles };
}
