/** The admins' review of ad applications: the application lists, an application's details, approval and rejection. */
import { eq } from 'drizzle-orm';
import {
  AdBannerListResponseSchema,
  AdminResponseSchema,
  AdApplicationDetailResponseSchema,
  AdApplicationListResponseSchema,
  type AdType,
} from '../../contract/ads';
import { message } from '../../tests/setup/ads-api';
import { adReviewApiFor, DAY_MS } from '../../tests/setup/ad-review-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { adApplications, ads } from '../db/schema';

describe.each(testDatabaseKinds)('ad review api on %s', (kind) => {
  const {
    db,
    clock,
    app,
    asAdmin,
    applicationList,
    detail,
    approve,
    reject,
    applications,
    managed,
    auditTrail,
    detailStatus,
    insertApplication,
    submitted,
  } = adReviewApiFor(kind);

  describe('GET /api/ads/:type/submit', () => {
    it('lists every application of the type, newest first, as exactly { id, title, status, createdAt }', async () => {
      const now = clock().now().getTime();
      const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000);
      const newest = await insertApplication({ title: 'Newest', createdAt: at(0) });
      const oldest = await insertApplication({ title: 'Oldest', createdAt: at(3) });
      const approved = await insertApplication({
        title: 'Approved',
        createdAt: at(5),
        status: 'approved',
        confirmed: true,
      });
      const rejected = await insertApplication({ title: 'Rejected', createdAt: at(6), status: 'rejected' });
      const kakao = await insertApplication({ title: 'Kakao', type: 'kakao', content: '할인', createdAt: at(4) });
      const middle = await insertApplication({ title: 'Middle', createdAt: at(1) });
      // Same instant, stored in the reverse of their id order: the higher id comes first.
      const tieHigher = await insertApplication({ id: 500, title: 'Tie, higher id', createdAt: at(2) });
      const tieLower = await insertApplication({ id: 400, title: 'Tie, lower id', createdAt: at(2) });

      const response = await applicationList('web');
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
      expect(AdApplicationListResponseSchema.parse(body)).toEqual(body);

      expect(await applications('kakao')).toStrictEqual([row(kakao, 'Kakao', 'pending', 4)]);
    });

    it('lists an application submitted through the public api', async () => {
      expect(await applications('web')).toEqual([]);
      const { id } = await submitted('web');
      expect(await applications('web')).toStrictEqual([
        { id, title: 'web cafe', status: 'pending', createdAt: clock().now().toISOString() },
      ]);
      expect(await applications('kakao')).toEqual([]);
    });
  });

  describe('GET /api/ads/:type/submit/:id', () => {
    it('answers every admin-view field of a submitted application, with content and status', async () => {
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
          adTakenDownAt: null,
        },
      });
      expect(AdApplicationDetailResponseSchema.parse(body)).toEqual(body);

      const kakao = await submitted('kakao', { redirectUrl: '', contentForManager: '', duration: 3 });
      const kakaoBody = AdApplicationDetailResponseSchema.parse(await (await detail('kakao', kakao.id)).json());
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
        adTakenDownAt: null,
      });
    });

    it('answers 404 { message } for an unknown id, an id of the other type and ids beyond a serial', async () => {
      const web = await insertApplication({ title: 'Web' });
      const kakao = await insertApplication({ title: 'Kakao', type: 'kakao', content: '할인' });
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
    it('approves a pending application into an ad paid from now for duration × 30 days', async () => {
      const appliedAt = clock().now();
      const id = await insertApplication({ title: 'Cafe', duration: 3, createdAt: appliedAt });
      const other = await insertApplication({ title: 'Other', createdAt: appliedAt });
      clock().advance(3600);
      const now = clock().now();

      const response = await approve('web', id);
      expect(response.status).toBe(200);
      const body = AdminResponseSchema.parse(await response.json());
      expect(body).toEqual({ success: true, message: 'Approved', data: { adId: expect.any(Number) } });
      const { adId } = body.data as { adId: number };

      // Decided applications stay in the list, with their status.
      expect((await applications('web')).map((application) => [application.id, application.status])).toEqual([
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
          version: now.toISOString(),
        },
      ]);
      expect(await managed('kakao')).toEqual([]);
      const [application] = await db().select().from(adApplications).where(eq(adApplications.id, id));
      expect(application).toMatchObject({ status: 'approved', confirmed: true, decidedAt: now });
    });

    it('answers 409 for an application already approved or rejected, changing nothing', async () => {
      const alreadyDecided = '이미 승인 또는 거절된 요청입니다.';
      const id = await insertApplication({ title: 'Cafe' });
      expect((await approve('web', id)).status).toBe(200);
      const again = await approve('web', id);
      expect(again.status).toBe(409);
      expect(await message(again)).toBe(alreadyDecided);
      const rejectApproved = await reject('web', id);
      expect(rejectApproved.status).toBe(409);
      expect(await message(rejectApproved)).toBe(alreadyDecided);
      expect(await detailStatus('web', id)).toBe('approved');

      const rejected = await insertApplication({ title: 'Rejected' });
      expect((await reject('web', rejected)).status).toBe(200);
      const late = await approve('web', rejected);
      expect(late.status).toBe(409);
      expect(await message(late)).toBe(alreadyDecided);
      expect(await detailStatus('web', rejected)).toBe('rejected');

      expect(await db().select({ applicationId: ads.applicationId }).from(ads)).toEqual([{ applicationId: id }]);
      // Only the two decisions are audited, not the refused attempts.
      expect((await auditTrail()).map((entry) => entry.action)).toEqual(['approve', 'reject']);
    });

    it('audits each decision with the admin named in X-Admin-User, or "service" without one', async () => {
      const approved = await insertApplication({ title: 'Approved', duration: 2 });
      const rejected = await insertApplication({ title: 'Rejected' });
      const anonymous = await insertApplication({ title: 'Anonymous' });
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
      const web = await insertApplication({ title: 'Web' });
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

      const banners = AdBannerListResponseSchema.parse(await (await app().request('/api/web/ads')).json());
      expect(banners.data).toEqual([
        { id: adId, title: 'web cafe', src: imageUrl, url: 'https://cafe.example.com/menu' },
      ]);

      // Each phone its own User-Agent behind one address: a count is taken once per ad, per phone, per KST day.
      const fromPhone = (phone: number) => ({
        method: 'POST',
        headers: { 'X-Forwarded-For': '203.0.113.20', 'User-Agent': `Phone ${phone}` },
      });
      const impression = (phone: number) => app().request(`/api/ads/${adId}/impressions`, fromPhone(phone));
      const click = (phone: number) => app().request(`/api/ads/${adId}/clicks`, fromPhone(phone));
      for (const phone of [1, 2, 3]) expect((await impression(phone)).status).toBe(204);
      for (const phone of [1, 2]) expect((await click(phone)).status).toBe(200);
      expect(await managed('web')).toMatchObject([
        { id: adId, impressions: 3, clicks: 2, todayImpressions: 3, todayClicks: 2 },
      ]);
      clock().advance(86_400); // the next KST day: totals span days, today's start afresh
      expect((await impression(1)).status).toBe(204);
      expect((await click(1)).status).toBe(200);

      expect(await managed('web')).toMatchObject([
        { id: adId, impressions: 4, clicks: 3, todayImpressions: 1, todayClicks: 1 },
      ]);
    });

    it('approves a kakao application into a kakao ad only', async () => {
      const { id, imageUrl } = await submitted('kakao');
      expect((await approve('web', id)).status).not.toBe(200);
      expect((await approve('kakao', id)).status).toBe(200);
      expect(await managed('kakao')).toMatchObject([
        { title: 'kakao cafe', imageUrl, impressions: 0, clicks: 0, startsAt: clock().now().toISOString() },
      ]);
      expect(await managed('web')).toEqual([]);
      expect(await db().select({ type: ads.type, content: ads.content }).from(ads)).toEqual([
        { type: 'kakao', content: '점심 10% 할인' },
      ]);
    });
  });

  describe('POST /api/ads/:type/submit/:id/reject', () => {
    it('rejects a pending application without creating an ad; a second reject answers 409', async () => {
      const id = await insertApplication({ title: 'Cafe' });
      const other = await insertApplication({ title: 'Other' });
      clock().advance(60);

      const response = await reject('web', id);
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json())).toEqual({ success: true, message: 'Rejected' });

      expect((await applications('web')).map((application) => [application.id, application.status])).toEqual([
        [other, 'pending'],
        [id, 'rejected'],
      ]);
      expect(await detailStatus('web', id)).toBe('rejected');
      expect(await managed('web')).toEqual([]);
      expect(await db().select().from(ads)).toEqual([]);
      const [application] = await db().select().from(adApplications).where(eq(adApplications.id, id));
      expect(application).toMatchObject({ status: 'rejected', confirmed: false, decidedAt: clock().now() });

      const again = await reject('web', id);
      expect(again.status).toBe(409);
      expect(await message(again)).toBe('이미 승인 또는 거절된 요청입니다.');
      expect(await detailStatus('web', id)).toBe('rejected');
    });

    it('takes an optional reason of up to 500 characters, stored and answered with the application; a longer one is 400', async () => {
      const id = await insertApplication({ title: 'Cafe' });
      const withReason = (reason: unknown) =>
        app().request(`/api/ads/web/submit/${id}/reject`, {
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
      const body = AdApplicationDetailResponseSchema.parse(await (await detail('web', id)).json());
      expect(body.data).toMatchObject({ status: 'rejected', rejectReason: '사진이 흐립니다.\n다시 보내주세요.' });
    });
  });
});
