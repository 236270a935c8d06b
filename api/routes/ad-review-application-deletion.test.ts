/**
 * Deleting an ad application on the applicant's request: the application, its image (kept while its ad shows),
 * and the audit.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { AdminResponseSchema } from '../../contract/ads';
import { message } from '../../tests/setup/ads-api';
import { adReviewApiFor, DAY_MS } from '../../tests/setup/ad-review-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { removeOrphanImages } from '../ads/images';
import { adApplications, ads, imageUploads } from '../db/schema';

describe.each(testDatabaseKinds)('ad review api on %s', (kind) => {
  const {
    db,
    store,
    clock,
    detail,
    approve,
    remove,
    removeApplication,
    applications,
    managed,
    auditTrail,
    bannerTitles,
    submitted,
  } = adReviewApiFor(kind);

  describe('DELETE /api/ads/:type/submit/:id (deletion on the applicant’s request)', () => {
    /** Whether the image `imageUrl` is still stored: its file, and its image_uploads row. */
    async function stored(imageUrl: string) {
      const key = imageUrl.slice(imageUrl.lastIndexOf('/') + 1);
      const rows = await db().select().from(imageUploads).where(eq(imageUploads.imageUrl, imageUrl));
      expect(rows.length === 1, `${imageUrl}: file and record agree`).toBe(existsSync(join(store().dir, key)));
      return rows.length === 1;
    }

    it('deletes a pending application and its image, audited without the applicant’s data; a second delete answers 404', async () => {
      const { id, imageUrl } = await submitted('web');
      const other = await submitted('web', { title: '남는 신청' });
      const createdAt = (await db().select().from(adApplications).where(eq(adApplications.id, id)))[0].createdAt;
      clock().advance(60);

      const response = await removeApplication('web', id, 'bob');
      expect(response.status).toBe(200);
      expect(AdminResponseSchema.parse(await response.json())).toEqual({ success: true, message: 'Deleted' });
      expect((await detail('web', id)).status).toBe(404);
      expect((await applications('web')).map((application) => application.id)).toEqual([other.id]);
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

      const again = await removeApplication('web', id);
      expect(again.status).toBe(404);
      expect(await message(again)).toBe('요청을 찾을 수 없습니다.');
      expect(await auditTrail()).toHaveLength(1);
    });

    it('keeps the image while the ad approved from the application shows; it goes with the ad, as an orphan', async () => {
      const { id, imageUrl } = await submitted('web');
      expect((await approve('web', id)).status).toBe(200);
      const [ad] = await managed('web');

      expect((await removeApplication('web', id)).status).toBe(200);
      expect((await managed('web')).map((row) => ({ id: row.id, imageUrl: row.imageUrl }))).toEqual([
        { id: ad.id, imageUrl },
      ]);
      expect(await bannerTitles()).toEqual(['web cafe']);
      expect(await stored(imageUrl)).toBe(true);

      // The admin deletes the ad: the orphan cleanup then deletes the image.
      expect((await remove('web', ad.id)).status).toBe(200);
      expect(await removeOrphanImages(db(), store(), new Date(clock().now().getTime() + 2 * DAY_MS))).toBe(1);
      expect(await stored(imageUrl)).toBe(false);
    });

    it('deletes the image of an application whose ad has ended: the ended ad loses it', async () => {
      const { id, imageUrl } = await submitted('kakao', { duration: 1 });
      expect((await approve('kakao', id)).status).toBe(200);
      clock().advance(30 * 86_400); // 30 days later, the paid month is over
      const [ad] = await managed('kakao');
      expect(ad.endsAt).toBe(clock().now().toISOString());

      expect((await removeApplication('kakao', id)).status).toBe(200);
      expect(await stored(imageUrl)).toBe(false);
      const [after] = await db().select().from(ads).where(eq(ads.id, ad.id));
      expect(after).toMatchObject({ imageUrl: null, updatedAt: clock().now(), applicationId: null });
    });

    it('answers 404 through the other type’s path, for an unknown id or one beyond a serial, deleting nothing', async () => {
      const web = await submitted('web');
      for (const [type, id] of [
        ['kakao', web.id],
        ['web', 9999],
        ['web', '2147483648'],
        ['web', 0],
      ] as const) {
        const response = await removeApplication(type, id);
        expect(response.status, `${type} ${id}`).toBe(404);
        expect(await message(response)).toBe('요청을 찾을 수 없습니다.');
      }
      expect((await applications('web')).map((application) => application.id)).toEqual([web.id]);
      expect(await stored(web.imageUrl)).toBe(true);
      expect(await auditTrail()).toEqual([]);
    });
  });
});
