import { eq } from 'drizzle-orm';
import type { AdType } from '../../contract/ads';
import { adsDatabaseFor } from '../../tests/setup/ads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { listAudit } from '../admin/audit';
import { adDailyCounts, adRequests, ads, imageUploads } from '../db/schema';
import {
  adCounts,
  approveRequest,
  createAdRequest,
  listManagedAds,
  listServedAds,
  paidPeriod,
  recordClick,
  recordImpression,
  rejectRequest,
  type MayCount,
} from './model';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-23T10:00:00+09:00');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
/** The acting admin, as the audit log names them. */
const ACTOR = 'alice';

describe('paidPeriod', () => {
  it('runs duration × 30 days of 24 h from the start, whatever the calendar months', () => {
    for (const duration of [1, 2, 3]) {
      const { startsAt, endsAt } = paidPeriod(NOW, duration);
      expect(startsAt).toEqual(NOW);
      expect(endsAt.getTime() - NOW.getTime()).toBe(duration * 30 * DAY_MS);
    }
    // Days, not calendar months: one month from 31 Jan ends on 2 Mar.
    expect(paidPeriod(NOW, 1).endsAt).toEqual(new Date('2026-12-23T10:00:00+09:00'));
    expect(paidPeriod(new Date('2027-01-31T00:00:00+09:00'), 1).endsAt).toEqual(new Date('2027-03-02T00:00:00+09:00'));
  });
});

describe.each(testDatabaseKinds)('ads model on %s', (kind) => {
  const database = adsDatabaseFor(kind);
  const db = () => database().db;

  /** A pending request stored as the submit route would, with its own image URL. */
  async function pendingRequest(type: AdType, duration = 1): Promise<number> {
    const [row] = await db()
      .insert(adRequests)
      .values({
        type,
        title: `${type} ad`,
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'a@example.com',
        redirectUrl: 'https://example.com/shop',
        imageUrl: `/images/${type}-request.png`,
        content: type === 'kakao' ? '점심 할인' : null,
        duration,
        createdAt: at(-DAY_MS),
      })
      .returning({ id: adRequests.id });
    return row.id;
  }

  /** An ad inserted directly (as legacy data or an admin's own ad would be). */
  async function insertAd(values: {
    type?: AdType;
    title?: string;
    position: number;
    startsAt?: Date;
    endsAt?: Date;
    redirectUrl?: string | null;
  }): Promise<number> {
    const [row] = await db()
      .insert(ads)
      .values({
        type: values.type ?? 'web',
        title: values.title ?? `ad ${values.position}`,
        redirectUrl: values.redirectUrl === undefined ? 'https://example.com/' : values.redirectUrl,
        imageUrl: `/images/web-${values.position}.png`,
        position: values.position,
        startsAt: values.startsAt ?? at(-DAY_MS),
        endsAt: values.endsAt ?? at(DAY_MS),
        createdAt: at(-DAY_MS),
        updatedAt: at(-DAY_MS),
      })
      .returning({ id: ads.id });
    return row.id;
  }

  const requestRow = async (id: number) => (await db().select().from(adRequests).where(eq(adRequests.id, id)))[0];
  const adCount = async () => (await db().select({ id: ads.id }).from(ads)).length;
  /** The audit log, oldest first, without ids. */
  const audit = async () => (await listAudit(db(), 200)).reverse().map(({ id: _id, ...entry }) => entry);

  describe('createAdRequest', () => {
    const application = {
      type: 'web' as const,
      title: 'Cafe',
      applicantName: '홍길동',
      applicantPhone: '01012345678',
      applicantEmail: 'a@example.com',
      redirectUrl: undefined,
      contentForManager: undefined,
      content: 'ignored for web',
      imageUrl: '/images/web-1.png',
      duration: 2 as const,
      confirmed: false as const,
    };
    const upload = (status: 'issued' | 'stored') => ({
      key: 'web-1.png',
      imageUrl: '/images/web-1.png',
      adType: 'web' as const,
      contentType: 'image/png',
      byteSize: 10,
      status,
      issuedAt: NOW,
      expiresAt: at(600_000),
    });

    it('stores a pending, unconfirmed request when its image is stored', async () => {
      await db().insert(imageUploads).values(upload('stored'));
      const id = await createAdRequest(db(), application, NOW);
      expect(id).toEqual(expect.any(Number));
      expect(await requestRow(id!)).toMatchObject({
        type: 'web',
        title: 'Cafe',
        status: 'pending',
        confirmed: false,
        redirectUrl: null,
        content: null,
        duration: 2,
        createdAt: NOW,
        decidedAt: null,
      });
    });

    it('stores nothing when the image was issued but never stored', async () => {
      await db().insert(imageUploads).values(upload('issued'));
      expect(await createAdRequest(db(), application, NOW)).toBeNull();
      expect(await db().select().from(adRequests)).toEqual([]);
    });
  });

  describe('approveRequest', () => {
    it('turns a pending request into an ad paid from now for duration × 30 days, last in its type', async () => {
      await insertAd({ position: 0 });
      await insertAd({ position: 4 });
      await insertAd({ type: 'kakao', position: 9 });
      const id = await pendingRequest('web', 3);

      const ad = await approveRequest(db(), 'web', id, ACTOR, NOW);
      expect(ad).toMatchObject({
        type: 'web',
        title: 'web ad',
        redirectUrl: 'https://example.com/shop',
        imageUrl: '/images/web-request.png',
        content: null,
        position: 5,
        startsAt: NOW,
        endsAt: new Date(NOW.getTime() + 90 * DAY_MS),
        requestId: id,
      });
      expect(await requestRow(id)).toMatchObject({ status: 'approved', decidedAt: NOW });
      expect(await audit()).toEqual([
        {
          at: NOW.toISOString(),
          actor: ACTOR,
          action: 'approve',
          target: `ad-request:web:${id}`,
          before: { status: 'pending' },
          after: {
            status: 'approved',
            adId: ad!.id,
            startsAt: NOW.toISOString(),
            endsAt: new Date(NOW.getTime() + 90 * DAY_MS).toISOString(),
            position: 5,
          },
        },
      ]);
    });

    it('starts a type without ads at position 0 and keeps the kakao message', async () => {
      await insertAd({ position: 3 });
      const id = await pendingRequest('kakao', 1);
      const ad = await approveRequest(db(), 'kakao', id, ACTOR, NOW);
      expect(ad).toMatchObject({ type: 'kakao', position: 0, content: '점심 할인', endsAt: at(30 * DAY_MS) });
    });

    it('approves nothing twice, nothing of another type, nothing missing, nothing rejected', async () => {
      const id = await pendingRequest('web');
      expect(await approveRequest(db(), 'kakao', id, ACTOR, NOW)).toBeNull();
      expect(await requestRow(id)).toMatchObject({ status: 'pending', decidedAt: null });
      expect(await adCount()).toBe(0);

      expect(await approveRequest(db(), 'web', id, ACTOR, NOW)).not.toBeNull();
      expect(await approveRequest(db(), 'web', id, ACTOR, at(60_000))).toBeNull();
      expect(await requestRow(id)).toMatchObject({ status: 'approved', decidedAt: NOW });
      expect(await adCount()).toBe(1);

      expect(await approveRequest(db(), 'web', id + 100, ACTOR, NOW)).toBeNull();
      const rejected = await pendingRequest('web');
      expect(await rejectRequest(db(), 'web', rejected, ACTOR, NOW)).toBe(true);
      expect(await approveRequest(db(), 'web', rejected, ACTOR, NOW)).toBeNull();
      expect(await adCount()).toBe(1);
      // Only what happened is audited: one approval and one rejection.
      expect((await audit()).map((entry) => [entry.action, entry.target])).toEqual([
        ['approve', `ad-request:web:${id}`],
        ['reject', `ad-request:web:${rejected}`],
      ]);
    });
  });

  describe('rejectRequest', () => {
    it('rejects a pending request of its type once, and creates no ad', async () => {
      const id = await pendingRequest('kakao');
      expect(await rejectRequest(db(), 'web', id, ACTOR, NOW)).toBe(false);
      expect(await requestRow(id)).toMatchObject({ status: 'pending', decidedAt: null });
      expect(await rejectRequest(db(), 'kakao', id, ACTOR, NOW)).toBe(true);
      expect(await requestRow(id)).toMatchObject({ status: 'rejected', decidedAt: NOW });
      expect(await rejectRequest(db(), 'kakao', id, ACTOR, at(60_000))).toBe(false);
      expect(await requestRow(id)).toMatchObject({ decidedAt: NOW });
      expect(await rejectRequest(db(), 'kakao', id + 100, ACTOR, NOW)).toBe(false);
      expect(await adCount()).toBe(0);
      expect(await audit()).toEqual([
        {
          at: NOW.toISOString(),
          actor: ACTOR,
          action: 'reject',
          target: `ad-request:kakao:${id}`,
          before: { status: 'pending' },
          after: { status: 'rejected' },
        },
      ]);
    });
  });

  describe('listServedAds', () => {
    it('lists the in-period ads of the type in position order', async () => {
      await insertAd({ title: 'third', position: 7 });
      await insertAd({ title: 'first', position: 1 });
      await insertAd({ title: 'starts now', position: 3, startsAt: NOW });
      await insertAd({ title: 'not yet', position: 0, startsAt: at(1) });
      await insertAd({ title: 'ended now', position: 2, endsAt: NOW });
      await insertAd({ title: 'ended', position: 4, startsAt: at(-3 * DAY_MS), endsAt: at(-DAY_MS) });
      await insertAd({ title: 'kakao', type: 'kakao', position: 5 });

      const served = await listServedAds(db(), 'web', NOW);
      expect(served.map((ad) => ad.title)).toEqual(['first', 'starts now', 'third']);
      expect((await listServedAds(db(), 'kakao', NOW)).map((ad) => ad.title)).toEqual(['kakao']);
      expect((await listServedAds(db(), 'web', at(2 * DAY_MS))).map((ad) => ad.title)).toEqual([]);
    });
  });

  describe('counters', () => {
    /** Counts every time: what the route's client and limit rules decide is tested in api/routes/ads.test.ts. */
    const always: MayCount = async () => true;
    /** A click's count failure, where none is expected. */
    const unexpected = (error: unknown) => {
      throw error;
    };
    const beforeMidnight = new Date('2026-11-23T23:59:00+09:00');
    const afterMidnight = new Date('2026-11-24T00:01:00+09:00');

    it('counts impressions and clicks per KST day', async () => {
      const id = await insertAd({ position: 0, redirectUrl: 'https://example.com/shop' });
      const other = await insertAd({ position: 1 });
      expect(await recordImpression(db(), id, beforeMidnight, always)).toBe(true);
      expect(await recordImpression(db(), id, NOW, always)).toBe(true);
      expect(await recordClick(db(), id, beforeMidnight, always, unexpected)).toBe('https://example.com/shop');
      // Two minutes later it is the next day in Seoul (still the same day in UTC and in this process's zone).
      expect(await recordImpression(db(), id, afterMidnight, always)).toBe(true);
      expect(await recordClick(db(), id, afterMidnight, always, unexpected)).toBe('https://example.com/shop');
      expect(await recordClick(db(), id, afterMidnight, always, unexpected)).toBe('https://example.com/shop');
      expect(await recordImpression(db(), other, afterMidnight, always)).toBe(true);

      expect(await adCounts(db(), id)).toEqual([
        { day: '2026-11-23', impressions: 2, clicks: 1 },
        { day: '2026-11-24', impressions: 1, clicks: 2 },
      ]);
      expect(await adCounts(db(), other)).toEqual([{ day: '2026-11-24', impressions: 1, clicks: 0 }]);

      // The managed list totals every day, and "today" is the KST date of `now`.
      const counters = async (now: Date) =>
        (await listManagedAds(db(), 'web', now)).map((ad) => [
          ad.id,
          ad.impressions,
          ad.clicks,
          ad.todayImpressions,
          ad.todayClicks,
        ]);
      expect(await counters(beforeMidnight)).toEqual([
        [id, 3, 3, 2, 1],
        [other, 1, 0, 0, 0],
      ]);
      expect(await counters(afterMidnight)).toEqual([
        [id, 3, 3, 1, 2],
        [other, 1, 0, 1, 0],
      ]);
      expect(await counters(new Date('2026-11-25T09:00:00+09:00'))).toEqual([
        [id, 3, 3, 0, 0],
        [other, 1, 0, 0, 0],
      ]);
    });

    it('counts only what mayCount agrees to, asked with the counter, the id and the KST day; a click answers its link either way', async () => {
      const id = await insertAd({ position: 0, redirectUrl: 'https://example.com/shop' });
      const asked: Parameters<MayCount>[] = [];
      const never: MayCount = async (...question) => {
        asked.push(question);
        return false;
      };
      expect(await recordImpression(db(), id, afterMidnight, never)).toBe(true);
      expect(await recordClick(db(), id, afterMidnight, never, unexpected)).toBe('https://example.com/shop');
      expect(asked).toEqual([
        ['impressions', id, '2026-11-24'],
        ['clicks', id, '2026-11-24'],
      ]);
      expect(await adCounts(db(), id)).toEqual([]);
    });

    it('answers a click its link when its count cannot be written, and says why', async () => {
      const id = await insertAd({ position: 0, redirectUrl: 'https://example.com/shop' });
      const failures: unknown[] = [];
      const full = new Error('could not extend file: No space left on device');
      const failing: MayCount = async () => {
        throw full;
      };
      expect(await recordClick(db(), id, NOW, failing, (error) => failures.push(error))).toBe(
        'https://example.com/shop',
      );
      expect(failures).toEqual([full]);
    });

    it('does not ask mayCount for an ad that is not served, or a click without a link', async () => {
      const linkless = await insertAd({ position: 0, redirectUrl: null });
      const ended = await insertAd({ position: 1, endsAt: NOW });
      const asked = vi.fn<MayCount>(async () => true);
      expect(await recordClick(db(), linkless, NOW, asked, unexpected)).toBeNull();
      expect(await recordClick(db(), ended, NOW, asked, unexpected)).toBeNull();
      expect(await recordImpression(db(), ended, NOW, asked)).toBe(false);
      expect(asked).not.toHaveBeenCalled();
    });

    it('returns only a served ad’s http(s) link, and counts nothing otherwise', async () => {
      const legacy = await insertAd({ position: 0, redirectUrl: 'javascript:alert(1)' });
      const dataUrl = await insertAd({ position: 1, redirectUrl: 'data:text/html,x' });
      const linkless = await insertAd({ position: 2, redirectUrl: null });
      const ended = await insertAd({ position: 3, endsAt: NOW });
      const future = await insertAd({ position: 4, startsAt: at(1) });
      const plain = await insertAd({ position: 5, redirectUrl: 'http://example.com/a?b=1' });

      for (const id of [legacy, dataUrl, linkless, ended, future, 9999, 2 ** 31, 0, -1, 1.5]) {
        expect(await recordClick(db(), id, NOW, always, unexpected)).toBeNull();
      }
      expect(await recordClick(db(), plain, NOW, always, unexpected)).toBe('http://example.com/a?b=1');
      for (const id of [ended, future, 9999, 2 ** 31, 0])
        expect(await recordImpression(db(), id, NOW, always)).toBe(false);

      expect(await db().select().from(adDailyCounts)).toEqual([
        { adId: plain, day: '2026-11-23', impressions: 0, clicks: 1 },
      ]);
    });
  });
});
