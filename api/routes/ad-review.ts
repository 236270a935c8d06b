/**
 * The admins' side of the ads in spec §7, for the web's server only (service token): the request
 * list and detail, approve and reject (spec §4 Admin request detail), and the managed ad list with
 * its counters. Answers use spec §3's generic admin response `{ success, message?, data? }`.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import type { AdRequestDetailSchema, AdType, ManagedAd } from '../../contract/ads';
import { approveRequest, getRequest, listManagedAds, listPendingRequests, rejectRequest } from '../ads/model';
import type { ApiContext } from '../context';
import { requireServiceToken } from '../service-token';

const REQUEST = '/ads/:type{web|kakao}/submit/:id{[0-9]+}';

/** Mounts the admin ad routes behind the service token; needs the database, the clock and the token. */
export function adReviewRoutes({ db, clock, serviceToken }: ApiContext) {
  const guard = requireServiceToken(serviceToken);
  const typeOf = (param: string) => param as AdType;
  /** Why request `id` could not be approved or rejected: 404 when there is none, 409 when it was decided already. */
  const notDecidable = async (type: AdType, id: number) =>
    (await getRequest(db, type, id))
      ? new HTTPException(409, { message: 'The request is not pending' })
      : new HTTPException(404, { message: 'No such ad request' });
  return new Hono()
    .get('/ads/:type{web|kakao}/submit', guard, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, data: await listPendingRequests(db, typeOf(c.req.param('type'))) });
    })
    .get(REQUEST, guard, async (c) => {
      const request = await getRequest(db, typeOf(c.req.param('type')), Number(c.req.param('id')));
      if (!request) throw new HTTPException(404, { message: 'No such ad request' });
      const data: z.input<typeof AdRequestDetailSchema> = {
        id: request.id,
        title: request.title,
        applicantName: request.applicantName,
        applicantPhone: request.applicantPhone,
        applicantEmail: request.applicantEmail,
        duration: request.duration,
        redirectUrl: request.redirectUrl,
        contentForManager: request.contentForManager,
        imageUrl: request.imageUrl,
        content: request.content,
        status: request.status,
      };
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, data });
    })
    .post(`${REQUEST}/approve`, guard, async (c) => {
      const [type, id] = [typeOf(c.req.param('type')), Number(c.req.param('id'))];
      const ad = await approveRequest(db, type, id, clock.now());
      if (!ad) throw await notDecidable(type, id);
      return c.json({ success: true, message: 'Approved', data: { adId: ad.id } });
    })
    .post(`${REQUEST}/reject`, guard, async (c) => {
      const [type, id] = [typeOf(c.req.param('type')), Number(c.req.param('id'))];
      if (!(await rejectRequest(db, type, id, clock.now()))) throw await notDecidable(type, id);
      return c.json({ success: true, message: 'Rejected' });
    })
    .get('/:type{web|kakao}/ads/list', guard, async (c) => {
      const ads = await listManagedAds(db, typeOf(c.req.param('type')));
      const data: ManagedAd[] = ads.map((ad) => ({
        id: ad.id,
        title: ad.title,
        redirectUrl: ad.redirectUrl,
        imageUrl: ad.imageUrl,
        startsAt: ad.startsAt.toISOString(),
        endsAt: ad.endsAt.toISOString(),
        impressions: ad.impressions,
        clicks: ad.clicks,
      }));
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true, data });
    });
}
