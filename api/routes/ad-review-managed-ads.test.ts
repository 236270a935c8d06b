/** The admins' managed ads: the list by position, edits and reordering in bulk, deletion. */
import { asc, eq } from 'drizzle-orm';
import { AD_FORMAT_MESSAGES, AdBannerListResponseSchema, AdminResponseSchema } from '../../contract/ads';
import { STALE_EDIT_MESSAGE } from '../../contract/admin';
import { message, uploadImageThrough } from '../../tests/setup/ads-api';
import { adReviewApiFor, DAY_MS } from '../../tests/setup/ad-review-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { ads, imageUploads } from '../db/schema';

describe.each(testDatabaseKinds)('ad review api on %s', (kind) => {
  const {
    db,
    clock,
    app,
    approve,
    bulk,
    remove,
    managed,
    auditTrail,
    bannerTitles,
    insertApplication,
    json,
    insertAds,
    editable,
  } = adReviewApiFor(kind);

  describe('GET /api/:type/ads/list', () => {
    it('lists the type’s ads by position: each approval goes last', async () => {
      const now = clock().now();
      const period = { startsAt: now, endsAt: new Date(now.getTime() + DAY_MS), createdAt: now, updatedAt: now };
      // Ids out of position order, so an id order would show.
      await db()
        .insert(ads)
        .values([
          { id: 100, type: 'web', title: 'Existing', redirectUrl: null, imageUrl: null, position: 5, ...period },
          { id: 101, type: 'kakao', title: 'Kakao', redirectUrl: null, imageUrl: null, position: 50, ...period },
        ]);
      const first = await insertApplication({ title: 'First' });
      const second = await insertApplication({ title: 'Second' });

      expect((await approve('web', second)).status).toBe(200);
      clock().advance(60);
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

  describe('PUT /api/:type/ads/bulk', () => {
    it('refuses, whole, a list whose edit changes an ad another admin changed since its version (409); versionless lists save as before', async () => {
      const [first, second] = await insertAds('web', 'First', 'Second');
      const read = await managed('web');
      const versioned = read.map(({ id, title, redirectUrl, imageUrl, version }) => ({
        id,
        title,
        redirectUrl,
        imageUrl,
        version,
      }));
      expect(versioned.every((ad) => /^\d{4}-\d\d-\d\dT/.test(ad.version ?? ''))).toBe(true);
      clock().advance(60);
      // Bob renames the first ad on what he read; then Alice, on the same read, renames it too and reorders.
      expect((await bulk('web', [{ ...versioned[0], title: "Bob's" }, versioned[1]], 'bob')).status).toBe(200);
      const stale = await bulk('web', [versioned[1], { ...versioned[0], title: "Alice's" }]);
      expect(stale.status).toBe(409);
      expect(await message(stale)).toBe(STALE_EDIT_MESSAGE);
      expect((await managed('web')).map((ad) => [ad.id, ad.title])).toEqual([
        [first, "Bob's"],
        [second, 'Second'],
      ]);
      // Unchanged ads of an old read never conflict; on the version read now, Alice's edit is taken.
      const now = (await managed('web')).map(({ id, title, redirectUrl, imageUrl, version }) => ({
        id,
        title,
        redirectUrl,
        imageUrl,
        version,
      }));
      expect((await bulk('web', [{ ...now[0], title: "Alice's" }, versioned[1]])).status).toBe(200);
      // A list without versions (docs/product.md §7's shape) is saved as it always was.
      expect((await bulk('web', [{ ...(await editable('web'))[0], title: 'Plain' }])).status).toBe(200);
      expect((await managed('web'))[0].title).toBe('Plain');
    });

    it('saves edited titles, links and images, audits each changed ad, and answers how many changed', async () => {
      const [first, second, third] = await insertAds('web', 'First', 'Second', 'Third');
      const newImage = (await uploadImageThrough(app(), 'web')).imageUrl;
      const [a, b, c] = await editable('web');
      clock().advance(60);

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
      expect(updated.map((ad) => ad.updatedAt.getTime() === clock().now().getTime())).toEqual([true, true, false]);
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
      clock().advance(60);

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
      const chatbotAdImage = (await uploadImageThrough(app(), 'kakao')).imageUrl;
      // Issued for web but never uploaded.
      const presign = await app().request(
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

      for (const imageUrl of [chatbotAdImage, notUploaded, '/images/web-00000000-0000-0000-0000-0000000000ff.png']) {
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
      const { imageUrl } = await uploadImageThrough(app(), 'web');
      const [ad] = await editable('web');

      expect((await bulk('web', [{ ...ad, imageUrl }])).status).toBe(200);
      expect(await editable('web')).toEqual([{ ...ad, imageUrl }]);
      const banners = AdBannerListResponseSchema.parse(await (await app().request('/api/web/ads')).json());
      expect(banners.data).toEqual([{ id, title: 'A', src: imageUrl, url: ad.redirectUrl }]);
    });
  });

  describe('DELETE /api/:type/ads/:id', () => {
    it('deletes the ad from the list and the banner, audited with the ad as it was', async () => {
      const [a, b] = await insertAds('web', 'A', 'B');
      const [adA] = await managed('web');
      clock().advance(60);

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
});
