import { eq, sql } from 'drizzle-orm';
import {
  AD_FORMAT_MESSAGES,
  AD_MESSAGES,
  AdBannerListResponseSchema,
  AdClickResponseSchema,
  AdSubmitResponseSchema,
  ImageUploadResponseSchema,
  type AdType,
} from '../../contract/ads';
import { ApiErrorSchema } from '../../contract/bus';
import { PNG } from '../../tests/fixtures/images';
import { testApi } from '../../tests/setup/api';
import { uploadImageThrough } from '../../tests/setup/ads-api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { adCounts } from '../ads/counters';
import type { Api } from '../app';
import { adDailyCounts, adRequests, ads, rateLimits } from '../db/schema';

const DAY_MS = 86_400_000;

describe.each(testDatabaseKinds)('ads api on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;
  const db = () => database().db;

  beforeEach(async () => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = testApi({ db: db(), storage: store, clock });
  });
  afterEach(() => store.remove());

  const json = (method: string, body: unknown, ip = '203.0.113.7') => ({
    method,
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });
  /** Issues an image URL for `type` (presign only). */
  async function issueImage(type: AdType) {
    const response = await app.request(
      '/api/s3/presigned-url/image',
      json('POST', { type, extension: 'png', byteSize: PNG.byteLength }),
    );
    expect(response.status).toBe(200);
    return ImageUploadResponseSchema.parse(await response.json());
  }
  const uploadedImage = async (type: AdType) => (await uploadImageThrough(app, type)).imageUrl;

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
    app.request(`/api/ads/${type}/submit`, json('POST', body, ip));
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;
  const storedRequests = () => db().select().from(adRequests);

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

      const [row] = await db().select().from(adRequests).where(eq(adRequests.id, body.id!));
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
        createdAt: clock.now(),
        decidedAt: null,
      });
    });

    it('stores a kakao application with its message', async () => {
      const imageUrl = await uploadedImage('kakao');
      const response = await submit('kakao', application(imageUrl, { type: 'kakao', content: '점심 10% 할인' }));
      expect(response.status).toBe(201);
      expect(await storedRequests()).toMatchObject([{ type: 'kakao', content: '점심 10% 할인', status: 'pending' }]);
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
      expect(await storedRequests()).toEqual([]);
    });

    it('refuses images the api did not issue, did not receive, or issued for the other type', async () => {
      const kakaoImage = await uploadedImage('kakao');
      const { imageUrl: neverUploaded } = await issueImage('web');
      const webImage = await uploadedImage('web');
      const refusals: [string, unknown][] = [
        ['web', application('https://evil.example.com/banner.png')],
        ['web', application('/images/web-00000000-0000-0000-0000-000000000000.png')],
        ['web', application(neverUploaded)],
        ['web', application(kakaoImage)],
        ['kakao', application(webImage, { type: 'kakao', content: '점심 할인' })],
      ];
      for (const [index, [type, body]] of refusals.entries()) {
        const response = await submit(type, body, `198.51.100.${index}`);
        expect(response.status).toBe(400);
        expect(await message(response)).toMatch(/^imageUrl: /);
      }
      expect(await storedRequests()).toEqual([]);
    });

    it('sniffs an upload that went straight to the store at first use: a fake image answers 415 and is deleted', async () => {
      // As with S3: the object arrives without passing the api's PUT (signed size and type only).
      const { imageUrl } = await issueImage('web');
      const key = imageUrl.slice('/images/'.length);
      const fake = new TextEncoder().encode('<svg/>'.padEnd(PNG.byteLength, ' '));
      await store.put(key, fake, 'image/png');
      const response = await submit('web', application(imageUrl));
      expect(response.status).toBe(415);
      expect(await message(response)).toBe('imageUrl: not a jpg, png or gif');
      expect(await store.head(key)).toBeNull();
      expect(await storedRequests()).toEqual([]);
      // The same upload of a real image is taken (and kept) instead.
      const real = await issueImage('web');
      await store.put(real.imageUrl.slice('/images/'.length), PNG, 'image/png');
      expect((await submit('web', application(real.imageUrl), '198.51.100.99')).status).toBe(201);
    });

    it('refuses a body whose type is not the path’s, and unknown types', async () => {
      const kakaoImage = await uploadedImage('kakao');
      const mismatch = await submit('web', application(kakaoImage, { type: 'kakao', content: '점심 할인' }));
      expect(mismatch.status).toBe(400);
      expect(await message(mismatch)).toMatch(/^type: /);
      expect((await submit('banner', application(kakaoImage))).status).toBe(404);
      expect(await storedRequests()).toEqual([]);
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
      expect(await storedRequests()).toHaveLength(5);

      expect((await submit('web', application(imageUrl), '203.0.113.51')).status).toBe(201);
      expect(await storedRequests()).toHaveLength(6);
    });
  });

  /** An ad inserted directly (as an approval or legacy data would leave it). */
  async function insertAd(values: {
    title: string;
    position: number;
    type?: AdType;
    redirectUrl?: string | null;
    imageUrl?: string | null;
    startsAt?: Date;
    endsAt?: Date;
  }): Promise<number> {
    const now = clock.now();
    const [row] = await db()
      .insert(ads)
      .values({
        type: values.type ?? 'web',
        title: values.title,
        redirectUrl: values.redirectUrl === undefined ? `https://example.com/${values.position}` : values.redirectUrl,
        imageUrl: values.imageUrl === undefined ? `/images/web-${values.position}.png` : values.imageUrl,
        position: values.position,
        startsAt: values.startsAt ?? new Date(now.getTime() - DAY_MS),
        endsAt: values.endsAt ?? new Date(now.getTime() + DAY_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ads.id });
    return row.id;
  }

  describe('GET /api/web/ads', () => {
    it('lists the in-period web ads in position order as { src, url, id, title }', async () => {
      const now = clock.now();
      const second = await insertAd({ title: 'Second', position: 5 });
      const first = await insertAd({ title: 'First', position: 1, redirectUrl: null });
      const legacy = await insertAd({ title: 'Legacy', position: 7, redirectUrl: 'javascript:alert(1)' });
      await insertAd({ title: 'Not yet', position: 0, startsAt: new Date(now.getTime() + 1000) });
      await insertAd({ title: 'Ended', position: 2, endsAt: now });
      await insertAd({ title: 'Kakao', position: 3, type: 'kakao' });
      await insertAd({ title: 'No image', position: 4, imageUrl: null });

      const response = await app.request('/api/web/ads');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(AdBannerListResponseSchema.parse(await response.json())).toEqual({
        data: [
          { id: first, title: 'First', src: '/images/web-1.png', url: '' },
          { id: second, title: 'Second', src: '/images/web-5.png', url: 'https://example.com/5' },
          { id: legacy, title: 'Legacy', src: '/images/web-7.png', url: '' },
        ],
      });

      clock.advance(2 * 86_400);
      expect(await (await app.request('/api/web/ads')).json()).toEqual({ data: [] });
    });
  });

  describe('POST /api/ads/:id/clicks and /impressions', () => {
    /** A phone as the web forwards it: its address in X-Forwarded-For, its User-Agent passed on. */
    type Phone = { ip?: string; userAgent?: string };
    const PHONE = { ip: '203.0.113.20', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)' };
    const from = ({ ip = PHONE.ip, userAgent = PHONE.userAgent }: Phone = {}) => ({
      method: 'POST',
      headers: { 'X-Forwarded-For': ip, 'User-Agent': userAgent },
    });
    const click = (id: number | string, phone?: Phone) => app.request(`/api/ads/${id}/clicks`, from(phone));
    const impression = (id: number | string, phone?: Phone) => app.request(`/api/ads/${id}/impressions`, from(phone));

    it('answers a served ad’s http(s) link and counts the click', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: 'https://cafe.example.com/?a=1' });
      const response = await click(id);
      expect(response.status).toBe(200);
      expect(AdClickResponseSchema.parse(await response.json())).toEqual({
        redirectUrl: 'https://cafe.example.com/?a=1',
      });
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 0, clicks: 1 }]);
    });

    it('answers 404 and counts nothing for unknown, out-of-period and link-less ads', async () => {
      const now = clock.now();
      const ended = await insertAd({ title: 'Ended', position: 0, endsAt: now });
      const future = await insertAd({ title: 'Future', position: 1, startsAt: new Date(now.getTime() + 1000) });
      const linkless = await insertAd({ title: 'No link', position: 2, redirectUrl: null });
      const legacy = await insertAd({ title: 'Legacy', position: 3, redirectUrl: 'javascript:alert(1)' });
      for (const id of [9999, ended, future, linkless, legacy]) {
        const response = await click(id);
        expect(response.status).toBe(404);
        expect(await message(response)).toBeTruthy();
      }
      for (const id of [9999, ended, future]) expect((await impression(id)).status).toBe(404);
      expect(await db().select().from(adDailyCounts)).toEqual([]);
    });

    it('answers a click its link, uncounted, when the counts cannot be written (a full disk), and logs it once', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: 'https://cafe.example.com/' });
      const logger = recordingLogger();
      const full = testApi({ db: db(), storage: store, clock, logger });
      // Reads go on, writes fail: as PostgreSQL (or PGlite) answers once its disk is full.
      await db().execute(sql`
        CREATE FUNCTION refuse_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'No space left on device'; END $$ LANGUAGE plpgsql`);
      for (const table of ['rate_limits', 'ad_daily_counts']) {
        await db().execute(
          sql.raw(
            `CREATE TRIGGER full_disk BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_write()`,
          ),
        );
      }
      try {
        for (let i = 0; i < 3; i += 1) {
          const response = await full.request(`/api/ads/${id}/clicks`, from());
          expect(response.status).toBe(200);
          expect(AdClickResponseSchema.parse(await response.json()).redirectUrl).toBe('https://cafe.example.com/');
        }
        expect(logger.lines.filter((line) => line.includes('click counts cannot be written'))).toHaveLength(1);
      } finally {
        for (const table of ['rate_limits', 'ad_daily_counts'])
          await db().execute(sql.raw(`DROP TRIGGER full_disk ON ${table}`));
        await db().execute(sql`DROP FUNCTION refuse_write()`);
      }
      expect(await adCounts(db(), id)).toEqual([]);
      expect((await full.request(`/api/ads/${id}/clicks`, from({ userAgent: 'phone/2' }))).status).toBe(200);
      expect(logger.lines.at(-1)).toContain('click counts are written again');
    });

    it('counts an impression of a served ad with 204', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: null });
      const response = await impression(id);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 1, clicks: 0 }]);
    });

    it('counts 30 clicks from one phone on one ad once, all answered the link; another phone and the next KST day count again', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: 'https://cafe.example.com/' });
      const other = await insertAd({ title: 'Bakery', position: 1, redirectUrl: 'https://bakery.example.com/' });
      for (let i = 0; i < 30; i += 1) {
        const response = await click(id);
        expect(response.status).toBe(200);
        expect(AdClickResponseSchema.parse(await response.json()).redirectUrl).toBe('https://cafe.example.com/');
      }
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 0, clicks: 1 }]);

      // Another ad; another address; two phones behind one address with different User-Agents.
      // (Other addresses: this one has spent its 30 clicks of these 10 minutes.)
      expect((await click(other, { ip: '198.51.100.30' })).status).toBe(200);
      expect((await click(id, { ip: '198.51.100.31' })).status).toBe(200);
      expect((await click(id, { ip: '198.51.100.31', userAgent: 'Mozilla/5.0 (Linux; Android 14)' })).status).toBe(200);
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 0, clicks: 3 }]);
      expect(await adCounts(db(), other)).toEqual([{ day: '2026-11-23', impressions: 0, clicks: 1 }]);

      // 23:59:59 KST is still the same day; a second later it is the next one, counted again once.
      const late = { ip: '198.51.100.32' };
      clock.set('2026-11-23T23:59:59+09:00');
      await click(id, late);
      clock.set('2026-11-24T00:00:00+09:00');
      await click(id, late);
      await click(id, late);
      expect(await adCounts(db(), id)).toEqual([
        { day: '2026-11-23', impressions: 0, clicks: 4 },
        { day: '2026-11-24', impressions: 0, clicks: 1 },
      ]);
    });

    it('counts 30 impressions from one phone on one ad once; another phone and the next KST day count again', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: null });
      for (let i = 0; i < 30; i += 1) expect((await impression(id)).status).toBe(204);
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 1, clicks: 0 }]);

      // Another address; the same address with another User-Agent (another phone behind it).
      expect((await impression(id, { ip: '198.51.100.30' })).status).toBe(204);
      expect((await impression(id, { userAgent: 'Mozilla/5.0 (Linux; Android 14)' })).status).toBe(204);
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 3, clicks: 0 }]);

      // 23:59:59 KST is still the same day; a second later it is the next one, counted again once.
      clock.set('2026-11-23T23:59:59+09:00');
      expect((await impression(id)).status).toBe(204);
      clock.set('2026-11-24T00:00:00+09:00');
      expect((await impression(id)).status).toBe(204);
      expect((await impression(id)).status).toBe(204);
      expect(await adCounts(db(), id)).toEqual([
        { day: '2026-11-23', impressions: 3, clicks: 0 },
        { day: '2026-11-24', impressions: 1, clicks: 0 },
      ]);
    });

    it('counts a phone once however its address is spelt, and anywhere in its IPv6 /64', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: 'https://cafe.example.com/' });
      for (const ip of ['192.0.2.40', '::ffff:192.0.2.40', '::FFFF:C000:228']) {
        expect((await click(id, { ip })).status).toBe(200);
        expect((await impression(id, { ip })).status).toBe(204);
      }
      for (const ip of ['2001:db8:40:1::1', '2001:DB8:40:1:0:0:0:1', '2001:db8:40:1:8a2e:370:7334:1']) {
        expect((await click(id, { ip })).status).toBe(200);
        expect((await impression(id, { ip })).status).toBe(204);
      }
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 2, clicks: 2 }]);
    });

    it('answers the 31st click from one address in 10 minutes its link, uncounted, whatever its User-Agent', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: 'https://cafe.example.com/' });
      // A script varying its User-Agent is a new phone each time: the address's limit holds it to 30.
      for (let i = 0; i < 31; i += 1) {
        const response = await click(id, { userAgent: `bot/${i}` });
        expect(response.status, `click ${i + 1}`).toBe(200);
        expect(AdClickResponseSchema.parse(await response.json()).redirectUrl).toBe('https://cafe.example.com/');
      }
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 0, clicks: 30 }]);
      // Another address is not held by it.
      await click(id, { ip: '198.51.100.31', userAgent: 'bot/31' });
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 0, clicks: 31 }]);
    });

    it('answers the 61st impression from one address in 10 minutes 429 with Retry-After, uncounted', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0, redirectUrl: null });
      for (let i = 0; i < 60; i += 1) expect((await impression(id, { userAgent: `bot/${i}` })).status).toBe(204);
      const limited = await impression(id, { userAgent: 'bot/60' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await adCounts(db(), id)).toEqual([{ day: '2026-11-23', impressions: 60, clicks: 0 }]);
    });

    it('keeps no address nor User-Agent in its counted-today marks', async () => {
      const id = await insertAd({ title: 'Cafe', position: 0 });
      await click(id);
      await impression(id);
      const marks = (await db().select({ key: rateLimits.key }).from(rateLimits))
        .map((row) => row.key)
        .filter((key) => key.startsWith('adCounted:'));
      expect(marks).toHaveLength(2);
      for (const mark of marks) {
        expect(mark).toMatch(new RegExp(`^adCounted:(clicks|impressions):${id}:2026-11-23:[A-Za-z0-9_-]{22}$`));
        expect(mark).not.toContain(PHONE.ip);
      }
    });

    it('answers 404 for ids that are not ad ids', async () => {
      await insertAd({ title: 'Cafe', position: 0 });
      for (const id of ['abc', '1abc', '-1', '1.5', '99999999999', '0']) {
        expect((await click(id)).status, id).toBe(404);
        expect((await impression(id)).status, id).toBe(404);
      }
      expect(await db().select().from(adDailyCounts)).toEqual([]);
    });
  });
});
