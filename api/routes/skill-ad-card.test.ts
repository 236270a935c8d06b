/**
 * The KakaoTalk skill's chatbot ad card: the approved chatbot ads in turn, their impressions counted and
 * written, and what a failing database leaves.
 */
import { mailOff } from '../mail/outbox';
import { eq } from 'drizzle-orm';
import { uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { BASE, skillApiFor, NOW, payload, SECRET } from '../../tests/setup/skill-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { adCounts } from '../ads/counters';
import { saveAds } from '../ads/managed';
import { approveApplication, createAdApplication } from '../ads/applications';
import { ads } from '../db/schema';
import { AD_BUTTON_LABEL, createChatbotAdService, CHATBOT_ADS_CACHE_MS } from '../skill/ads';

describe.each(testDatabaseKinds)('chatbot skill api on %s', (kind) => {
  const { db, clock, logger, rotation, api, ask, text, card, flakyDb, chatbotAd, stored, impressions } =
    skillApiFor(kind);

  describe('the chatbot ad card', () => {
    it('shows the approved in-period chatbot ads in turn, in the admins’ order, counting one impression each', async () => {
      const app = api();
      const first = await chatbotAd(app, '캠퍼스 카페', { redirectUrl: 'https://cafe.example.com/menu' });
      const second = await chatbotAd(app, '모현 서점'); // no link
      const seen: (string | undefined)[] = [];
      for (let i = 0; i < 3; i += 1) seen.push(card(await ask(app, payload('버스')))?.title);
      expect(seen).toEqual(['캠퍼스 카페', '모현 서점', '캠퍼스 카페']);
      expect(await impressions(first.id)).toBe(2);
      expect(await impressions(second.id)).toBe(1);

      const shown = card(await ask(app, payload('막차')));
      expect(shown).toEqual({
        title: '모현 서점',
        description: '모현 서점의 광고 메시지',
        thumbnail: { imageUrl: `${BASE}${second.imageUrl}`, altText: '모현 서점', fixedRatio: false },
      });
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      const linked = card(await ask(app, payload('막차')));
      expect(linked?.buttons).toEqual([
        { action: 'webLink', label: AD_BUTTON_LABEL, webLinkUrl: `${BASE}/ads/click/${first.id}` },
      ]);

      // The admins put 모현 서점 first (the bulk save): once the list is read again, the turn follows it.
      const edits = [second, first].map(({ id, title, redirectUrl, imageUrl }) => ({
        id,
        title,
        redirectUrl,
        imageUrl,
      }));
      expect(await saveAds(db(), 'kakao', edits, 'test', clock().now())).toEqual({ edited: 0, reordered: true });
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await rotation().refresh(clock().now());
      const after: (string | undefined)[] = [];
      for (let i = 0; i < 4; i += 1) after.push(card(await ask(app, payload('버스')))?.title);
      expect(after).toEqual(['캠퍼스 카페', '모현 서점', '캠퍼스 카페', '모현 서점']);
    });

    it('makes each card once per list read, so that the answers carrying it can be shared', async () => {
      const app = api();
      await chatbotAd(app, '캠퍼스 카페');
      const first = await rotation().next(clock().now());
      clock().advance(1);
      expect(await rotation().next(clock().now())).toBe(first);
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await rotation().refresh(clock().now());
      const reread = await rotation().next(clock().now());
      expect(reread).not.toBe(first);
      expect(reread).toEqual(first);
    });

    it('writes the counted impressions at a flush, per ad and KST day, keeping them while writing fails', async () => {
      const app = api();
      const ad = await chatbotAd(app, '캠퍼스 카페');
      await ask(app, payload('버스'));
      await ask(app, payload('막차'));
      expect(await stored(ad.id)).toBe(0);
      await rotation().flush();
      clock().advance(16 * 3600); // Tuesday 00:00 KST: the next KST day's row
      await ask(app, payload('버스'));
      await rotation().flush();
      await rotation().flush(); // nothing new: nothing added
      expect(await adCounts(db(), ad.id)).toEqual([
        { day: '2026-11-23', impressions: 2, clicks: 0 },
        { day: '2026-11-24', impressions: 1, clicks: 0 },
      ]);

      // A database that refuses writes (a read-only failover): the counts wait for the next flush.
      const flaky = flakyDb('insert', 'cannot execute INSERT in a read-only transaction');
      const failing = createChatbotAdService({ db: flaky.db, logger: logger(), publicBaseUrl: BASE });
      await failing.next(clock().now());
      await failing.next(clock().now());
      await failing.flush();
      expect(
        logger().lines.filter((line) => line.includes('could not write some chatbot ad impressions')),
      ).toHaveLength(1);
      flaky.failure.on = false;
      await failing.next(clock().now());
      await failing.flush();
      expect(await adCounts(db(), ad.id)).toEqual([
        { day: '2026-11-23', impressions: 2, clicks: 0 },
        { day: '2026-11-24', impressions: 4, clicks: 0 },
      ]);

      // An ad deleted before the flush counts nothing, and the flush does not fail.
      await ask(app, payload('버스'));
      await db().delete(ads).where(eq(ads.id, ad.id));
      await rotation().flush();
      expect(await stored(ad.id)).toBe(0);
      expect(logger().lines.filter((line) => line.includes('could not write'))).toHaveLength(1);
    });

    it('answers whatever the ad list’s database does: without a card before any list, else with the last list read', async () => {
      const setup = api();
      await chatbotAd(setup, '캠퍼스 카페');
      const flaky = flakyDb('select', 'connection terminated unexpectedly');
      const failing = createChatbotAdService({ db: flaky.db, logger: logger(), publicBaseUrl: BASE });
      const app = api(undefined, { chatbotAds: failing });
      const failures = () => logger().lines.filter((line) => line.includes('could not read the chatbot ads')).length;

      const first = await ask(app, payload('버스'));
      expect(text(first)).toMatch(/^학교 가는 버스/);
      expect(card(first)).toBeNull();
      expect(failures()).toBe(1);

      flaky.failure.on = false;
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await failing.refresh(clock().now());
      expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');

      // A later read fails: the answers keep the last list read.
      flaky.failure.on = true;
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await failing.refresh(clock().now());
      expect(failures()).toBe(2);
      for (let i = 0; i < 2; i += 1) expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');
      // Logged once per run of failed reads, not once per read.
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await failing.refresh(clock().now());
      expect(failures()).toBe(2);
    });

    it('shows no card for a web ad, an ad past its period, or without PUBLIC_BASE_URL for an image path; logs it once', async () => {
      const app = api();
      const { imageUrl } = await uploadImageThrough(app, 'web');
      const web = await createAdApplication(
        db(),
        validApplication('web', imageUrl, { title: '웹 배너' }),
        NOW,
        mailOff,
      );
      await approveApplication(db(), 'web', web!.id, 'test', NOW, mailOff);
      const pending = await uploadImageThrough(app, 'kakao');
      await createAdApplication(
        db(),
        validApplication('kakao', pending.imageUrl, { title: '심사 중', content: '아직 승인 전' }),
        NOW,
        mailOff,
      );
      for (let i = 0; i < 3; i += 1) expect(card(await ask(app, payload('버스')))).toBeNull();
      expect(logger().lines.filter((line) => line.includes('[skill] no chatbot ad card'))).toHaveLength(1);

      const ad = await chatbotAd(app, '캠퍼스 카페');
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await rotation().refresh(clock().now());
      expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');
      // Past its paid period (1 month = 30 days), even inside the cache's window.
      await db()
        .update(ads)
        .set({ endsAt: new Date(clock().now().getTime() + CHATBOT_ADS_CACHE_MS + 1000) })
        .where(eq(ads.id, ad.id));
      clock().advance(CHATBOT_ADS_CACHE_MS / 1000);
      await rotation().refresh(clock().now());
      expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');
      clock().advance(2);
      expect(card(await ask(app, payload('버스')))).toBeNull();
      expect(await impressions(ad.id)).toBe(2);

      const noBase = api({ secret: SECRET });
      await db()
        .update(ads)
        .set({ endsAt: new Date(NOW.getTime() + 86_400_000 * 30) })
        .where(eq(ads.id, ad.id));
      expect(card(await ask(noBase, payload('버스')))).toBeNull();
      await db().update(ads).set({ imageUrl: 'https://cdn.example.com/kakao.png' }).where(eq(ads.id, ad.id));
      const cdn = api({ secret: SECRET });
      expect(card(await ask(cdn, payload('버스')))?.thumbnail).toEqual({
        imageUrl: 'https://cdn.example.com/kakao.png',
        altText: '캠퍼스 카페',
        fixedRatio: false,
      });
    });
  });
});
