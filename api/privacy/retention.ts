/**
 * Retention of personal data (spec §2 Privacy policy, §9; issue 8 "make the retention real"):
 * inquiries are deleted once older than 1 year, and ad applications (ad_requests: name, phone,
 * e-mail) once older than 3 years, together with their images. A folder of its own (api/privacy/)
 * because the rule spans two resources (inquiries, ads) and belongs to the privacy policy, not to
 * either; the policy's other duties (e.g. a deletion on request) would sit beside it.
 *
 * An image that a managed ad (table ads) still shows is kept: the ad is published content an admin
 * manages, not the applicant's personal data, and removing its image would break a live banner.
 * It goes when the ad no longer uses it (api/ads/images.ts removeOrphanImages). The managed ad
 * itself stays; its link to the deleted application becomes null (ads.request_id ON DELETE SET NULL).
 */
import { TZDate } from '@date-fns/tz';
import { subYears } from 'date-fns';
import { and, eq, inArray, isNotNull, lt, notInArray } from 'drizzle-orm';
import type { BusFeed } from '../bus/feed-service';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { adRequests, ads, imageUploads, inquiries } from '../db/schema';
import type { Logger } from '../logger';
import type { ObjectStore } from '../storage';
import { KST } from '../time';

/** Spec §9: ad applications are kept 3 years (counted from their submission, ad_requests.created_at). */
export const AD_REQUEST_RETENTION_YEARS = 3;
/** Spec §9: inquiries are kept 1 year (counted from their arrival, inquiries.created_at). */
export const INQUIRY_RETENTION_YEARS = 1;

/**
 * The oldest instant a record received `years` calendar years before `now` may carry and still be
 * kept: the same KST wall-clock time `years` years earlier (date-fns subYears on a KST date; 29 Feb
 * falls back to 28 Feb). A record created strictly before it is past retention.
 * E.g. now 2026-11-23 10:00 KST, 1 year → 2025-11-23 10:00 KST.
 */
export function retentionCutoff(now: Date, years: number): Date {
  return new Date(subYears(new TZDate(now, KST), years).getTime());
}

/** What one retention run deleted (counts only: the log never carries personal data). */
export type RetentionReport = {
  inquiries: number;
  adRequests: number;
  /** Images of the deleted applications removed from the object store with their image_uploads rows. */
  images: number;
  /** Images of the deleted applications kept because a managed ad or a newer application uses them. */
  imagesKept: number;
};

/**
 * Deletes, as of `now`, the inquiries older than INQUIRY_RETENTION_YEARS and the ad applications
 * older than AD_REQUEST_RETENTION_YEARS (retentionCutoff), then each of those applications' images
 * (object, then its image_uploads row) that no managed ad and no remaining application uses.
 * Idempotent: a run that fails halfway is finished by the next one, and an image left behind is
 * an orphan that removeOrphanImages deletes.
 * @throws what the database or the object store throws.
 */
export async function removeExpiredRecords(db: Db, store: ObjectStore, now: Date): Promise<RetentionReport> {
  const deletedInquiries = await db
    .delete(inquiries)
    .where(lt(inquiries.createdAt, retentionCutoff(now, INQUIRY_RETENTION_YEARS)))
    .returning({ id: inquiries.id });
  const deletedRequests = await db
    .delete(adRequests)
    .where(lt(adRequests.createdAt, retentionCutoff(now, AD_REQUEST_RETENTION_YEARS)))
    .returning({ imageUrl: adRequests.imageUrl });
  const imageUrls = [...new Set(deletedRequests.map((request) => request.imageUrl))];
  const report: RetentionReport = {
    inquiries: deletedInquiries.length,
    adRequests: deletedRequests.length,
    images: 0,
    imagesKept: 0,
  };
  if (imageUrls.length === 0) return report;
  const requested = db.select({ imageUrl: adRequests.imageUrl }).from(adRequests);
  const shown = db.select({ imageUrl: ads.imageUrl }).from(ads).where(isNotNull(ads.imageUrl));
  const unused = await db
    .select({ key: imageUploads.key })
    .from(imageUploads)
    .where(
      and(
        inArray(imageUploads.imageUrl, imageUrls),
        notInArray(imageUploads.imageUrl, requested),
        notInArray(imageUploads.imageUrl, shown),
      ),
    );
  for (const { key } of unused) {
    await store.delete(key);
    await db.delete(imageUploads).where(eq(imageUploads.key, key));
  }
  const kept = await db
    .select({ key: imageUploads.key })
    .from(imageUploads)
    .where(inArray(imageUploads.imageUrl, imageUrls));
  return { ...report, images: unused.length, imagesKept: kept.length };
}

/**
 * One scheduled run (api/runtime.ts: a minute after start, then hourly): only in the instance that
 * holds the poller lease (`feed.role()` is 'leader'), so several api instances on one database do
 * not run it at once; a follower does nothing. Logs the counts when anything was deleted.
 * @returns the report, or null in a follower.
 * @throws what removeExpiredRecords throws (the scheduler logs it and tries again at the next run).
 */
export async function runRetention(deps: {
  db: Db;
  storage: ObjectStore;
  clock: Clock;
  logger: Logger;
  feed: Pick<BusFeed, 'role'>;
}): Promise<RetentionReport | null> {
  if (deps.feed.role() !== 'leader') return null;
  const report = await removeExpiredRecords(deps.db, deps.storage, deps.clock.now());
  if (report.inquiries + report.adRequests > 0) {
    deps.logger.info(
      `[retention] deleted ${report.inquiries} inquiries older than ${INQUIRY_RETENTION_YEARS} year and ` +
        `${report.adRequests} ad applications older than ${AD_REQUEST_RETENTION_YEARS} years with ` +
        `${report.images} images (${report.imagesKept} images kept: still used by an ad or a newer application).`,
    );
  }
  return report;
}
