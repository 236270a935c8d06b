/**
 * POST /api/ads/:type/submit: an application stored as pending, or refused (its fields, its image, its
 * type, the rate limit).
 */
import { eq } from 'drizzle-orm';
import {
  AD_FORMAT_MESSAGES,
  AD_MESSAGES,
  AdSubmitResponseSchema,
  ImageUploadResponseSchema,
  type AdType,
} from '../../contract/ads';
import { PNG } from '../../tests/fixtures/images';
import { adsApiFor, message, uploadImageThrough } from '../../tests/setup/ads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { adApplications } from '../db/schema';

describe.each(testDatabaseKinds)('ads api on %s', (kind) => {
  const { db, store, clock, app } = adsApiFor(kind);

  const json = (method: string, body: unknown, ip = '203.0.113.7') => ({
    method,
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });
  /** Issues an image URL for `type` (presign only). */
  async function issueImage(type: AdType) {
    const response = await app().request(
      '/api/s3/presigned-url/image',
      json('POST', { type, extension: 'png', byteSize: PNG.byteLength }),
    );
    expect(response.status).toBe(200);
    return ImageUploadResponseSchema.parse(await response.json());
  }
  const uploadedImage = async (type: AdType) => (await uploadImageThrough(app(), type)).imageUrl;

  const application = (imageUrl: string, overrides: Record<string, unknown> = {}) => ({
    type: 'web',
    title: '  Campus Cafe  ',
    applicantName: '홍길동',
    applicantPhone: '01012345678',
    applicantEmail: 'owner@example.com',
    redirectUrl: 'https://cafe.example.com/menu',
    contentForManager: '',
    imageUrl,
    duration: 2,
    confirmed: false,
    ...overrides,
  });
  const submit = (type: string, body: unknown, ip?: string) =>
    app().request(`/api/ads/${type}/submit`, json('POST', body, ip));
  const storedApplications = () => db().select().from(adApplications);

  describe('POST /api/ads/:type/submit', () => {
    it('stores a valid application with an uploaded image as pending and unconfirmed: 201 { success, id, statusToken, emailed }', async () => {
      const imageUrl = await uploadedImage('web');
      const response = await submit('web', application(imageUrl));
      expect(response.status).toBe(201);
      const body = AdSubmitResponseSchema.parse(await response.json());
      expect(body).toEqual({
        success: true,
        id: expect.any(Number),
        statusToken: expect.stringMatching(/^[\w-]{43}$/),
        emailed: false,
      });

      const [row] = await db().select().from(adApplications).where(eq(adApplications.id, body.id!));
      expect(row).toMatchObject({
        type: 'web',
        title: 'Campus Cafe',
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'owner@example.com',
        redirectUrl: 'https://cafe.example.com/menu',
        contentForManager: null,
        content: null,
        imageUrl,
        duration: 2,
        confirmed: false,
        status: 'pending',
        createdAt: clock().now(),
        decidedAt: null,
      });
    });

    it('stores a kakao application with its message', async () => {
      const imageUrl = await uploadedImage('kakao');
      const response = await submit('kakao', application(imageUrl, { type: 'kakao', content: '점심 10% 할인' }));
      expect(response.status).toBe(201);
      expect(await storedApplications()).toMatchObject([
        { type: 'kakao', content: '점심 10% 할인', status: 'pending' },
      ]);
    });

    it('refuses invalid applications with 400 and the spec message, storing nothing', async () => {
      const web = await uploadedImage('web');
      const kakao = await uploadedImage('kakao');
      const refusals: [string, unknown, string][] = [
        ['kakao', application(kakao, { type: 'kakao' }), AD_MESSAGES.content],
        ['kakao', application(kakao, { type: 'kakao', content: '   ' }), AD_MESSAGES.content],
        ['web', application(web, { duration: 4 }), AD_MESSAGES.duration],
        ['web', application(web, { duration: 0 }), AD_MESSAGES.duration],
        ['web', application(web, { redirectUrl: 'javascript:alert(1)' }), AD_FORMAT_MESSAGES.redirectUrl],
        ['web', application(web, { redirectUrl: 'data:text/html,x' }), AD_FORMAT_MESSAGES.redirectUrl],
        ['web', application(web, { redirectUrl: 'cafe.example.com' }), AD_FORMAT_MESSAGES.redirectUrl],
        ['web', application(web, { title: ' \t ' }), AD_MESSAGES.title],
        ['web', application(web, { applicantEmail: 'owner' }), AD_FORMAT_MESSAGES.email],
        ['web', application(web, { applicantPhone: '12345' }), AD_FORMAT_MESSAGES.phone],
        ['web', application(web, { confirmed: true }), 'confirmed'],
        ['web', application(''), AD_MESSAGES.image],
        ['web', application(web, { title: '모현\u0000분식' }), '제목에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
        ['web', application(web, { title: '모현분식\n입금 계좌: 사기은행 999-99-9999' }), '제목에는 줄바꿈이나'],
        ['web', application(web, { applicantName: '홍길동\u202e' }), '이름에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
        ['web', application(web, { contentForManager: 'a\u0000' }), AD_FORMAT_MESSAGES.invalidCharacter],
      ];
      for (const [index, [type, body, expected]] of refusals.entries()) {
        const response = await submit(type, body, `198.51.100.${index}`);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(await message(response)).toContain(expected);
      }
      expect(await storedApplications()).toEqual([]);
    });

    it('refuses images the api did not issue, did not receive, or issued for the other type', async () => {
      const chatbotAdImage = await uploadedImage('kakao');
      const { imageUrl: neverUploaded } = await issueImage('web');
      const webImage = await uploadedImage('web');
      const refusals: [string, unknown][] = [
        ['web', application('https://evil.example.com/banner.png')],
        ['web', application('/images/web-00000000-0000-0000-0000-000000000000.png')],
        ['web', application(neverUploaded)],
        ['web', application(chatbotAdImage)],
        ['kakao', application(webImage, { type: 'kakao', content: '점심 할인' })],
      ];
      for (const [index, [type, body]] of refusals.entries()) {
        const response = await submit(type, body, `198.51.100.${index}`);
        expect(response.status).toBe(400);
        expect(await message(response)).toMatch(/^imageUrl: /);
      }
      expect(await storedApplications()).toEqual([]);
    });

    it('sniffs an upload that went straight to the store at first use: a fake image answers 415 and is deleted', async () => {
      // As with S3: the object arrives without passing the api's PUT (signed size and type only).
      const { imageUrl } = await issueImage('web');
      const key = imageUrl.slice('/images/'.length);
      const fake = new TextEncoder().encode('<svg/>'.padEnd(PNG.byteLength, ' '));
      await store().put(key, fake, 'image/png');
      const response = await submit('web', application(imageUrl));
      expect(response.status).toBe(415);
      expect(await message(response)).toBe('imageUrl: not a jpg, png or gif');
      expect(await store().head(key)).toBeNull();
      expect(await storedApplications()).toEqual([]);
      // The same upload of a real image is taken (and kept) instead.
      const real = await issueImage('web');
      await store().put(real.imageUrl.slice('/images/'.length), PNG, 'image/png');
      expect((await submit('web', application(real.imageUrl), '198.51.100.99')).status).toBe(201);
    });

    it('refuses a body whose type is not the path’s, and unknown types', async () => {
      const chatbotAdImage = await uploadedImage('kakao');
      const mismatch = await submit('web', application(chatbotAdImage, { type: 'kakao', content: '점심 할인' }));
      expect(mismatch.status).toBe(400);
      expect(await message(mismatch)).toMatch(/^type: /);
      expect((await submit('banner', application(chatbotAdImage))).status).toBe(404);
      expect(await storedApplications()).toEqual([]);
    });

    it('allows 5 submits per client in 10 minutes: the 6th answers 429 with Retry-After, other clients go on', async () => {
      const imageUrl = await uploadedImage('web');
      for (let i = 0; i < 5; i += 1) {
        expect((await submit('web', application(imageUrl), '203.0.113.50')).status).toBe(201);
      }
      const limited = await submit('web', application(imageUrl), '203.0.113.50, 10.0.0.1');
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await storedApplications()).toHaveLength(5);

      expect((await submit('web', application(imageUrl), '203.0.113.51')).status).toBe(201);
      expect(await storedApplications()).toHaveLength(6);
    });
  });
});
