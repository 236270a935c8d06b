import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import {
  AD_FORMAT_MESSAGES,
  IMAGE_KEY_PATTERN,
  IMAGE_MAX_BYTES,
  IMAGE_ROOM_FULL_MESSAGE,
  ImageUploadResponseSchema,
} from '../../contract/ads';
import { ApiErrorSchema } from '../../contract/bus';
import { PNG, JPEG, GIF } from '../../tests/fixtures/images';
import { testApi } from '../../tests/setup/api';
import { uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { createTestDatabase, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import type { Api } from '../app';
import type { Database } from '../db/client';
import { CLIENT_IMAGE_ROOM_BYTES, ORPHAN_IMAGE_AGE_MS, removeOrphanImages, STORAGE_FULL_MESSAGE } from '../ads/images';
import { imageUploads } from '../db/schema';
import { READY_MIN_FREE_BYTES } from '../readiness';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe.each(testDatabaseKinds)('image upload api on %s', (kind) => {
  let database: Database;
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`TRUNCATE image_uploads, ad_requests, rate_limits RESTART IDENTITY CASCADE`);
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = testApi({ db: database.db, storage: store, clock });
  });
  afterEach(() => store.remove());

  const presign = (body: unknown) =>
    app.request('/api/s3/presigned-url/image', {
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
    app.request(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'Content-Type': contentType } });
  const getImage = (key: string) => app.request(`/api/images/${key}`);
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;
  const storedFiles = () => (existsSync(store.dir) ? readdirSync(store.dir) : []);

  describe('POST /api/s3/presigned-url/image', () => {
    it('issues a signed PUT for a key the server chooses, png by default', async () => {
      const response = await presign({ type: 'web', byteSize: 1234, key: '../../evil.html', extension: undefined });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const { presignedUrl, imageUrl } = ImageUploadResponseSchema.parse(await response.json());
      expect(imageUrl).toMatch(new RegExp(`^/images/web-${UUID}\\.png$`));
      expect(imageUrl.slice('/images/'.length)).toMatch(IMAGE_KEY_PATTERN); // the names the web serves
      const url = new URL(presignedUrl);
      expect(url.origin).toBe('http://localhost');
      expect(url.pathname).toBe(`/api/uploads/${imageUrl.slice('/images/'.length)}`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ contentType: 'image/png', byteSize: '1234' });
      expect(url.searchParams.get('signature')).toBeTruthy();

      const [row] = await database.db.select().from(imageUploads);
      expect(row).toMatchObject({
        imageUrl,
        adType: 'web',
        contentType: 'image/png',
        byteSize: 1234,
        status: 'issued',
        issuedAt: clock.now(),
        expiresAt: new Date(clock.now().getTime() + 600_000),
      });

      const other = ImageUploadResponseSchema.parse(await (await presign({ type: 'web', byteSize: 1234 })).json());
      expect(other.imageUrl).not.toBe(imageUrl);
    });

    it('accepts jpg (jpeg becomes .jpg), png and gif for web and kakao', async () => {
      for (const [extension, ext, contentType] of [
        ['jpeg', 'jpg', 'image/jpeg'],
        ['JPG', 'jpg', 'image/jpeg'],
        ['gif', 'gif', 'image/gif'],
        ['png', 'png', 'image/png'],
      ]) {
        const response = await presign({ type: 'kakao', extension, byteSize: 10 });
        expect(response.status).toBe(200);
        const { presignedUrl, imageUrl } = ImageUploadResponseSchema.parse(await response.json());
        expect(imageUrl).toMatch(new RegExp(`^/images/kakao-${UUID}\\.${ext}$`));
        expect(new URL(presignedUrl).searchParams.get('contentType')).toBe(contentType);
      }
    });

    it('refuses other types, sizes over 5 MB and unknown ad types with 400, issuing nothing', async () => {
      for (const extension of ['bmp', 'svg', 'webp', 'html', 'png.html']) {
        const response = await presign({ type: 'web', extension, byteSize: 10 });
        expect(response.status).toBe(400);
        expect(await message(response)).toBe(`extension: ${AD_FORMAT_MESSAGES.imageType}`);
      }
      const tooBig = await presign({ type: 'web', extension: 'png', byteSize: IMAGE_MAX_BYTES + 1 });
      expect(tooBig.status).toBe(400);
      expect(await message(tooBig)).toBe(`byteSize: ${AD_FORMAT_MESSAGES.imageSize}`);
      for (const body of [
        { type: 'banner', byteSize: 10 },
        { byteSize: 10 },
        { type: 'web', byteSize: 0 },
        { type: 'web', byteSize: 1.5 },
        { type: 'web' },
      ]) {
        const response = await presign(body);
        expect(response.status).toBe(400);
        expect(await message(response)).toMatch(/^(type|byteSize): /);
      }
      expect(await database.db.select().from(imageUploads)).toEqual([]);

      expect((await presign({ type: 'web', byteSize: IMAGE_MAX_BYTES })).status).toBe(200);
    });
  });

  describe('PUT to the presigned URL, then GET /api/images/:key', () => {
    it('stores exactly the signed bytes and serves them as an immutable, nosniff image', async () => {
      for (const [bytes, extension, contentType] of [
        [PNG, 'png', 'image/png'],
        [JPEG, 'jpeg', 'image/jpeg'],
        [GIF, 'gif', 'image/gif'],
      ] as const) {
        const { presignedUrl, key } = await issue(bytes, extension);
        const response = await put(presignedUrl, bytes, contentType);
        expect(response.status).toBe(204);

        const image = await getImage(key);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe(contentType);
        expect(image.headers.get('content-length')).toBe(String(bytes.byteLength));
        expect(image.headers.get('x-content-type-options')).toBe('nosniff');
        expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(Buffer.from(await image.arrayBuffer())).toEqual(bytes);
      }
      expect(storedFiles()).toHaveLength(3);
    });

    it('refuses a body shorter or longer than signed, and spends the URL', async () => {
      const short = await issue(PNG);
      const shorter = await put(short.presignedUrl, PNG.subarray(0, PNG.byteLength - 1));
      expect(shorter.status).toBe(400);
      expect((await getImage(short.key)).status).toBe(404);
      expect((await put(short.presignedUrl, PNG)).status).toBe(409);

      const long = await issue(PNG);
      const longer = await put(long.presignedUrl, Buffer.concat([PNG, Buffer.from([0])]));
      expect(longer.status).toBe(413);
      expect((await getImage(long.key)).status).toBe(404);
      expect(storedFiles()).toEqual([]);
    });

    it('refuses a Content-Type other than the signed one with 415, without spending the URL', async () => {
      const { presignedUrl, key } = await issue(PNG);
      for (const contentType of ['image/jpeg', 'text/html', 'application/octet-stream']) {
        const response = await put(presignedUrl, PNG, contentType);
        expect(response.status).toBe(415);
      }
      expect((await app.request(presignedUrl, { method: 'PUT', body: PNG })).status).toBe(415);
      expect((await getImage(key)).status).toBe(404);
      expect((await put(presignedUrl, PNG, 'image/png; charset=binary')).status).toBe(204);
    });

    it('refuses bytes that are not the declared image type with 415 and serves nothing', async () => {
      const text = Buffer.from('hello, not an image');
      const fake = await issue(text);
      const response = await put(fake.presignedUrl, text);
      expect(response.status).toBe(415);
      expect(await message(response)).toBe('The bytes are not the declared image type');
      expect((await getImage(fake.key)).status).toBe(404);

      // A real PNG declared as jpg is refused too: the bytes decide, not the name.
      const renamed = await issue(PNG, 'jpg');
      expect((await put(renamed.presignedUrl, PNG, 'image/jpeg')).status).toBe(415);
      expect((await getImage(renamed.key)).status).toBe(404);

      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const disguised = await issue(svg);
      expect((await put(disguised.presignedUrl, svg)).status).toBe(415);
      expect(storedFiles()).toEqual([]);
      expect(await database.db.select().from(imageUploads)).toEqual([]);
    });

    it('accepts one PUT per URL: a replay answers 409 and leaves the image as it was', async () => {
      const { presignedUrl, key } = await issue(PNG);
      expect((await put(presignedUrl, PNG)).status).toBe(204);
      const replay = await put(presignedUrl, PNG);
      expect(replay.status).toBe(409);
      expect(Buffer.from(await (await getImage(key)).arrayBuffer())).toEqual(PNG);
    });

    it('accepts only one of two concurrent PUTs to the same URL', async () => {
      const { presignedUrl, key } = await issue(PNG);
      const statuses = await Promise.all([put(presignedUrl, PNG), put(presignedUrl, PNG)]).then((responses) =>
        responses.map((response) => response.status).sort(),
      );
      expect(statuses).toEqual([204, 409]);
      expect((await getImage(key)).status).toBe(200);
    });

    it('refuses an expired URL with 403', async () => {
      const { presignedUrl, key } = await issue(PNG);
      clock.advance(10 * 60 + 1);
      expect((await put(presignedUrl, PNG)).status).toBe(403);
      expect((await getImage(key)).status).toBe(404);
    });

    it('still accepts the URL just before it expires', async () => {
      const { presignedUrl } = await issue(PNG);
      clock.advance(10 * 60 - 1);
      expect((await put(presignedUrl, PNG)).status).toBe(204);
    });

    it('refuses a URL whose signature, size, type, expiry or key was changed with 403', async () => {
      const { presignedUrl, key } = await issue(PNG);
      const tampered = (change: (url: URL) => void) => {
        const url = new URL(presignedUrl);
        change(url);
        return url.href;
      };
      const signature = new URL(presignedUrl).searchParams.get('signature') ?? '';
      const other = await issue(PNG);
      const attempts = [
        tampered((url) =>
          url.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
        ),
        tampered((url) => url.searchParams.delete('signature')),
        tampered((url) => url.searchParams.set('byteSize', String(PNG.byteLength + 1))),
        tampered((url) => url.searchParams.set('contentType', 'text/html')),
        tampered((url) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600))),
        // The signature of one upload does not open another key.
        tampered((url) => (url.pathname = `/api/uploads/${other.key}`)),
      ];
      for (const attempt of attempts) {
        const response = await put(attempt, Buffer.concat([PNG, Buffer.from([0])]).subarray(0, PNG.byteLength));
        expect(response.status).toBe(403);
      }
      expect((await getImage(key)).status).toBe(404);
      expect((await getImage(other.key)).status).toBe(404);
      expect((await put(presignedUrl, PNG)).status).toBe(204);
    });

    it('answers 404 for an issued image that was never uploaded, and for unknown keys', async () => {
      const { key } = await issue(PNG);
      expect((await getImage(key)).status).toBe(404);
      expect((await getImage(`web-${randomUUID()}.png`)).status).toBe(404);
    });

    it('never reads or writes outside the store directory, whatever the key', async () => {
      // A real image next to the store directory, and a record pointing at it (as a corrupt row would).
      const name = `outside-${randomUUID()}.png`;
      const outside = join(dirname(store.dir), name);
      writeFileSync(outside, PNG);
      try {
        await database.db.insert(imageUploads).values({
          key: `../${name}`,
          imageUrl: `/images/../${name}`,
          adType: 'web',
          contentType: 'image/png',
          byteSize: PNG.byteLength,
          status: 'stored',
          issuedAt: clock.now(),
          expiresAt: clock.now(),
        });
        for (const path of [
          `/api/images/..%2F${name}`,
          `/api/images/%2E%2E%2F${name}`,
          '/api/images/..%2Fetc%2Fpasswd',
        ]) {
          const response = await app.request(path);
          expect(response.status).toBe(404);
        }
        expect(await store.head(`../${name}`)).toBeNull();
        expect(await store.readStart(`../${name}`, 8)).toBeNull();
        expect(await store.get(`../${name}`)).toBeNull();

        // A PUT to an unsafe key is refused, even with a signature valid for its parameters.
        const { presignedUrl } = await issue(PNG);
        const url = new URL(presignedUrl);
        url.pathname = `/api/uploads/..%2F${name}`;
        const response = await put(url.href, Buffer.alloc(PNG.byteLength));
        expect([403, 404]).toContain(response.status);
        expect(
          await app.request(`/api/uploads/..%2Fetc?${url.searchParams}`, { method: 'PUT', body: PNG }),
        ).toHaveProperty('status', 403);
        expect(readdirSync(dirname(store.dir)).filter((file) => file === name)).toEqual([name]);
      } finally {
        rmSync(outside, { force: true });
      }
    });
  });
  describe('room', () => {
    /** An api over the same database and store, as another instance or a restarted one would be. */
    const apiWith = (deps: Partial<Parameters<typeof testApi>[0]>) =>
      testApi({ db: database.db, storage: store, clock, ...deps });
    const presignOn = (api: Api, ip: string, byteSize = PNG.byteLength) =>
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
      expect(await database.db.select().from(imageUploads)).toHaveLength(3);
      // Logged once per run of refusals: the first run ended with the 200 between.
      expect(logger.lines.filter((line) => line.includes('refused with 507'))).toHaveLength(2);

      // Counted from the database: a restarted api (a new process, the same data) still refuses.
      expect((await presignOn(apiWith({ imageStorageMaxBytes: 3 * PNG.byteLength }), '198.51.100.74', 1)).status).toBe(
        507,
      );
      // The orphan sweep frees the room of what no application uses.
      clock.advance(ORPHAN_IMAGE_AGE_MS / 1000 + 1);
      expect(await removeOrphanImages(database.db, store, clock.now())).toBe(3);
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
      expect(await database.db.select().from(imageUploads)).toHaveLength(FULL);
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
      expect(await database.db.select().from(imageUploads)).toHaveLength(1);
    });

    it('removes an image not submitted within 30 minutes of its presign: its file and record, so it is no longer served', async () => {
      const ip = '198.51.100.90';
      const orphan = await uploadImageThrough(app, 'web', PNG, ip);
      const submitted = await uploadImageThrough(app, 'web', PNG, ip);
      const submit = await app.request('/api/ads/web/submit', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(validApplication('web', submitted.imageUrl)),
      });
      expect(submit.status).toBe(201);

      clock.advance(30 * 60); // 30 minutes (FakeClock.advance takes seconds)
      expect(await removeOrphanImages(database.db, store, clock.now())).toBe(0);
      expect((await getImage(orphan.key)).status).toBe(200);
      clock.advance(1);
      expect(await removeOrphanImages(database.db, store, clock.now())).toBe(1);
      expect((await getImage(orphan.key)).status).toBe(404);
      expect(storedFiles()).toEqual([submitted.key]);
      expect((await getImage(submitted.key)).status).toBe(200);
    });
  });

  describe('abuse', () => {
    const presignFrom = (ip: string) =>
      app.request('/api/s3/presigned-url/image', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ type: 'web', byteSize: PNG.byteLength }),
      });
    const submitFrom = (ip: string, imageUrl: string) =>
      app.request('/api/ads/web/submit', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(validApplication('web', imageUrl)),
      });

    it('spends presigns and the submits they lead to from one budget: 12 per address in 10 minutes, then 429', async () => {
      const ip = '203.0.113.60';
      // Five applications (image and submit each: 10 points), then two images uploaded again.
      for (let i = 0; i < 5; i += 1) {
        const { imageUrl } = await uploadImageThrough(app, 'web', PNG, ip);
        expect((await submitFrom(ip, imageUrl)).status).toBe(201);
      }
      for (let i = 0; i < 2; i += 1) expect((await presignFrom(ip)).status).toBe(200);
      const limited = await presignFrom(ip);
      expect(limited.status).toBe(429);
      expect(await message(limited)).toBe('Too many requests; try again later');
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await database.db.select().from(imageUploads)).toHaveLength(7);
      // Another address has its own budget.
      expect((await presignFrom('203.0.113.61')).status).toBe(200);
    });

    it('refuses the submit of an address that spent its budget on presigns (429), though it has submitted nothing', async () => {
      const ip = '203.0.113.62';
      const { imageUrl } = await uploadImageThrough(app, 'web', PNG, ip);
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
