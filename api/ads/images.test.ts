import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { IMAGE_MAX_BYTES, type AdType } from '../../contract/ads';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import { PNG, JPEG, GIF, WEBP, SVG } from '../../tests/fixtures/images';

import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { tempLocalStore } from '../../tests/setup/storage';
import { adApplications, ads, imageUploads } from '../db/schema';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { clientKeysOf } from '../../lib/client-address';
import {
  CLIENT_IMAGE_ROOM_BYTES,
  issueImageUpload,
  NETWORK_IMAGE_ROOM_BYTES,
  ORPHAN_IMAGE_AGE_MS,
  receiveImagePut,
  removeOrphanImages,
  scheduleOrphanSweep,
  sniffImage,
  uploaderMarks,
  UploadRejected,
} from './images';

describe('sniffImage', () => {
  it('detects png, jpg and gif by their bytes', async () => {
    expect(await sniffImage(PNG)).toBe('png');
    expect(await sniffImage(JPEG)).toBe('jpg');
    expect(await sniffImage(GIF)).toBe('gif');
  });

  it('refuses what is not a jpg, png or gif: text, SVG, WebP, nothing', async () => {
    expect(await sniffImage(Buffer.from('hello'))).toBeNull();
    expect(await sniffImage(SVG)).toBeNull();
    expect(await sniffImage(WEBP)).toBeNull();
    expect(await sniffImage(new Uint8Array())).toBeNull();
  });
});

describe.each(testDatabaseKinds)('removeOrphanImages on %s', (kind) => {
  const db = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  const issuedAt = new Date('2026-11-22T09:00:00+09:00');

  beforeEach(() => {
    store = tempLocalStore();
  });
  afterEach(() => store.remove());

  /** Issues and uploads a PNG at `now` through the real presigned flow; returns its key and imageUrl. */
  async function storedImage(now: Date, type: AdType = 'web') {
    const { presignedUrl, imageUrl } = await issueImageUpload(
      db().db,
      store,
      { type, extension: 'png', byteSize: PNG.byteLength },
      now,
    );
    const url = new URL(presignedUrl, 'http://localhost');
    const key = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    await receiveImagePut(db().db, store, {
      key,
      search: url.searchParams,
      contentType: 'image/png',
      readBody: async () => PNG,
      now,
    });
    return { key, imageUrl };
  }

  const uploadKeys = async () =>
    (await db().db.select({ key: imageUploads.key }).from(imageUploads)).map((row) => row.key).sort();

  it('deletes the object and the record of unreferenced images older than 30 minutes, keeps the rest', async () => {
    const applied = await storedImage(issuedAt);
    const shown = await storedImage(issuedAt, 'kakao');
    const orphan = await storedImage(issuedAt);
    const young = await storedImage(new Date(issuedAt.getTime() + 60_000));
    await db().db.insert(adApplications).values({
      type: 'web',
      title: 'Cafe',
      applicantName: '홍길동',
      applicantPhone: '01012345678',
      applicantEmail: 'a@example.com',
      imageUrl: applied.imageUrl,
      duration: 1,
      createdAt: issuedAt,
    });
    const period = { startsAt: issuedAt, endsAt: new Date(issuedAt.getTime() + 86_400_000), createdAt: issuedAt };
    await db()
      .db.insert(ads)
      .values([
        { type: 'kakao', title: 'Shown', imageUrl: shown.imageUrl, position: 0, ...period, updatedAt: issuedAt },
        // An ad without an image must not hide every orphan (NOT IN over a NULL matches nothing).
        { type: 'kakao', title: 'No image', imageUrl: null, position: 1, ...period, updatedAt: issuedAt },
      ]);
    expect(existsSync(join(store.dir, orphan.key))).toBe(true);

    // 30 minutes after the first three were issued: none is older than that yet.
    expect(ORPHAN_IMAGE_AGE_MS).toBe(30 * 60_000);
    const halfHourLater = new Date(issuedAt.getTime() + ORPHAN_IMAGE_AGE_MS);
    expect(await removeOrphanImages(db().db, store, halfHourLater)).toBe(0);
    expect(await uploadKeys()).toHaveLength(4);

    // One second more: the orphan goes, the referenced ones and the young one (issued a minute later) stay.
    expect(await removeOrphanImages(db().db, store, new Date(halfHourLater.getTime() + 1000))).toBe(1);
    expect(await uploadKeys()).toEqual([applied.key, shown.key, young.key].sort());
    expect(existsSync(join(store.dir, orphan.key))).toBe(false);
    expect(await store.head(orphan.key)).toBeNull();
    for (const kept of [applied, shown, young]) {
      expect(await store.head(kept.key)).toEqual({ byteSize: PNG.byteLength, contentType: 'image/png' });
    }

    // Once the young one is that old too, it goes as well; the referenced ones never do.
    const later = new Date(issuedAt.getTime() + 3 * ORPHAN_IMAGE_AGE_MS);
    expect(await removeOrphanImages(db().db, store, later)).toBe(1);
    expect(await uploadKeys()).toEqual([applied.key, shown.key].sort());
    expect(await store.head(young.key)).toBeNull();
  });

  it('also removes issued images that were never uploaded (no object to delete)', async () => {
    const { imageUrl } = await issueImageUpload(
      db().db,
      store,
      { type: 'web', extension: 'gif', byteSize: GIF.byteLength },
      issuedAt,
    );
    const later = new Date(issuedAt.getTime() + ORPHAN_IMAGE_AGE_MS + 1000);
    expect(await removeOrphanImages(db().db, store, later)).toBe(1);
    expect(await db().db.select().from(imageUploads).where(eq(imageUploads.imageUrl, imageUrl))).toEqual([]);
  });
});

describe.each(testDatabaseKinds)('a client’s room of images on %s', (kind) => {
  const db = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  const now = new Date('2026-11-23T10:00:00+09:00');
  const marksOf = uploaderMarks('images-test-service-token');
  const client = marksOf(clientKeysOf('203.0.113.5'));
  /** As many images of IMAGE_MAX_BYTES as fill CLIENT_IMAGE_ROOM_BYTES. */
  const FULL = CLIENT_IMAGE_ROOM_BYTES / IMAGE_MAX_BYTES;

  beforeEach(() => {
    store = tempLocalStore();
  });
  afterEach(() => store.remove());

  /** Issues an image of IMAGE_MAX_BYTES for `uploader` at `at`; the refusal's status, or its imageUrl. */
  const issue = async (uploader = client, at = now) => {
    try {
      const request = { type: 'web' as const, extension: 'png' as const, byteSize: IMAGE_MAX_BYTES };
      return (await issueImageUpload(db().db, store, request, at, { uploader })).imageUrl;
    } catch (error) {
      if (error instanceof UploadRejected) return error.status;
      throw error;
    }
  };
  /** An application of `status` using `imageUrl`, as createAdApplication stores one (and an admin decides it). */
  const applyWith = async (imageUrl: string, status: 'pending' | 'approved' | 'rejected') => {
    await db()
      .db.insert(adApplications)
      .values({
        type: 'web',
        title: 'Cafe',
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'a@example.com',
        imageUrl,
        duration: 1,
        status,
        confirmed: status === 'approved',
        createdAt: now,
      });
  };

  it('is CLIENT_IMAGE_ROOM_BYTES of images no ad and no approved application uses; past it the issue is refused 429, issuing nothing', async () => {
    expect(CLIENT_IMAGE_ROOM_BYTES % IMAGE_MAX_BYTES).toBe(0);
    const urls: string[] = [];
    for (let i = 0; i < FULL; i += 1) {
      const url = await issue();
      expect(typeof url, `image ${i + 1}`).toBe('string');
      urls.push(url as string);
    }
    expect(await issue()).toBe(429);
    expect(await db().db.select().from(imageUploads)).toHaveLength(FULL);
    // Pending and rejected applications hold their images.
    await applyWith(urls[0], 'pending');
    await applyWith(urls[1], 'rejected');
    expect(await issue()).toBe(429);
    // An approved (paid) application's image, or one an ad shows, is no longer the client's to hold.
    await applyWith(urls[2], 'approved');
    const issued = await issue();
    expect(typeof issued).toBe('string');
    expect(await issue()).toBe(429);
    const period = { startsAt: now, endsAt: new Date(now.getTime() + 86_400_000), createdAt: now, updatedAt: now };
    await db()
      .db.insert(ads)
      .values({ type: 'web', title: 'Shown', imageUrl: urls[3], position: 0, ...period });
    expect(typeof (await issue())).toBe('string');
    expect(await issue()).toBe(429);
    // Another address has its own room.
    expect(typeof (await issue(marksOf(clientKeysOf('198.51.100.5'))))).toBe('string');
  });

  it(`gives the room back ${UNPAID_APPLICATION_DAYS} days after the issue, when an unpaid application is gone`, async () => {
    for (let i = 0; i < FULL; i += 1) await applyWith((await issue()) as string, 'pending');
    const day = 86_400_000;
    expect(await issue(client, new Date(now.getTime() + UNPAID_APPLICATION_DAYS * day))).toBe(429);
    const later = new Date(now.getTime() + UNPAID_APPLICATION_DAYS * day + 1);
    expect(typeof (await issue(client, later))).toBe('string');
  });

  it('gives a network (IPv4 /24, IPv6 /48) four addresses’ room; an address of another network goes on', async () => {
    expect(NETWORK_IMAGE_ROOM_BYTES).toBe(4 * CLIENT_IMAGE_ROOM_BYTES);
    for (let address = 0; address < 4; address += 1) {
      const neighbour = marksOf(clientKeysOf(`2001:db8:9:${address}::1`));
      for (let i = 0; i < FULL; i += 1) expect(typeof (await issue(neighbour))).toBe('string');
    }
    expect(await issue(marksOf(clientKeysOf('2001:db8:9:ff::1')))).toBe(429);
    expect(typeof (await issue(marksOf(clientKeysOf('2001:db8:a::1'))))).toBe('string');
  });

  it('answers 507, not 429, when the storage is full but the client has room', async () => {
    const request = { type: 'web' as const, extension: 'png' as const, byteSize: IMAGE_MAX_BYTES };
    const tiny = { maxStoredBytes: IMAGE_MAX_BYTES, uploader: client };
    await issueImageUpload(db().db, store, request, now, tiny);
    await expect(issueImageUpload(db().db, store, request, now, tiny)).rejects.toMatchObject({ status: 507 });
  });

  it('keeps pseudonyms, never the address, and the same ones for every spelling of it', async () => {
    await issue(marksOf(clientKeysOf('::ffff:203.0.113.5')));
    const [row] = await db().db.select().from(imageUploads);
    expect(row).toMatchObject({ uploader: client.address, uploaderNetwork: client.network });
    expect(row.uploader).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.stringify(row)).not.toContain('203.0.113');
    expect(uploaderMarks('another-token')(clientKeysOf('203.0.113.5')).address).not.toBe(client.address);
  });
});

describe('scheduleOrphanSweep', () => {
  const db = testDatabaseFor('pglite');
  let store: ReturnType<typeof tempLocalStore>;
  beforeEach(() => {
    store = tempLocalStore();
  });
  afterEach(() => {
    store.remove();
    vi.useRealTimers();
  });

  it('removes an image never submitted within 35 minutes of its issue (a sweep every 5 minutes)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    await issueImageUpload(db().db, store, { type: 'web', extension: 'png', byteSize: PNG.byteLength }, clock.now());
    const logger = recordingLogger();
    const stop = scheduleOrphanSweep({ db: db().db, storage: store, clock, logger });
    try {
      // 35 minutes of this clock and of the timers, 5 at a time.
      for (let minutes = 5; minutes <= 35; minutes += 5) {
        clock.advance(5 * 60);
        await vi.advanceTimersByTimeAsync(5 * 60_000);
      }
      await vi.waitFor(async () => expect(await db().db.select().from(imageUploads)).toEqual([]));
      expect(logger.lines).toEqual(['[images] removed 1 images no application or ad uses.']);
    } finally {
      stop();
    }
  });
});
