/**
 * Ads (docs/product.md §3, §7): the applications (POST /api/ads/{type}/submit), the banner list
 * (GET /api/web/ads), and the counters the web reports (POST /api/ads/{id}/impressions and
 * /clicks; ours, as Revive Adserver does: impressions by beacon, clicks by redirect). A count is taken once per
 * ad, per client (address and User-Agent), per KST day, and within its address's rate limit; a
 * click is answered its link either way, since the redirect must work for every click (ADR 018).
 */
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AdApplicationSchema, contentLang, type AdBannerListResponse, type AdType } from '../../contract/ads';
import { confirmStoredImage } from '../ads/images';
import { createCountedOnce } from '../ads/counted-once';
import { recordClick, recordImpression } from '../ads/counters';
import { createAdApplication } from '../ads/applications';
import { failureLog } from '../../lib/failure-log';
import type { ApiContext } from '../context';
import { clientKeys, rateLimit, withinLimit } from '../rate-limit';
import { jsonBody } from '../validate';
import { isHttpUrl } from '../../contract/links';

const NOT_UPLOADED = 'imageUrl: not an image uploaded through POST /api/s3/presigned-url/image for this ad type';

/**
 * Mounts the ads routes; needs the database, the object store, the clock, the rate limiters, the
 * shared banner list and the service token (the key of the counted-today marks).
 */
export function adsRoutes({ db, storage, clock, rateLimiters, pageReads, serviceToken, logger, mail }: ApiContext) {
  const countedOnce = createCountedOnce(db, serviceToken);
  const clickCountFailures = failureLog(logger, {
    failing: '[ads] click counts cannot be written; clicks still redirect, uncounted:',
    recovered: '[ads] click counts are written again.',
    level: 'error',
  });
  /** The client of a count: the phone's address key (its IPv6 /64) and User-Agent, as the web forwards them. */
  const clientOf = (c: Context) => ({ address: clientKeys(c).address, userAgent: c.req.header('User-Agent') ?? '' });
  return new Hono()
    .post(
      '/ads/:type{web|kakao}/submit',
      rateLimit(rateLimiters.adSubmit),
      rateLimit(rateLimiters.adApplication), // the budget its image's presign spent from too
      jsonBody(AdApplicationSchema),
      async (c) => {
        const type = c.req.param('type') as AdType;
        const application = c.req.valid('json');
        if (application.type !== type) throw new HTTPException(400, { message: `type: must be ${type} on this path` });
        const image = await confirmStoredImage(db, storage, application.imageUrl, type);
        // 415 as the local PUT answers it: the file itself is wrong, not the application.
        if (image === 'not-an-image') throw new HTTPException(415, { message: 'imageUrl: not a jpg, png or gif' });
        if (image === 'unknown') throw new HTTPException(400, { message: NOT_UPLOADED });
        const created = await createAdApplication(db, application, clock.now(), mail);
        if (created === null) throw new HTTPException(400, { message: NOT_UPLOADED });
        return c.json({ success: true, ...created }, 201);
      },
    )
    .get('/web/ads', async (c) => {
      const ads = await pageReads.webAds.get();
      const body: AdBannerListResponse = {
        data: ads.flatMap((ad) =>
          ad.imageUrl
            ? [
                {
                  id: ad.id,
                  src: ad.imageUrl,
                  url: ad.redirectUrl && isHttpUrl(ad.redirectUrl) ? ad.redirectUrl : '',
                  title: ad.title ?? '',
                  ...contentLang(ad.lang),
                },
              ]
            : [],
        ),
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    })
    .post('/ads/:id{[0-9]+}/impressions', rateLimit(rateLimiters.adImpression), async (c) => {
      // 204 whether counted or not (the phone's second today); 429 (the middleware) over its address's limit.
      const client = clientOf(c);
      const served = await recordImpression(db, Number(c.req.param('id')), clock.now(), (counter, id, day) =>
        countedOnce(counter, id, day, client),
      );
      if (!served) throw new HTTPException(404, { message: 'No such ad in its period' });
      return c.body(null, 204);
    })
    .post('/ads/:id{[0-9]+}/clicks', async (c) => {
      // Never 429, and never failed for its count: over its address's limit, or when the count
      // cannot be written (a full disk), a click is still answered its link, uncounted.
      const client = clientOf(c);
      let counted = true;
      const redirectUrl = await recordClick(
        db,
        Number(c.req.param('id')),
        clock.now(),
        async (counter, id, day) =>
          (await withinLimit(c, rateLimiters.adClick)) && countedOnce(counter, id, day, client),
        (error) => {
          counted = false;
          clickCountFailures.fail(error);
        },
      );
      if (counted) clickCountFailures.ok();
      if (!redirectUrl) throw new HTTPException(404, { message: 'No such ad with a link in its period' });
      return c.json({ redirectUrl });
    });
}
