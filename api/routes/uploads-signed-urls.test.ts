/**
 * Image uploads through signed URLs: the presign, the one PUT it allows (its exact bytes, type and
 * expiry), and the image served back; no key reaches outside the store.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AD_FORMAT_MESSAGES, IMAGE_KEY_PATTERN, IMAGE_MAX_BYTES, ImageUploadResponseSchema } from '../../contract/ads';
import { GIF, JPEG, PNG } from '../../tests/fixtures/images';
import { message } from '../../tests/setup/ads-api';
import { uploadsApiFor } from '../../tests/setup/uploads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { imageUploads } from '../db/schema';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe.each(testDatabaseKinds)('image upload api on %s', (kind) => {
  const { db, store, clock, app, presign, issue, put, getImage, storedFiles } = uploadsApiFor(kind);

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

      const [row] = await db().select().from(imageUploads);
      expect(row).toMatchObject({
        imageUrl,
        adType: 'web',
        contentType: 'image/png',
        byteSize: 1234,
        status: 'issued',
        issuedAt: clock().now(),
        expiresAt: new Date(clock().now().getTime() + 600_000),
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
      expect(await db().select().from(imageUploads)).toEqual([]);

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
      expect((await app().request(presignedUrl, { method: 'PUT', body: PNG })).status).toBe(415);
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
      expect(await db().select().from(imageUploads)).toEqual([]);
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
      clock().advance(10 * 60 + 1);
      expect((await put(presignedUrl, PNG)).status).toBe(403);
      expect((await getImage(key)).status).toBe(404);
    });

    it('still accepts the URL just before it expires', async () => {
      const { presignedUrl } = await issue(PNG);
      clock().advance(10 * 60 - 1);
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
      const outside = join(dirname(store().dir), name);
      writeFileSync(outside, PNG);
      try {
        await db()
          .insert(imageUploads)
          .values({
            key: `../${name}`,
            imageUrl: `/images/../${name}`,
            adType: 'web',
            contentType: 'image/png',
            byteSize: PNG.byteLength,
            status: 'stored',
            issuedAt: clock().now(),
            expiresAt: clock().now(),
          });
        for (const path of [
          `/api/images/..%2F${name}`,
          `/api/images/%2E%2E%2F${name}`,
          '/api/images/..%2Fetc%2Fpasswd',
        ]) {
          const response = await app().request(path);
          expect(response.status).toBe(404);
        }
        expect(await store().head(`../${name}`)).toBeNull();
        expect(await store().readStart(`../${name}`, 8)).toBeNull();
        expect(await store().get(`../${name}`)).toBeNull();

        // A PUT to an unsafe key is refused, even with a signature valid for its parameters.
        const { presignedUrl } = await issue(PNG);
        const url = new URL(presignedUrl);
        url.pathname = `/api/uploads/..%2F${name}`;
        const response = await put(url.href, Buffer.alloc(PNG.byteLength));
        expect([403, 404]).toContain(response.status);
        expect(
          await app().request(`/api/uploads/..%2Fetc?${url.searchParams}`, { method: 'PUT', body: PNG }),
        ).toHaveProperty('status', 403);
        expect(readdirSync(dirname(store().dir)).filter((file) => file === name)).toEqual([name]);
      } finally {
        rmSync(outside, { force: true });
      }
    });
  });
});
