/**
 * The ads served to phones (GET /api/web/ads) and their counts: clicks and impressions, once per phone
 * and KST day, within the address's limits.
 */
import { sql } from 'drizzle-orm';
import { AdBannerListResponseSchema, AdClickResponseSchema, type AdType } from '../../contract/ads';
import { adsApiFor, message } from '../../tests/setup/ads-api';
import { testApi } from '../../tests/setup/api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { recordingLogger } from '../../tests/setup/fakes';
import { adCounts } from '../ads/counters';
import { adDailyCounts, ads, rateLimits } from '../db/schema';

const DAY_MS = 86_400_000;

describe.each(testDatabaseKinds)('ads api on %s', (kind) => {
  const { db, store, clock, app } = adsApiFor(kind);

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
    const now = clock().now();
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
      const now = clock().now();
      const second = await insertAd({ title: 'Second', position: 5 });
      const first = await insertAd({ title: 'First', position: 1, redirectUrl: null });
      const legacy = await insertAd({ title: 'Legacy', position: 7, redirectUrl: 'javascript:alert(1)' });
      await insertAd({ title: 'Not yet', position: 0, startsAt: new Date(now.getTime() + 1000) });
      await insertAd({ title: 'Ended', position: 2, endsAt: now });
      await insertAd({ title: 'Kakao', position: 3, type: 'kakao' });
      await insertAd({ title: 'No image', position: 4, imageUrl: null });

      const response = await app().request('/api/web/ads');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(AdBannerListResponseSchema.parse(await response.json())).toEqual({
        data: [
          { id: first, title: 'First', src: '/images/web-1.png', url: '' },
          { id: second, title: 'Second', src: '/images/web-5.png', url: 'https://example.com/5' },
          { id: legacy, title: 'Legacy', src: '/images/web-7.png', url: '' },
        ],
      });

      clock().advance(2 * 86_400);
      expect(await (await app().request('/api/web/ads')).json()).toEqual({ data: [] });
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
    const click = (id: number | string, phone?: Phone) => app().request(`/api/ads/${id}/clicks`, from(phone));
    const impression = (id: number | string, phone?: Phone) => app().request(`/api/ads/${id}/impressions`, from(phone));

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
      const now = clock().now();
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
      const full = testApi({ db: db(), storage: store(), clock: clock(), logger });
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
      clock().set('2026-11-23T23:59:59+09:00');
      await click(id, late);
      clock().set('2026-11-24T00:00:00+09:00');
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
      clock().set('2026-11-23T23:59:59+09:00');
      expect((await impression(id)).status).toBe(204);
      clock().set('2026-11-24T00:00:00+09:00');
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
