import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { AuditListResponseSchema } from '../../contract/admin';
import {
  AD_FORMAT_MESSAGES,
  AdBannerListResponseSchema,
  AdminResponseSchema,
  AdRequestDetailResponseSchema,
  AdRequestListResponseSchema,
  AdSubmitResponseSchema,
  ManagedAdListResponseSchema,
  type AdType,
} from '../../contract/ads';
import { ApiErrorSchema } from '../../contract/bus';
import { testApi } from '../../tests/setup/api';
import { uploadImageThrough } from '../../tests/setup/ads-api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { removeOrphanImages } from '../ads/images';
import type { Api } from '../app';
import { adRequests, ads, imageUploads } from '../db/schema';

const DAY_MS = 86_400_000;
const TOKEN = 'ad-review-test-service-token-0123456789abcdef';

describe.each(testDatabaseKinds)('ad review api on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;
  const db = () => database().db;
  const api = (serviceToken?: string) => testApi({ db: db(), storage: store, clock, serviceToken });

  beforeEach(async () => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = api(TOKEN);
  });
  afterEach(() => store.remove());

  const authorized = { Authorization: `Bearer ${TOKEN}` };
  /** The service token, and the acting admin the web names (X-Admin-User) unless `actor` is null. */
  const asAdmin = (actor: string | null = 'alice') => ({ ...authorized, ...(actor ? { 'X-Admin-User': actor } : {}) });
  const get = (path: string) => app.request(path, { headers: authorized });
  const post = (path: string, actor?: string | null) => app.request(path, { method: 'POST', headers: asAdmin(actor) });
  const requestList = (type: AdType) => get(`/api/ads/${type}/submit`);
  const detail = (type: AdType, id: number | string) => get(`/api/ads/${type}/submit/${id}`);
  const approve = (type: AdType, id: number | string, actor?: string | null) =>
    post(`/api/ads/${type}/submit/${id}/approve`, actor);
  const reject = (type: AdType, id: number | string, actor?: string | null) =>
    post(`/api/ads/${type}/submit/${id}/reject`, actor);
  const managedList = (type: AdType) => get(`/api/${type}/ads/list`);
  const bulk = (type: AdType, body: unknown, actor: string | null = 'alice') =>
    app.request(`/api/${type}/ads/bulk`, {
      method: 'PUT',
      headers: { ...asAdmin(actor), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const remove = (type: AdType, id: number | string, actor: string | null = 'alice') =>
    app.request(`/api/${type}/ads/${id}`, { method: 'DELETE', headers: asAdmin(actor) });
  const removeRequest = (type: AdType, id: number | string, actor: string | null = 'alice') =>
    app.request(`/api/ads/${type}/submit/${id}`, { method: 'DELETE', headers: asAdmin(actor) });
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;

  /** The request list of `type` (asserting 200 and the contract shape). */
  async function requests(type: AdType) {
    const response = await requestList(type);
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
  /** The audit log through GET /api/admin/audit, oldest first, without ids and times. */
  async function auditTrail() {
    const response = await get('/api/admin/audit');
    expect(response.status).toBe(200);
    const entries = AuditListResponseSchema.parse(await response.json()).data;
    return entries
      .reverse()
      .map(({ actor, action, target, before, after }) => ({ actor, action, target, before, after }));
  }
  /** The web banners (GET /api/web/ads) as titles, in the order the home screen rotates them. */
  async function bannerTitles() {
    const banners = AdBannerListResponseSchema.parse(await (await app.request('/api/web/ads')).json());
    return banners.data.map((banner) => banner.title);
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

  describe('GET /api/ads/:type/submit', () => {
    it('lists every request of the type, newest first, as exactly { id, title, status, createdAt }', async () => {
      const now = clock.now().getTime();
      const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000);
      const newest = await insertRequest({ title: 'Newest', createdAt: at(0) });
      const oldest = await insertRequest({ title: 'Oldest', createdAt: at(3) });
      const approved = await insertRequest({
        title: 'Approved',
        createdAt: at(5),
        status: 'approved',
        confirmed: true,
      });
      const rejected = await insertRequest({ title: 'Rejected', createdAt: at(6), status: 'rejected' });
      const kakao = await insertRequest({ title: 'Kakao', type: 'kakao', content: '할인', createdAt: at(4) });
      const middle = await insertRequest({ title: 'Middle', createdAt: at(1) });
      // Same instant, stored in the reverse of their id order: the higher id comes first.
      const tieHigher = await insertRequest({ id: 500, title: 'Tie, higher id', createdAt: at(2) });
      const tieLower = await insertRequest({ id: 400, title: 'Tie, lower id', createdAt: at(2) });

      const response = await requestList('web');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      // The raw answer, before the schema could strip anything: no other field leaks.
      const row = (id: number, title: string, status: string, hoursAgo: number) => ({
        id,
        title,
        status,
        createdAt: at(hoursAgo).toISOString(),
      });
      expect(body).toStrictEqual({
        success: true,
        data: [
          row(newest, 'Newest', 'pending', 0),
          row(middle, 'Middle', 'pending', 1),
          row(tieHigher, 'Tie, higher id', 'pending', 2),
          row(tieLower, 'Tie, lower id', 'pending', 2),
          row(oldest, 'Oldest', 'pending', 3),
          row(approved, 'Approved', 'approved', 5),
          row(rejected, 'Rejected', 'rejected', 6),
        ],
      });
      expect(AdRequestListResponseSchema.parse(body)).toEqual(body);

      expect(await requests('kakao')).toStrictEqual([row(kakao, 'Kakao', 'pending', 4)]);
    });

    it('lists a request submitted through the public api', async () => {
      expect(await requests('web')).toEqual([]);
      const { id } = await submitted('web');
      expect(await requests('web')).toStrictEqual([
        { id, title: 'web cafe', status: 'pending', createdAt: clock.now().toISOString() },
      ]);
      expect(await requests('kakao')).toEqual([]);
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
          rejectReason: null,
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
        rejectReason: null,
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

      // Decided requests stay in the list, with their status.
      expect((await requests('web')).map((request) => [request.id, request.status])).toEqual([
        [other, 'pending'],
        [id, 'approved'],
      ]);
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
          todayImpressions: 0,
          todayClicks: 0,
        },
      ]);
      expect(await managed('kakao')).toEqual([]);
      const [request] = await db().select().from(adRequests).where(eq(adRequests.id, id));
      expect(request).toMatchObject({ status: 'approved', confirmed: true, decidedAt: now });
    });

    it('answers 409 for a request already approved or rejected, changing nothing', async () => {
      const alreadyDecided = '이미 승인 또는 거절된 요청입니다.';
      const id = await insertRequest({ title: 'Cafe' });
      expect((await approve('web', id)).status).toBe(200);
      const again = await approve('web', id);
      expect(again.status).toBe(409);
      expect(await message(again)).toBe(alreadyDecided);
      const rejectApproved = await reject('web', id);
      expect(rejectApproved.status).toBe(409);
      expect(await message(rejectApproved)).toBe(alreadyDecided);
      expect(await detailStatus('web', id)).toBe('approved');

      const rejected = await insertRequest({ title: 'Rejected' });
      expect((await reject('web', rejected)).status).toBe(200);
      const late = await approve('web', rejected);
      expect(late.status).toBe(409);
      expect(await message(late)).toBe(alreadyDecided);
      expect(await detailStatus('web', rejected)).toBe('rejected');

      expect(await db().select({ requestId: ads.requestId }).from(ads)).toEqual([{ requestId: id }]);
      // Only the two decisions are audited, not the refused attempts.
      expect((await auditTrail()).map((entry) => entry.action)).toEqual(['approve', 'reject']);
    });

    it('audits each decision with the admin named in X-Admin-User, or "service" without one', async () => {
      const approved = await insertRequest({ title: 'Approved', duration: 2 });
      const rejected = await insertRequest({ title: 'Rejected' });
      const anonymous = await insertRequest({ title: 'Anonymous' });
      expect((await approve('web', approved, 'alice')).status).toBe(200);
      expect((await reject('web', rejected, 'bob')).status).toBe(200);
      expect((await reject('web', anonymous, null)).status).toBe(200);
      const [ad] = await managed('web');

      expect(await auditTrail()).toEqual([
        {
          actor: 'alice',
          action: 'approve',
          target: `ad-request:web:${approved}`,
          before: { status: 'pending' },
          after: { status: 'approved', adId: ad.id, startsAt: ad.startsAt, endsAt: ad.endsAt, position: 0 },
        },
        {
          actor: 'bob',
          action: 'reject',
          target: `ad-request:web:${rejected}`,
          before: { status: 'pending' },
          after: { status: 'rejected', reason: null },
        },
        {
          actor: 'service',
          action: 'reject',
          target: `ad-request:web:${anonymous}`,
          before: { status: 'pending' },
          after: { status: 'rejected', reason: null },
        },
      ]);
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

      // Each phone its own User-Agent behind one address: a count is taken once per ad, per phone, per KST day.
      const fromPhone = (phone: number) => ({
        method: 'POST',
        headers: { 'X-Forwarded-For': '203.0.113.20', 'User-Agent': `Phone ${phone}` },
      });
      const impression = (phone: number) => app.request(`/api/ads/${adId}/impressions`, fromPhone(phone));
      const click = (phone: number) => app.request(`/api/ads/${adId}/clicks`, fromPhone(phone));
      for (const phone of [1, 2, 3]) expect((await impression(phone)).status).toBe(204);
      for (const phone of [1, 2]) expect((await click(phone)).status).toBe(200);
      expect(await managed('web')).toMatchObject([
        { id: adId, impressions: 3, clicks: 2, todayImpressions: 3, todayClicks: 2 },
      ]);
      clock.advance(86_400); // the next KST day: totals span days, today's start afresh
      expect((await impression(1)).status).toBe(204);
      expect((await click(1)).status).toBe(200);

      expect(await managed('web')).toMatchObject([
        { id: adId, impressions: 4, clicks: 3, todayImpressions: 1, todayClicks: 1 },
      ]);
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

      expect((await requests('web')).map((request) => [request.id, request.status])).toEqual([
        [other, 'pending'],
        [id, 'rejected'],
      ]);
      expect(await detailStatus('web', id)).toBe('rejected');
      expect(await managed('web')).toEqual([]);
      expect(await db().select().from(ads)).toEqual([]);
      const [request] = await db().select().from(adRequests).where(eq(adRequests.id, id));
      expect(request).toMatchObject({ status: 'rejected', confirmed: false, decidedAt: clock.now() });

      const again = await reject('web', id);
      expect(again.status).toBe(409);
      expect(await message(again)).toBe('이미 승인 또는 거절된 요청입니다.');
      expect(await detailStatus('web', id)).toBe('rejected');
    });

    it('takes an optional reason of up to 500 characters, stored and answered with the request; a longer one is 400', async () => {
      const id = await insertRequest({ title: 'Cafe' });
      const withReason = (reason: unknown) =>
        app.request(`/api/ads/web/submit/${id}/reject`, {
          method: 'POST',
          headers: { ...asAdmin(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ reason }),
        });
      const tooLong = await withReason('가'.repeat(501));
      expect(tooLong.status).toBe(400);
      expect(await message(tooLong)).toBe('reason: 거절 사유는 500자까지 적을 수 있습니다.');
      expect((await withReason(42)).status).toBe(400);
      expect(await detailStatus('web', id)).toBe('pending');

      expect((await withReason('사진이 흐립니다.\r\n다시 보내주세요.')).status).toBe(200);
      const body = AdRequestDetailResponseSchema.parse(await (await detail('web', id)).json());
      expect(body.data).toMatchObject({ status: 'rejected', rejectReason: '사진이 흐립니다.\n다시 보내주세요.' });
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

  /** Ads of `type` inserted directly, in period and in the given order (positions 0, 1, …); returns their ids. */
  async function insertAds(type: AdType, ...titles: string[]): Promise<number[]> {
    const now = clock.now();
    const rows = await db()
      .insert(ads)
      .values(
        titles.map((title, position) => ({
          type,
          title,
          redirectUrl: `https://${position}.example.com/`,
          imageUrl: `/images/${type}-00000000-0000-0000-0000-00000000000${position}.png`,
          position,
          startsAt: new Date(now.getTime() - DAY_MS),
          endsAt: new Date(now.getTime() + 30 * DAY_MS),
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({ id: ads.id });
    return rows.map((row) => row.id);
  }
  /** The managed list of `type` as the edit page sends it back in PUT bulk: { id, title, redirectUrl, imageUrl }. */
  async function editable(type: AdType) {
    return (await managed(type)).map(({ id, title, redirectUrl, imageUrl }) => ({ id, title, redirectUrl, imageUrl }));
  }

  describe('PUT /api/:type/ads/bulk', () => {
    it('saves edited titles, links and images, audits each changed ad, and answers how many changed', async () => {
      const [first, second, third] = await insertAds('web', 'First', 'Second', 'Third');
      const newImage = (await uploadImageThrough(app, 'web')).imageUrl;
      const [a, b, c] = await editable('web');
      clock.advance(60);

      const response = await bulk('web', [
        { ...a, title: 'First, renamed', redirectUrl: 'https://new.example.com/menu' },
        { ...b, imageUrl: newImage, title: '  ', redirectUrl: '' },
        c,
      ]);
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json())).toEqual({
        success: true,
        message: 'Saved',
        data: { edited: 2, reordered: false },
      });

      // A blank title or link is stored as none.
      expect(await editable('web')).toEqual([
        { ...a, title: 'First, renamed', redirectUrl: 'https://new.example.com/menu' },
        { ...b, title: null, redirectUrl: null, imageUrl: newImage },
        c,
      ]);
      const updated = await db().select({ id: ads.id, updatedAt: ads.updatedAt }).from(ads).orderBy(asc(ads.id));
      expect(updated.map((ad) => ad.updatedAt.getTime() === clock.now().getTime())).toEqual([true, true, false]);
      expect([first, second, third]).toEqual([a.id, b.id, c.id]);

      expect(await auditTrail()).toEqual([
        {
          actor: 'alice',
          action: 'edit',
          target: `ad:web:${first}`,
          before: { title: 'First', redirectUrl: a.redirectUrl, imageUrl: a.imageUrl },
          after: { title: 'First, renamed', redirectUrl: 'https://new.example.com/menu', imageUrl: a.imageUrl },
        },
        {
          actor: 'alice',
          action: 'edit',
          target: `ad:web:${second}`,
          before: { title: 'Second', redirectUrl: b.redirectUrl, imageUrl: b.imageUrl },
          after: { title: null, redirectUrl: null, imageUrl: newImage },
        },
      ]);
    });

    it('makes the list’s order the ads’ order, which the home banner follows; ads left out come after', async () => {
      const [a, b, c] = await insertAds('web', 'A', 'B', 'C');
      await insertAds('kakao', 'Kakao');
      expect(await bannerTitles()).toEqual(['A', 'B', 'C']);
      const byId = new Map((await editable('web')).map((ad) => [ad.id, ad]));

      const response = await bulk(
        'web',
        [c, a, b].map((id) => byId.get(id)),
      );
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json()).data).toEqual({ edited: 0, reordered: true });
      expect((await managed('web')).map((ad) => ad.title)).toEqual(['C', 'A', 'B']);
      expect(await bannerTitles()).toEqual(['C', 'A', 'B']);

      // Only B listed: it goes first, the others keep their relative order after it.
      expect((await bulk('web', [byId.get(b)])).status).toBe(200);
      expect((await managed('web')).map((ad) => ad.title)).toEqual(['B', 'C', 'A']);
      expect(await bannerTitles()).toEqual(['B', 'C', 'A']);
      expect((await managed('kakao')).map((ad) => ad.title)).toEqual(['Kakao']);

      expect(await auditTrail()).toEqual([
        { actor: 'alice', action: 'reorder', target: 'ads:web', before: [a, b, c], after: [c, a, b] },
        { actor: 'alice', action: 'reorder', target: 'ads:web', before: [c, a, b], after: [b, c, a] },
      ]);
    });

    it('changes and audits nothing for the list as it is', async () => {
      await insertAds('web', 'A', 'B', 'C');
      const before = await db().select().from(ads).orderBy(asc(ads.id));
      clock.advance(60);

      const response = await bulk('web', await editable('web'));
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json()).data).toEqual({ edited: 0, reordered: false });
      expect(await db().select().from(ads).orderBy(asc(ads.id))).toEqual(before);
      expect(await auditTrail()).toEqual([]);
    });

    it('answers 404 naming an id that is no ad of the type, saving nothing', async () => {
      const [a, b] = await insertAds('web', 'A', 'B');
      const [kakao] = await insertAds('kakao', 'Kakao');
      const [adA, adB] = await editable('web');
      const before = await db().select().from(ads).orderBy(asc(ads.id));

      const unknown = await bulk('web', [{ ...adB, title: 'B, renamed' }, adA, { ...adA, id: 9999 }]);
      expect(unknown.status).toBe(404);
      expect(await message(unknown)).toBe(
        '웹 배너 광고 9999번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.',
      );
      const otherType = await bulk('web', [{ ...adA, id: kakao, title: 'Moved' }]);
      expect(otherType.status).toBe(404);
      expect(await message(otherType)).toBe(
        `웹 배너 광고 ${kakao}번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.`,
      );

      expect(await db().select().from(ads).orderBy(asc(ads.id))).toEqual(before);
      expect([a, b]).toEqual([adA.id, adB.id]);
      expect(await auditTrail()).toEqual([]);
    });

    it('answers 400 for a link that is not http(s) or a body that is not a list of distinct ads', async () => {
      await insertAds('web', 'A', 'B');
      const [adA, adB] = await editable('web');
      const before = await db().select().from(ads).orderBy(asc(ads.id));

      for (const redirectUrl of [
        'javascript:alert(1)',
        'ftp://files.example.com/',
        'example.com',
        'data:text/html,x',
      ]) {
        const response = await bulk('web', [adB, { ...adA, redirectUrl }]);
        expect(response.status, redirectUrl).toBe(400);
        expect(await message(response)).toBe(`1.redirectUrl: ${AD_FORMAT_MESSAGES.redirectUrl}`);
      }
      for (const body of [[], [adA, adA], { ads: [adA] }, [{ ...adA, id: 'x' }]]) {
        const response = await bulk('web', body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(await message(response)).toBeTruthy();
      }

      expect(await db().select().from(ads).orderBy(asc(ads.id))).toEqual(before);
      expect(await auditTrail()).toEqual([]);
    });

    it('answers 400 for an imageUrl that is no image uploaded for this type, saving nothing', async () => {
      await insertAds('web', 'A', 'B');
      const [adA, adB] = await editable('web');
      const before = await db().select().from(ads).orderBy(asc(ads.id));
      const kakaoImage = (await uploadImageThrough(app, 'kakao')).imageUrl;
      // Issued for web but never uploaded.
      const presign = await app.request(
        '/api/s3/presigned-url/image',
        json({ type: 'web', byteSize: 68 }, '203.0.113.9'),
      );
      expect(presign.status).toBe(200);
      const { imageUrl: notUploaded } = (await presign.json()) as { imageUrl: string };
      expect(
        await db()
          .select({ status: imageUploads.status })
          .from(imageUploads)
          .where(eq(imageUploads.imageUrl, notUploaded)),
      ).toEqual([{ status: 'issued' }]);

      for (const imageUrl of [kakaoImage, notUploaded, '/images/web-00000000-0000-0000-0000-0000000000ff.png']) {
        // B is moved first in the same request: the refusal saves neither the order nor the other edits.
        const response = await bulk('web', [
          { ...adB, title: 'B, renamed' },
          { ...adA, imageUrl },
        ]);
        expect(response.status, imageUrl).toBe(400);
        expect(await message(response)).toBe(
          `광고 ${adA.id}번의 이미지는 웹 배너 광고에 쓰려고 올린 이미지가 아닙니다.`,
        );
      }

      expect(await db().select().from(ads).orderBy(asc(ads.id))).toEqual(before);
      expect(await auditTrail()).toEqual([]);
    });

    it('takes a new image uploaded for the type, and the home banner shows it', async () => {
      const [id] = await insertAds('web', 'A');
      const { imageUrl } = await uploadImageThrough(app, 'web');
      const [ad] = await editable('web');

      expect((await bulk('web', [{ ...ad, imageUrl }])).status).toBe(200);
      expect(await editable('web')).toEqual([{ ...ad, imageUrl }]);
      const banners = AdBannerListResponseSchema.parse(await (await app.request('/api/web/ads')).json());
      expect(banners.data).toEqual([{ id, title: 'A', src: imageUrl, url: ad.redirectUrl }]);
    });
  });

  describe('DELETE /api/:type/ads/:id', () => {
    it('deletes the ad from the list and the banner, audited with the ad as it was', async () => {
      const [a, b] = await insertAds('web', 'A', 'B');
      const [adA] = await managed('web');
      clock.advance(60);

      const response = await remove('web', a, 'bob');
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json())).toEqual({ success: true, message: 'Deleted' });
      expect((await managed('web')).map((ad) => ad.id)).toEqual([b]);
      expect(await bannerTitles()).toEqual(['B']);

      expect(await auditTrail()).toEqual([
        {
          actor: 'bob',
          action: 'delete',
          target: `ad:web:${a}`,
          before: expect.objectContaining({
            id: a,
            type: 'web',
            title: 'A',
            redirectUrl: adA.redirectUrl,
            imageUrl: adA.imageUrl,
            position: 0,
            startsAt: adA.startsAt,
            endsAt: adA.endsAt,
          }),
          after: null,
        },
      ]);

      const again = await remove('web', a);
      expect(again.status).toBe(404);
      expect(await message(again)).toBe(`웹 배너 광고 ${a}번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.`);
      expect((await auditTrail()).length).toBe(1);
    });

    it('answers 404 through the other type’s path or for an unknown id, deleting nothing', async () => {
      const [kakao] = await insertAds('kakao', 'Kakao');
      const [web] = await insertAds('web', 'Web');
      for (const [type, id] of [
        ['web', kakao],
        ['kakao', web],
        ['web', 9999],
        ['web', '2147483648'],
        ['web', 0],
      ] as const) {
        const response = await remove(type, id);
        expect(response.status, `${type} ${id}`).toBe(404);
        expect(await message(response)).toBeTruthy();
      }
      expect((await managed('kakao')).map((ad) => ad.id)).toEqual([kakao]);
      expect((await managed('web')).map((ad) => ad.id)).toEqual([web]);
      expect(await auditTrail()).toEqual([]);
    });
  });

  describe('DELETE /api/ads/:type/submit/:id (deletion on the applicant’s request)', () => {
    /** Whether the image `imageUrl` is still stored: its file, and its image_uploads row. */
    async function stored(imageUrl: string) {
      const key = imageUrl.slice(imageUrl.lastIndexOf('/') + 1);
      const rows = await db().select().from(imageUploads).where(eq(imageUploads.imageUrl, imageUrl));
      expect(rows.length === 1, `${imageUrl}: file and record agree`).toBe(existsSync(join(store.dir, key)));
      return rows.length === 1;
    }

    it('deletes a pending request and its image, audited without the applicant’s data; a second delete answers 404', async () => {
      const { id, imageUrl } = await submitted('web');
      const other = await submitted('web', { title: '남는 신청' });
      const createdAt = (await db().select().from(adRequests).where(eq(adRequests.id, id)))[0].createdAt;
      clock.advance(60);

      const response = await removeRequest('web', id, 'bob');
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json())).toEqual({ success: true, message: 'Deleted' });
      expect((await detail('web', id)).status).toBe(404);
      expect((await requests('web')).map((request) => request.id)).toEqual([other.id]);
      expect(await stored(imageUrl)).toBe(false);
      expect(await stored(other.imageUrl)).toBe(true);

      const trail = await auditTrail();
      expect(trail).toEqual([
        {
          actor: 'bob',
          action: 'delete',
          target: `ad-request:web:${id}`,
          before: { status: 'pending', createdAt: createdAt.toISOString() },
          after: null,
        },
      ]);
      expect(JSON.stringify(trail)).not.toMatch(/홍길동|01012345678|owner@example\.com|web cafe/);

      const again = await removeRequest('web', id);
      expect(again.status).toBe(404);
      expect(await message(again)).toBe('요청을 찾을 수 없습니다.');
      expect(await auditTrail()).toHaveLength(1);
    });

    it('keeps the image while the ad approved from the request shows; it goes with the ad, as an orphan', async () => {
      const { id, imageUrl } = await submitted('web');
      expect((await approve('web', id)).status).toBe(200);
      const [ad] = await managed('web');

      expect((await removeRequest('web', id)).status).toBe(200);
      expect((await managed('web')).map((row) => ({ id: row.id, imageUrl: row.imageUrl }))).toEqual([
        { id: ad.id, imageUrl },
      ]);
      expect(await bannerTitles()).toEqual(['web cafe']);
      expect(await stored(imageUrl)).toBe(true);

      // The admin deletes the ad: the orphan cleanup then deletes the image.
      expect((await remove('web', ad.id)).status).toBe(200);
      expect(await removeOrphanImages(db(), store, new Date(clock.now().getTime() + 2 * DAY_MS))).toBe(1);
      expect(await stored(imageUrl)).toBe(false);
    });

    it('deletes the image of a request whose ad has ended: the ended ad loses it', async () => {
      const { id, imageUrl } = await submitted('kakao', { duration: 1 });
      expect((await approve('kakao', id)).status).toBe(200);
      clock.advance(30 * 86_400); // 30 days later, the paid month is over
      const [ad] = await managed('kakao');
      expect(ad.endsAt).toBe(clock.now().toISOString());

      expect((await removeRequest('kakao', id)).status).toBe(200);
      expect(await stored(imageUrl)).toBe(false);
      const [after] = await db().select().from(ads).where(eq(ads.id, ad.id));
      expect(after).toMatchObject({ imageUrl: null, updatedAt: clock.now(), requestId: null });
    });

    it('answers 404 through the other type’s path, for an unknown id or one beyond a serial, deleting nothing', async () => {
      const web = await submitted('web');
      for (const [type, id] of [
        ['kakao', web.id],
        ['web', 9999],
        ['web', '2147483648'],
        ['web', 0],
      ] as const) {
        const response = await removeRequest(type, id);
        expect(response.status, `${type} ${id}`).toBe(404);
        expect(await message(response)).toBe('요청을 찾을 수 없습니다.');
      }
      expect((await requests('web')).map((request) => request.id)).toEqual([web.id]);
      expect(await stored(web.imageUrl)).toBe(true);
      expect(await auditTrail()).toEqual([]);
    });
  });
});
