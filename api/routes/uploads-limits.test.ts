/**
 * The limits on image uploads: the store's room (IMAGE_STORAGE_MAX_MB, the disk's margin), a client's
 * room, the orphan sweep, one budget for presigns and submits, and hostile keys.
 */
import { IMAGE_MAX_BYTES, IMAGE_ROOM_FULL_MESSAGE } from '../../contract/ads';
import { PNG } from '../../tests/fixtures/images';
import { message, uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { testApi } from '../../tests/setup/api';
import { uploadsApiFor } from '../../tests/setup/uploads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { recordingLogger } from '../../tests/setup/fakes';
import { createApi } from '../app';
import { CLIENT_IMAGE_ROOM_BYTES, ORPHAN_IMAGE_AGE_MS, removeOrphanImages, STORAGE_FULL_MESSAGE } from '../ads/images';
import { imageUploads } from '../db/schema';
import { READY_MIN_FREE_BYTES } from '../readiness';

describe.each(testDatabaseKinds)('image upload api on %s', (kind) => {
  const { db, store, clock, app, issue, put, getImage, storedFiles } = uploadsApiFor(kind);

  describe('room', () => {
    /** An api over the same database and store, as another instance or a restarted one would be. */
    const apiWith = (deps: Partial<Parameters<typeof testApi>[0]>) =>
      testApi({ db: db(), storage: store(), clock: clock(), ...deps });
    const presignOn = (api: ReturnType<typeof createApi>, ip: string, byteSize = PNG.byteLength) =>
      api.request('/api/s3/presigned-url/image', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ type: 'web', byteSize }),
      });

    it('answers 507 with a message once the stored and issued images would exceed IMAGE_STORAGE_MAX_MB, issuing nothing', async () => {
      const logger = recordingLogger();
      const tiny = apiWith({ imageStorageMaxBytes: 3 * PNG.byteLength, logger });
      await uploadImageThrough(tiny, 'web', PNG, '198.51.100.70'); // stored
      expect((await presignOn(tiny, '198.51.100.71')).status).toBe(200); // issued, never uploaded
      expect((await presignOn(tiny, '198.51.100.72', PNG.byteLength + 1)).status).toBe(507);
      expect((await presignOn(tiny, '198.51.100.72')).status).toBe(200); // exactly the budget

      const full = await presignOn(tiny, '198.51.100.73', 1);
      expect(full.status).toBe(507);
      expect(await message(full)).toBe(STORAGE_FULL_MESSAGE);
      expect((await presignOn(tiny, '198.51.100.73', 1)).status).toBe(507);
      expect(await db().select().from(imageUploads)).toHaveLength(3);
      // Logged once per run of refusals: the first run ended with the 200 between.
      expect(logger.lines.filter((line) => line.includes('refused with 507'))).toHaveLength(2);

      // Counted from the database: a restarted api (a new process, the same data) still refuses.
      expect((await presignOn(apiWith({ imageStorageMaxBytes: 3 * PNG.byteLength }), '198.51.100.74', 1)).status).toBe(
        507,
      );
      // The orphan sweep frees the room of what no application uses.
      clock().advance(ORPHAN_IMAGE_AGE_MS / 1000 + 1);
      expect(await removeOrphanImages(db(), store(), clock().now())).toBe(3);
      expect((await presignOn(tiny, '198.51.100.75')).status).toBe(200);
      expect(logger.lines.at(-1)).toContain('presigns issued again');
    });

    it('answers a client past its room of images of undecided applications 429, not 507, and other addresses go on', async () => {
      const logger = recordingLogger();
      const api = apiWith({ logger });
      const FULL = CLIENT_IMAGE_ROOM_BYTES / IMAGE_MAX_BYTES;
      // A spammer rotating through the addresses of one IPv6 /64, each image at the largest size.
      for (let i = 1; i <= FULL; i += 1) {
        expect((await presignOn(api, `2001:db8:66:1::${i}`, IMAGE_MAX_BYTES)).status, `image ${i}`).toBe(200);
      }
      const refused = await presignOn(api, '2001:DB8:66:1:ffff::1', IMAGE_MAX_BYTES);
      expect(refused.status).toBe(429);
      expect(await message(refused)).toBe(IMAGE_ROOM_FULL_MESSAGE);
      expect(await db().select().from(imageUploads)).toHaveLength(FULL);
      // The store is not full: nothing says so, and another address applies.
      expect(logger.lines.filter((line) => line.includes('refused with 507'))).toEqual([]);
      expect((await presignOn(api, '198.51.100.66', IMAGE_MAX_BYTES)).status).toBe(200);
    });

    it('answers 507 when the image would leave DATA_DIR’s disk under its margin', async () => {
      let free = READY_MIN_FREE_BYTES + PNG.byteLength;
      const api = apiWith({ dataDirFreeBytes: async () => free });
      expect((await presignOn(api, '198.51.100.80')).status).toBe(200);
      free -= 1;
      const refused = await presignOn(api, '198.51.100.80');
      expect(refused.status).toBe(507);
      expect(await message(refused)).toBe(STORAGE_FULL_MESSAGE);
      expect(await db().select().from(imageUploads)).toHaveLength(1);
    });

    it('removes an image not submitted within 30 minutes of its presign: its file and record, so it is no longer served', async () => {
      const ip = '198.51.100.90';
      const orphan = await uploadImageThrough(app(), 'web', PNG, ip);
      const submitted = await uploadImageThrough(app(), 'web', PNG, ip);
      const submit = await app().request('/api/ads/web/submit', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(validApplication('web', submitted.imageUrl)),
      });
      expect(submit.status).toBe(201);

      clock().advance(30 * 60); // 30 minutes (FakeClock.advance takes seconds)
      expect(await removeOrphanImages(db(), store(), clock().now())).toBe(0);
      expect((await getImage(orphan.key)).status).toBe(200);
      clock().advance(1);
      expect(await removeOrphanImages(db(), store(), clock().now())).toBe(1);
      expect((await getImage(orphan.key)).status).toBe(404);
      expect(storedFiles()).toEqual([submitted.key]);
      expect((await getImage(submitted.key)).status).toBe(200);
    });
  });

  describe('abuse', () => {
    const presignFrom = (ip: string) =>
      app().request('/api/s3/presigned-url/image', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ type: 'web', byteSize: PNG.byteLength }),
      });
    const submitFrom = (ip: string, imageUrl: string) =>
      app().request('/api/ads/web/submit', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(validApplication('web', imageUrl)),
      });

    it('spends presigns and the submits they lead to from one budget: 12 per address in 10 minutes, then 429', async () => {
      const ip = '203.0.113.60';
      // Five applications (image and submit each: 10 points), then two images uploaded again.
      for (let i = 0; i < 5; i += 1) {
        const { imageUrl } = await uploadImageThrough(app(), 'web', PNG, ip);
        expect((await submitFrom(ip, imageUrl)).status).toBe(201);
      }
      for (let i = 0; i < 2; i += 1) expect((await presignFrom(ip)).status).toBe(200);
      const limited = await presignFrom(ip);
      expect(limited.status).toBe(429);
      expect(await message(limited)).toBe('Too many requests; try again later');
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await db().select().from(imageUploads)).toHaveLength(7);
      // Another address has its own budget.
      expect((await presignFrom('203.0.113.61')).status).toBe(200);
    });

    it('refuses the submit of an address that spent its budget on presigns (429), though it has submitted nothing', async () => {
      const ip = '203.0.113.62';
      const { imageUrl } = await uploadImageThrough(app(), 'web', PNG, ip);
      for (let i = 1; i < 12; i += 1) expect((await presignFrom(ip)).status).toBe(200);
      expect((await submitFrom(ip, imageUrl)).status).toBe(429);
      expect((await submitFrom('203.0.113.63', imageUrl)).status).toBe(201);
    });

    it.each([
      ['a NUL byte', 'web-a%00.png'],
      ['a backslash climb', '..%5C..%5Cetc%5Cpasswd'],
      ['an absolute path', '%2Fetc%2Fpasswd'],
      ['a right-to-left override', 'web-%E2%80%AEgnp.exe'],
      ['full-width dots', '%EF%BC%8E%EF%BC%8E%2Fetc'],
      ['a very long key', 'a'.repeat(5_000)],
    ])('never reads nor writes a key with %s', async (_, key) => {
      expect((await getImage(key)).status).toBe(404);
      const { presignedUrl } = await issue(PNG);
      const url = new URL(presignedUrl);
      url.pathname = `/api/uploads/${key}`;
      expect([403, 404]).toContain((await put(url.href, PNG)).status);
      expect(storedFiles()).toEqual([]);
    });
  });
});
