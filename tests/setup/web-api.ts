/**
 * The real api, in-process, for web tests (app/ may not import api/, so app tests import this):
 * a fresh PGlite database, a temporary local object store, and a load context whose `api.fetch`
 * is the Hono app's own fetch (server.ts's in-process mode), plus readers of what the api stored.
 */
import { afterAll, beforeAll } from 'vitest';
import { timeLeftAnswersOn } from '../mocks/api';
import type { AppLoadContext } from '@remix-run/node';
import { eq, gt } from 'drizzle-orm';
import { systemClock } from '../../api/clock';
import type { MailOutbox } from '../../api/mail/outbox';
import { adApplications, imageUploads } from '../../api/db/schema';
import type { AdType } from '../../contract/ads';
import { testApi } from './api';
import { uploadImageThrough } from './ads-api';
import { PNG } from '../fixtures/images';
import { createTestDatabase } from './db';
import { recordingLogger } from './fakes';
import { TEST_VAPID } from './push';
import type { Clock } from '../../api/clock';
import { tempLocalStore } from './storage';

/** The base URL the web resolves api paths against (server.ts uses the same in-process). */
export const IN_PROCESS_API_URL = 'http://api.internal';

/** A real 1×1 PNG (tests/fixtures/images.ts): bytes that the api's sniffing (file-type) accepts. */
export const TINY_PNG = new Uint8Array(PNG);

export type WebApi = Awaited<ReturnType<typeof startWebApi>>;

/**
 * Starts the api on a fresh PGlite database and a temporary local store.
 * @param options.imageStorageMaxBytes the api's image storage budget (IMAGE_STORAGE_MAX_MB in
 *   bytes; default the api's 1024 MB): a presign that would exceed it answers 507.
 * @param options.mail the api's e-mail outbox (default none: e-mail off); tests/setup/mail-web.ts has one.
 * @param options.clock the api's clock (default the system's). Reminders are on, with TEST_VAPID's key.
 * @returns `context(overrides)` builds a load context reaching this api (each call its own; pass
 *   `clientIp` so the api's per-IP rate limits apply per test), `calls` records a clone of every
 *   request the web sent it (bodies readable), `close()` closes the database and removes the store.
 */
export async function startWebApi(
  options: { serviceToken?: string; imageStorageMaxBytes?: number; mail?: MailOutbox; clock?: Clock } = {},
) {
  const database = await createTestDatabase('pglite');
  const storage = tempLocalStore();
  const logger = recordingLogger();
  const { serviceToken, imageStorageMaxBytes, mail, clock = systemClock } = options;
  const app = testApi({
    db: database.db,
    storage,
    clock,
    vapidPublicKey: TEST_VAPID.publicKey,
    logger,
    serviceToken,
    imageStorageMaxBytes,
    mail,
  });
  const calls: Request[] = [];
  const fetch = async (request: Request) => {
    calls.push(request.clone());
    return app.fetch(request);
  };
  const api = { baseUrl: IN_PROCESS_API_URL, fetch };
  const context = (overrides: Partial<AppLoadContext> = {}): AppLoadContext => ({
    api,
    timeLeft: timeLeftAnswersOn(api),
    ...overrides,
  });
  const db = database.db;
  return {
    app,
    db,
    storage,
    logger,
    calls,
    context,
    /** The stored ad applications (ad_requests) with an id above `afterId` (default: all), in id order. */
    adApplications: (afterId = 0) =>
      db.select().from(adApplications).where(gt(adApplications.id, afterId)).orderBy(adApplications.id),
    /** The image_uploads row of `imageUrl`, if any. */
    imageUpload: async (imageUrl: string) =>
      (await db.select().from(imageUploads).where(eq(imageUploads.imageUrl, imageUrl)))[0],
    /** Uploads `bytes` (a PNG) through the api as the web does (presign, then the one signed PUT). */
    uploadImage: (type: AdType, bytes: Uint8Array = TINY_PNG, ip = '198.51.100.1') =>
      uploadImageThrough(app, type, bytes, ip),
    async close() {
      await database.close();
      storage.remove();
    },
  };
}

/**
 * The api in-process for the enclosing test file or describe block: started before its first test
 * (startWebApi with `options`), closed after its last.
 * @returns its getter; it throws outside the block's tests, where there is no api yet.
 */
export function webApiFor(options: Parameters<typeof startWebApi>[0] = {}): () => WebApi {
  let api: WebApi | null = null;
  beforeAll(async () => {
    api = await startWebApi(options);
  });
  afterAll(() => api?.close());
  return () => {
    if (!api) throw new Error('webApiFor: the api runs only during the tests of its block');
    return api;
  };
}
