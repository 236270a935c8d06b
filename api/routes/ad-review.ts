/**
 * The admins' side of the ads in docs/product.md §7, for the web's server only (service token): the application
 * list and detail, approve and reject (docs/product.md §4.5 Admin request detail), the deletion of an application on
 * its applicant's request (privacy policy 제7조), and the managed ads: their
 * list with counters, the bulk save of edits and order, and delete. Answers use docs/product.md §3's generic
 * admin response `{ success, message?, data? }`; refusals are `{ message }` with a 4xx status. The
 * acting admin is named in the X-Admin-User header, for the audit log.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import {
  AD_FORMAT_MESSAGES,
  AD_TYPE_LABELS,
  AdBulkRequestSchema,
  RejectRequestSchema,
  type AdApplicationDetailSchema,
  type AdType,
  type ManagedAd,
} from '../../contract/ads';
import { confirmStoredImage } from '../ads/images';
import { adImageUrls, deleteAd, listManagedAds, saveAds } from '../ads/managed';
import {
  approveApplication,
  deleteAdApplication,
  getApplication,
  listApplications,
  rejectApplication,
} from '../ads/applications';
import type { ApiContext } from '../context';
import { eraseApplicationImages } from '../privacy/application-images';
import { actorOf, requireServiceToken } from '../service-token';
import { jsonBody } from '../validate';
import { STALE_EDIT_MESSAGE } from '../../contract/admin';

const APPLICATION = '/ads/:type{web|kakao}/submit/:id{[0-9]+}';

/**
 * The refusals of the managed ads' save and delete, in Korean: the edit page shows them to the admin
 * after 'Failed to modify the ad: ' (docs/product.md §8). Ads are named by type and number, as the
 * audit log lists them.
 */
const MANAGED_AD_REFUSALS = {
  unknown: (type: AdType, ids: readonly number[]) =>
    `${AD_TYPE_LABELS[type]} ${ids.join(', ')}번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.`,
  notAnImage: (id: number) => `광고 ${id}번의 새 이미지: ${AD_FORMAT_MESSAGES.imageType}`,
  foreignImage: (type: AdType, id: number) =>
    `광고 ${id}번의 이미지는 ${AD_TYPE_LABELS[type]}에 쓰려고 올린 이미지가 아닙니다.`,
};

/** Mounts the admin ad routes behind the service token; needs the database, the store, the clock and the token. */
export function adReviewRoutes({ db, storage, clock, serviceToken, mail }: ApiContext) {
  const guard = requireServiceToken(serviceToken);
  const typeOf = (param: string) => param as AdType;
  /** Why application `id` could not be approved or rejected: 404 when there is none, 409 when it was decided already. */
  const notDecidable = async (type: AdType, id: number) =>
    (await getApplication(db, type, id))
      ? new HTTPException(409, { message: '이미 승인 또는 거절된 요청입니다.' })
      : new HTTPException(404, { message: '요청을 찾을 수 없습니다.' });
  return new Hono()
    .get('/ads/:type{web|kakao}/submit', guard, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, data: await listApplications(db, typeOf(c.req.param('type'))) });
    })
    .get(APPLICATION, guard, async (c) => {
      const application = await getApplication(db, typeOf(c.req.param('type')), Number(c.req.param('id')));
      if (!application) throw new HTTPException(404, { message: '요청을 찾을 수 없습니다.' });
      const data: z.input<typeof AdApplicationDetailSchema> = {
        id: application.id,
        title: application.title,
        applicantName: application.applicantName,
        applicantPhone: application.applicantPhone,
        applicantEmail: application.applicantEmail,
        duration: application.duration,
        redirectUrl: application.redirectUrl,
        contentForManager: application.contentForManager,
        imageUrl: application.imageUrl,
        content: application.content,
        status: application.status,
        rejectReason: application.rejectReason,
        adTakenDownAt: application.adTakenDown?.at ?? null,
      };
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, data });
    })
    .post(`${APPLICATION}/approve`, guard, async (c) => {
      const [type, id] = [typeOf(c.req.param('type')), Number(c.req.param('id'))];
      const ad = await approveApplication(db, type, id, actorOf(c), clock.now(), mail);
      if (!ad) throw await notDecidable(type, id);
      return c.json({ success: true, message: 'Approved', data: { adId: ad.id } });
    })
    .post(`${APPLICATION}/reject`, guard, jsonBody(RejectRequestSchema), async (c) => {
      const [type, id] = [typeOf(c.req.param('type')), Number(c.req.param('id'))];
      const reason = c.req.valid('json').reason || null; // blank is none
      if (!(await rejectApplication(db, type, id, reason, actorOf(c), clock.now(), mail))) {
        throw await notDecidable(type, id);
      }
      return c.json({ success: true, message: 'Rejected' });
    })
    .delete(APPLICATION, guard, async (c) => {
      const [type, id, now] = [typeOf(c.req.param('type')), Number(c.req.param('id')), clock.now()];
      const imageUrl = await deleteAdApplication(db, type, id, actorOf(c), now);
      if (imageUrl === null) throw new HTTPException(404, { message: '요청을 찾을 수 없습니다.' });
      // The image goes too, unless a showing or scheduled ad or another application uses it.
      await eraseApplicationImages(db, storage, [imageUrl], now);
      return c.json({ success: true, message: 'Deleted' });
    })
    .get('/:type{web|kakao}/ads/list', guard, async (c) => {
      const ads = await listManagedAds(db, typeOf(c.req.param('type')), clock.now());
      const data: ManagedAd[] = ads.map((ad) => ({
        id: ad.id,
        title: ad.title,
        redirectUrl: ad.redirectUrl,
        imageUrl: ad.imageUrl,
        startsAt: ad.startsAt.toISOString(),
        endsAt: ad.endsAt.toISOString(),
        impressions: ad.impressions,
        clicks: ad.clicks,
        todayImpressions: ad.todayImpressions,
        todayClicks: ad.todayClicks,
        version: ad.updatedAt.toISOString(),
      }));
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, data });
    })
    .put('/:type{web|kakao}/ads/bulk', guard, jsonBody(AdBulkRequestSchema), async (c) => {
      const type = typeOf(c.req.param('type'));
      const edits = c.req.valid('json');
      // A new image that went straight to the object store is sniffed before it is used.
      const current = await adImageUrls(db, type);
      for (const edit of edits) {
        if (!edit.imageUrl || edit.imageUrl === current.get(edit.id)) continue;
        if ((await confirmStoredImage(db, storage, edit.imageUrl, type)) === 'not-an-image') {
          throw new HTTPException(415, { message: MANAGED_AD_REFUSALS.notAnImage(edit.id) });
        }
      }
      const result = await saveAds(db, type, edits, actorOf(c), clock.now());
      if ('refused' in result) {
        if (result.refused === 'stale') throw new HTTPException(409, { message: STALE_EDIT_MESSAGE });
        throw new HTTPException(result.refused === 'unknown-ad' ? 404 : 400, {
          message:
            result.refused === 'unknown-ad'
              ? MANAGED_AD_REFUSALS.unknown(type, result.ids)
              : MANAGED_AD_REFUSALS.foreignImage(type, result.id),
        });
      }
      return c.json({ success: true, message: 'Saved', data: result });
    })
    .delete('/:type{web|kakao}/ads/:id{[0-9]+}', guard, async (c) => {
      const [type, id] = [typeOf(c.req.param('type')), Number(c.req.param('id'))];
      if (!(await deleteAd(db, type, id, actorOf(c), clock.now()))) {
        throw new HTTPException(404, { message: MANAGED_AD_REFUSALS.unknown(type, [id]) });
      }
      return c.json({ success: true, message: 'Deleted' });
    });
}
