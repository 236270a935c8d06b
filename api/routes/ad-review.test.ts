import { asc, eq } from 'drizzle-orm';
import {
  AdBannerListResponseSchema,
  AdminResponseSchema,
  AdRequestDetailResponseSchema,
  AdRequestListResponseSchema,
  AdSubmitResponseSchema,
  ManagedAdListResponseSchema,
  type AdType,
} from '../../contract/ads';
import { ApiErrorSchema } from '../../contract/bus';
import { adsDatabaseFor, adsTestApi, uploadImageThrough } from '../../tests/setup/ads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { createApi } from '../app';
import { adRequests, ads } from '../db/schema';

const DAY_MS = 86_400_000;
const TOKEN = 'ad-review-test-service-token-0123456789abcdef';

describe.each(testDatabaseKinds)('ad review api on %s', (kind) => {
  const database = adsDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: ReturnType<typeof createApi>;
  const db = () => database().db;
  const api = (serviceToken?: string) => adsTestApi({ db: db(), storage: store, clock, serviceToken });

  beforeEach(async () => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = api(TOKEN);
  });
  afterEach(() => store.remove());

  const authorized = { Authorization: `Bearer ${TOKEN}` };
  const get = (path: string) => app.request(path, { headers: authorized });
  const post = (path: string) => app.request(path, { method: 'POST', headers: authorized });
  const pendingList = (type: AdType) => get(`/api/ads/${type}/submit`);
  const detail = (type: AdType, id: number | string) => get(`/api/ads/${type}/submit/${id}`);
  const approve = (type: AdType, id: number | string) => post(`/api/ads/${type}/submit/${id}/approve`);
  const reject = (type: AdType, id: number | string) => post(`/api/ads/${type}/submit/${id}/reject`);
  const managedList = (type: AdType) => get(`/api/${type}/ads/list`);
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;

  /** The pending list of `type` as [id, title] pairs (asserting 200 and the contract shape). */
  async function pending(type: AdType) {
    const response = await pendingList(type);
    expect(response.status).toBe(200);
    return AdRequestListResponseSchema.parse(await response.json()).data;
  }
  /** The managed ad list of `type` (asserting 200 and the contract shape). */
  async function managed(type: AdType) {
    const response = await managedList(type);
    expect(response.status).toBe(200);
    const body = ManagedAdListResponseSchema.parse(await response.json());
    expect(body.success).toBe(true);
    return body.data;
  }
  async function detailStatus(type: AdType, id: number) {
    const response = await detail(type, id);
    expect(response.status).toBe(200);
    return AdRequestDetailResponseSchema.parse(await response.json()).data.status;
  }

  /** A request row inserted directly; returns its id. */
  async function insertRequest(values: Partial<typeof adRequests.$inferInsert> & { title: string }): Promise<number> {
    const [row] = await db()
      .insert(adRequests)
      .values({
        type: 'web',
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'owner@example.com',
        redirectUrl: 'https://cafe.example.com/menu',
        imageUrl: '/images/web-00000000-0000-0000-0000-000000000001.png',
        duration: 1,
        confirmed: false,
        status: 'pending',
        createdAt: clock.now(),
        ...values,
      })
      .returning({ id: adRequests.id });
    return row.id;
  }

  const json = (body: unknown, ip: string) => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });
  const uploadedImage = async (type: AdType) => (await uploadImageThrough(app, type)).imageUrl;
  /** Submits an application through the public api (presign → PUT → POST submit); returns its id. */
  async function submitted(type: AdType, overrides: Record<string, unknown> = {}) {
    const imageUrl = await uploadedImage(type);
    const application = {
      type,
      title: `${type} cafe`,
      applicantName: '홍길동',
      applicantPhone: '010-1234-5678',
      applicantEmail: 'owner@example.com',
      redirectUrl: 'https://cafe.example.com/menu',
      contentForManager: '세금계산서 발행 부탁드립니다.',
      imageUrl,
      duration: 2,
      confirmed: false,
      ...(type === 'kakao' ? { content: '점심 10% 할인' } : {}),
      ...overrides,
    };
    const response = await app.request(`/api/ads/${type}/submit`, json(application, '203.0.113.8'));
    expect(response.status).toBe(201);
    const { id } = AdSubmitResponseSchema.parse(await response.json());
    return { id: id!, imageUrl };
  }

  /** The five endpoints, for request `id` of web. */
  const endpoints = (id: number): [method: string, path: string][] => [
    ['GET', '/api/ads/web/submit'],
    ['GET', `/api/ads/web/submit/${id}`],
    ['POST', `/api/ads/web/submit/${id}/approve`],
    ['POST', `/api/ads/web/submit/${id}/reject`],
    ['GET', '/api/web/ads/list'],
  ];

  describe('service token', () => {
    it('answers 503 { message } on every endpoint while createApi has no service token, changing nothing', async () => {
      const id = await insertRequest({ title: 'Cafe' });
      const disabled = api();
      for (const [method, path] of endpoints(id)) {
        for (const headers of [{}, authorized]) {
          const response = await disabled.request(path, { method, headers });
          expect(response.status, `${method} ${path}`).toBe(503);
          expect(await message(response)).toBe('Admin API disabled: API_SERVICE_TOKEN is not set');
        }
      }
      expect(await db().select({ status: adRequests.status }).from(adRequests)).toEqual([{ status: 'pending' }]);
      expect(await db().select().from(ads)).toEqual([]);
    });

    it('answers 401 with WWW-Authenticate: Bearer without the token or with a wrong one, changing nothing', async () => {
      const id = await insertRequest({ title: 'Cafe' });
      const wrong = [
        undefined,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Bearer ${'x'.repeat(TOKEN.length)}`,
        'Bearer ',
        TOKEN,
        `Basic ${TOKEN}`,
        `Bearer ${TOKEN} extra`,
      ];
      for (const [method, path] of endpoints(id)) {
        for (const authorization of wrong) {
          const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
          const response = await app.request(path, { method, headers });
          expect(response.status, `${method} ${path} ${authorization}`).toBe(401);
          expect(response.headers.get('www-authenticate')).toBe('Bearer');
          expect(await response.json()).toEqual({ message: 'Unauthorized' });
        }
      }
      expect(await db().select({ status: adRequests.status }).from(adRequests)).toEqual([{ status: 'pending' }]);
      expect(await db().select().from(ads)).toEqual([]);
      // The right token opens every endpoint.
      expect((await pendingList('web')).status).toBe(200);
    });
  });

  describe('GET /api/ads/:type/submit', () => {
    it('lists only the pending requests of the type, oldest first, as exactly { id, title }', async () => {
      const now = clock.now().getTime();
      const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000);
      const newest = await insertRequest({ title: 'Newest', createdAt: at(0) });
      const oldest = await insertRequest({ title: 'Oldest', createdAt: at(3) });
      await insertRequest({ title: 'Approved', createdAt: at(5), status: 'approved', confirmed: true });
      await insertRequest({ title: 'Rejected', createdAt: at(5), status: 'rejected' });
      const kakao = await insertRequest({ title: 'Kakao', type: 'kakao', content: '할인', createdAt: at(4) });
      const middle = await insertRequest({ title: 'Middle', createdAt: at(1) });
      // Same instant, stored in the reverse of their id order: the id breaks the tie.
      const tieSecond = await insertRequest({ id: 500, title: 'Tie second', createdAt: at(2) });
      const tieFirst = await insertRequest({ id: 400, title: 'Tie first', createdAt: at(2) });

      const response = await pendingList('web');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      // The raw answer, before the schema could strip anything: no other field leaks.
      expect(body).toStrictEqual({
        success: true,
        data: [
          { id: oldest, title: 'Oldest' },
          { id: tieFirst, title: 'Tie first' },
          { id: tieSecond, title: 'Tie second' },
          { id: middle, title: 'Middle' },
          { id: newest, title: 'Newest' },
        ],
      });
      expect(AdRequestListResponseSchema.parse(body)).toEqual(body);

      expect(await pending('kakao')).toStrictEqual([{ id: kakao, title: 'Kakao' }]);
    });

    it('lists a request submitted through the public api', async () => {
      expect(await pending('web')).toEqual([]);
      const { id } = await submitted('web');
      expect(await pending('web')).toStrictEqual([{ id, title: 'web cafe' }]);
      expect(await pending('kakao')).toEqual([]);
    });
  });

  describe('GET /api/ads/:type/submit/:id', () => {
    it('answers every admin-view field of a submitted request, with content and status', async () => {
      const web = await submitted('web');
      const response = await detail('web', web.id);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      expect(body).toStrictEqual({
        success: true,
        data: {
          id: web.id,
          title: 'web cafe',
          applicantName: '홍길동',
          applicantPhone: '01012345678',
          applicantEmail: 'owner@example.com',
          duration: 2,
          redirectUrl: 'https://cafe.example.com/menu',
          contentForManager: '세금계산서 발행 부탁드립니다.',
          imageUrl: web.imageUrl,
          content: null,
          status: 'pending',
        },
      });
      expect(AdRequestDetailResponseSchema.parse(body)).toEqual(body);

      const kakao = await submitted('kakao', { redirectUrl: '', contentForManager: '', duration: 3 });
      const kakaoBody = AdRequestDetailResponseSchema.parse(await (await detail('kakao', kakao.id)).json());
      expect(kakaoBody.data).toStrictEqual({
        id: kakao.id,
        title: 'kakao cafe',
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'owner@example.com',
        duration: 3,
        redirectUrl: null,
        contentForManager: null,
        imageUrl: kakao.imageUrl,
        content: '점심 10% 할인',
        status: 'pending',
      });
    });

    it('answers 404 { message } for an unknown id, an id of the other type and ids beyond a serial', async () => {
      const web = await insertRequest({ title: 'Web' });
      const kakao = await insertRequest({ title: 'Kakao', type: 'kakao', content: '할인' });
      const misses: [AdType, number | string][] = [
        ['web', 9999],
        ['web', kakao],
        ['kakao', web],
        ['web', 0],
        ['web', 2_147_483_647],
        ['web', '2147483648'],
        ['web', `${2 ** 32 + web}`],
        ['web', '99999999999999999999'],
        ['web', 'abc'],
      ];
      for (const [type, id] of misses) {
        const response = await detail(type, id);
        expect(response.status, `${type} ${id}`).toBe(404);
        expect(await message(response)).toBeTruthy();
      }
    });
  });

  describe('POST /api/ads/:type/submit/:id/approve', () => {
    it('approves a pending request into an ad paid from now for duration × 30 days', async () => {
      const requestedAt = clock.now();
      const id = await insertRequest({ title: 'Cafe', duration: 3, createdAt: requestedAt });
      const other = await insertRequest({ title: 'Other', createdAt: requestedAt });
      clock.advance(3600);
      const now = clock.now();

      const response = await approve('web', id);
      expect(response.status).toBe(200);
      const body = AdminResponseSchema.parse(await response.json());
      expect(body).toEqual({ success: true, message: 'Approved', data: { adId: expect.any(Number) } });
      const { adId } = body.data as { adId: number };

      expect(await pending('web')).toEqual([{ id: other, title: 'Other' }]);
      expect(await detailStatus('web', id)).toBe('approved');
      expect(await managed('web')).toStrictEqual([
        {
          id: adId,
          title: 'Cafe',
          redirectUrl: 'https://cafe.example.com/menu',
          imageUrl: '/images/web-00000000-0000-0000-0000-000000000001.png',
          startsAt: now.toISOString(),
          endsAt: new Date(now.getTime() + 3 * 30 * DAY_MS).toISOString(),
          impressions: 0,
          clicks: 0,
        },
      ]);
      expect(await managed('kakao')).toEqual([]);
      const [request] = await db().select().from(adRequests).where(eq(adRequests.id, id));
      expect(request).toMatchObject({ status: 'approved', confirmed: true, decidedAt: now });
    });

    it('answers 409 for a request already approved or rejected, changing nothing', async () => {
      const id = await insertRequest({ title: 'Cafe' });
      expect((await approve('web', id)).status).toBe(200);
      const again = await approve('web', id);
      expect(again.status).toBe(409);
      expect(await message(again)).toBeTruthy();
      expect((await reject('web', id)).status).toBe(409);
      expect(await detailStatus('web', id)).toBe('approved');

      const rejected = await insertRequest({ title: 'Rejected' });
      expect((await reject('web', rejected)).status).toBe(200);
      const late = await approve('web', rejected);
      expect(late.status).toBe(409);
      expect(await message(late)).toBeTruthy();
      expect(await detailStatus('web', rejected)).toBe('rejected');

      expect(await db().select({ requestId: ads.requestId }).from(ads)).toEqual([{ requestId: id }]);
    });

    it('answers 404 to approve or reject through the other type’s path, an unknown id or one beyond a serial', async () => {
      const web = await insertRequest({ title: 'Web' });
      for (const [type, id] of [
        ['kakao', web],
        ['web', 9999],
        ['web', '2147483648'],
      ] as const) {
        const response = await approve(type, id);
        expect(response.status, `${type} ${id}`).toBe(404);
        expect((await reject(type, id)).status).toBe(404);
      }
      expect(await detailStatus('web', web)).toBe('pending');
      expect(await db().select().from(ads)).toEqual([]);
    });

    it('serves an approved web ad in the public banner list and totals its impressions and clicks', async () => {
      const { id, imageUrl } = await submitted('web');
      const approved = AdminResponseSchema.parse(await (await approve('web', id)).json());
      const { adId } = approved.data as { adId: number };

      const banners = AdBannerListResponseSchema.parse(await (await app.request('/api/web/ads')).json());
      expect(banners.data).toEqual([
        { id: adId, title: 'web cafe', src: imageUrl, url: 'https://cafe.example.com/menu' },
      ]);

      const impression = () => app.request(`/api/ads/${adId}/impressions`, { method: 'POST' });
      const click = () => app.request(`/api/ads/${adId}/clicks`, { method: 'POST' });
      for (let i = 0; i < 3; i += 1) expect((await impression()).status).toBe(204);
      for (let i = 0; i < 2; i += 1) expect((await click()).status).toBe(200);
      clock.advance(86_400); // the next KST day: totals span days
      expect((await impression()).status).toBe(204);
      expect((await click()).status).toBe(200);

      expect(await managed('web')).toMatchObject([{ id: adId, impressions: 4, clicks: 3 }]);
    });

    it('approves a kakao request into a kakao ad only', async () => {
      const { id, imageUrl } = await submitted('kakao');
      expect((await approve('web', id)).status).not.toBe(200);
      expect((await approve('kakao', id)).status).toBe(200);
      expect(await managed('kakao')).toMatchObject([
        { title: 'kakao cafe', imageUrl, impressions: 0, clicks: 0, startsAt: clock.now().toISOString() },
      ]);
      expect(await managed('web')).toEqual([]);
      expect(await db().select({ type: ads.type, content: ads.content }).from(ads)).toEqual([
        { type: 'kakao', content: '점심 10% 할인' },
      ]);
    });
  });

  describe('POST /api/ads/:type/submit/:id/reject', () => {
    it('rejects a pending request without creating an ad; a second reject answers 409', async () => {
      const id = await insertRequest({ title: 'Cafe' });
      const other = await insertRequest({ title: 'Other' });
      clock.advance(60);

      const response = await reject('web', id);
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json())).toEqual({ success: true, message: 'Rejected' });

      expect(await pending('web')).toEqual([{ id: other, title: 'Other' }]);
      expect(await detailStatus('web', id)).toBe('rejected');
      expect(await managed('web')).toEqual([]);
      expect(await db().select().from(ads)).toEqual([]);
      const [request] = await db().select().from(adRequests).where(eq(adRequests.id, id));
      expect(request).toMatchObject({ status: 'rejected', confirmed: false, decidedAt: clock.now() });

      const again = await reject('web', id);
      expect(again.status).toBe(409);
      expect(await message(again)).toBeTruthy();
      expect(await detailStatus('web', id)).toBe('rejected');
    });
  });

  describe('GET /api/:type/ads/list', () => {
    it('lists the type’s ads by position: each approval goes last', async () => {
      const now = clock.now();
      const period = { startsAt: now, endsAt: new Date(now.getTime() + DAY_MS), createdAt: now, updatedAt: now };
      // Ids out of position order, so an id order would show.
      await db()
        .insert(ads)
        .values([
          { id: 100, type: 'web', title: 'Existing', redirectUrl: null, imageUrl: null, position: 5, ...period },
          { id: 101, type: 'kakao', title: 'Kakao', redirectUrl: null, imageUrl: null, position: 50, ...period },
        ]);
      const first = await insertRequest({ title: 'First' });
      const second = await insertRequest({ title: 'Second' });

      expect((await approve('web', second)).status).toBe(200);
      clock.advance(60);
      expect((await approve('web', first)).status).toBe(200);

      expect((await managed('web')).map((ad) => ad.title)).toEqual(['Existing', 'Second', 'First']);
      expect((await managed('kakao')).map((ad) => ad.title)).toEqual(['Kakao']);
      const positions = await db()
        .select({ title: ads.title, position: ads.position })
        .from(ads)
        .where(eq(ads.type, 'web'))
        .orderBy(asc(ads.position));
      expect(positions).toEqual([
        { title: 'Existing', position: 5 },
        { title: 'Second', position: 6 },
        { title: 'First', position: 7 },
      ]);
    });
  });
});
