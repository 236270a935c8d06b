/**
 * What happens to the image of an ad application that is deleted (past retention, or on the
 * applicant's request through the admin tool; privacy policy 제4조, 제7조). One rule for both ways:
 *
 * - An ad still showing or scheduled (ads.ends_at > now) that uses the image keeps it: the image then
 *   stays with that ad, published content an admin manages; when the admin deletes the ad (or
 *   replaces its image), removeOrphanImages (api/ads/images.ts) deletes the image as an orphan.
 * - A remaining application that uses the same image (a shop applying again) keeps it too.
 * - Otherwise the image goes: the ads whose period has ended and that still reference it lose it
 *   (ads.image_url set to null), then its object is deleted from the store, then its image_uploads row.
 */
import { and, gt, inArray, isNotNull, lte, notInArray } from 'drizzle-orm';
import { deleteUnreferencedImages } from '../ads/images';
import type { Db } from '../db/client';
import { adApplications, ads, imageUploads } from '../db/schema';
import type { ObjectStore } from '../storage/types';

/** What eraseApplicationImages did with the images it was given. */
type ImageErasure = {
  /** Images deleted (object and image_uploads row). */
  deleted: number;
  /** Images kept because a showing or scheduled ad, or a remaining application, uses them. */
  kept: number;
  /** Ads whose period had ended that lost their image (imageUrl set to null). */
  endedAdsUnlinked: number;
};

/**
 * Applies the rule above, as of `now`, to `imageUrls`: the images of applications the caller has
 * just deleted (duplicates are fine; an imageUrl with no image_uploads row counts as neither
 * deleted nor kept). Idempotent: after a failure halfway, an image left unreferenced is an orphan
 * that removeOrphanImages deletes at the orphan sweep's next run (every 5 minutes, for images
 * issued over 30 minutes ago; ADR 018).
 * @throws what the database or the object store throws.
 */
export async function eraseApplicationImages(
  db: Db,
  store: ObjectStore,
  imageUrls: readonly string[],
  now: Date,
): Promise<ImageErasure> {
  const urls = [...new Set(imageUrls)];
  if (urls.length === 0) return { deleted: 0, kept: 0, endedAdsUnlinked: 0 };
  const applied = db.select({ imageUrl: adApplications.imageUrl }).from(adApplications);
  const showing = db
    .select({ imageUrl: ads.imageUrl })
    .from(ads)
    .where(and(isNotNull(ads.imageUrl), gt(ads.endsAt, now)));
  // Ended ads let go of an image that nothing else keeps; then it is unreferenced and goes.
  const unlinked = await db
    .update(ads)
    .set({ imageUrl: null, updatedAt: now })
    .where(
      and(
        inArray(ads.imageUrl, urls),
        lte(ads.endsAt, now),
        notInArray(ads.imageUrl, applied),
        notInArray(ads.imageUrl, showing),
      ),
    )
    .returning({ id: ads.id });
  const deleted = await deleteUnreferencedImages(db, store, inArray(imageUploads.imageUrl, urls));
  const kept = await db
    .select({ key: imageUploads.key })
    .from(imageUploads)
    .where(inArray(imageUploads.imageUrl, urls));
  return { deleted, kept: kept.length, endedAdsUnlinked: unlinked.length };
}
