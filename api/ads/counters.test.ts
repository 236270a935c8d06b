import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { adDailyCounts } from '../db/schema';
import { adRowsIn, at, NOW } from './ad-rows.fixture';
import { adCounts, recordClick, recordImpression, type MayCount } from './counters';
import { listManagedAds } from './managed';

describe.each(testDatabaseKinds)('ad counters on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const { insertAd } = adRowsIn(db);

  describe('counters', () => {
    /** Counts every time: what the route's client and limit rules decide is tested in api/routes/ads-served.test.ts. */
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
