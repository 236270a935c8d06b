/**
 * The managed ads (docs/product.md §2.10.3 Ad edit page, §7): the ads served now in the admins' order,
 * every ad of a type with its counters, the bulk save of edits and order, and delete.
 */
import { and, asc, eq, getTableColumns, gt, lte, sql } from 'drizzle-orm';
import type { AdEdit, AdType } from '../../contract/ads';
import { recordAudit } from '../admin/audit';
import type { Db } from '../db/client';
import { isSerialId } from '../db/serial-id';
import { adApplications, adDailyCounts, ads, imageUploads, type AdTakenDown } from '../db/schema';
import { formatKstDate } from '../../contract/kst';
import { recentCounts } from './status';

export type AdRow = typeof ads.$inferSelect;

/** The ads of `type` inside their paid period at `now`, in the admins' order (position, then id). */
export async function listServedAds(db: Db, type: AdType, now: Date): Promise<AdRow[]> {
  return db
    .select()
    .from(ads)
    .where(and(eq(ads.type, type), lte(ads.startsAt, now), gt(ads.endsAt, now)))
    .orderBy(asc(ads.position), asc(ads.id));
}

/** A managed ad with its counters: over all days, and on the KST date of `now`. */
type ManagedAdRow = AdRow & { impressions: number; clicks: number; todayImpressions: number; todayClicks: number };

/**
 * Every ad of `type`, in or out of its period, in the admins' order, with its impressions and
 * clicks over all days and today (the KST date of `now`) (docs/product.md §2.10.3 Ad edit page).
 */
export async function listManagedAds(db: Db, type: AdType, now: Date): Promise<ManagedAdRow[]> {
  const today = formatKstDate(now);
  const onToday = (counter: 'impressions' | 'clicks') =>
    sql<number>`coalesce(sum(${adDailyCounts[counter]}) filter (where ${adDailyCounts.day} = ${today}), 0)::int`;
  return db
    .select({
      ...getTableColumns(ads),
      impressions: sql<number>`coalesce(sum(${adDailyCounts.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${adDailyCounts.clicks}), 0)::int`,
      todayImpressions: onToday('impressions'),
      todayClicks: onToday('clicks'),
    })
    .from(ads)
    .leftJoin(adDailyCounts, eq(adDailyCounts.adId, ads.id))
    .where(eq(ads.type, type))
    .groupBy(ads.id)
    .orderBy(asc(ads.position), asc(ads.id));
}

/** The imageUrl of each ad of `type`, by id (what a bulk save compares new images with). */
export async function adImageUrls(db: Db, type: AdType): Promise<Map<number, string | null>> {
  const rows = await db.select({ id: ads.id, imageUrl: ads.imageUrl }).from(ads).where(eq(ads.type, type));
  return new Map(rows.map((row) => [row.id, row.imageUrl]));
}

/**
 * Why a bulk save was refused: ids that are no ad of the type, an imageUrl that is no stored upload
 * for it, or edits made on an older version of the ads they change (another admin saved since).
 */
export type SaveAdsRefusal =
  | { refused: 'unknown-ad'; ids: number[] }
  | { refused: 'unknown-image'; id: number }
  | { refused: 'stale'; ids: number[] };

/**
 * docs/product.md §7 PUT /api/{type}/ads/bulk: saves the edited fields of the listed ads and makes the list's
 * order theirs (ads left out follow, in their order), in one transaction that locks the type's ads.
 * Each changed ad is audited as 'edit' and a changed order as 'reorder' by `actor`. A new imageUrl
 * must be a stored upload for `type` (the caller sniffs direct-to-store uploads first). An edit that
 * names its version (AdEdit.version) and changes an ad whose version is another now is refused.
 * Each changed ad's version becomes `now` (a millisecond past its last, if need be).
 * @returns how many ads changed and whether the order did, or why nothing was saved.
 */
export async function saveAds(
  db: Db,
  type: AdType,
  edits: AdEdit[],
  actor: string,
  now: Date,
): Promise<{ edited: number; reordered: boolean } | SaveAdsRefusal> {
  return db.transaction(async (tx) => {
    const current = await tx
      .select()
      .from(ads)
      .where(eq(ads.type, type))
      .orderBy(asc(ads.position), asc(ads.id))
      .for('update');
    const byId = new Map(current.map((ad) => [ad.id, ad]));
    const unknown = edits.filter((edit) => !byId.has(edit.id)).map((edit) => edit.id);
    if (unknown.length > 0) return { refused: 'unknown-ad', ids: unknown };
    const changed = edits.filter((edit) => {
      const ad = byId.get(edit.id)!;
      return ad.title !== edit.title || ad.redirectUrl !== edit.redirectUrl || ad.imageUrl !== edit.imageUrl;
    });
    const stale = changed.filter((edit) => edit.version && edit.version !== byId.get(edit.id)!.updatedAt.toISOString());
    if (stale.length > 0) return { refused: 'stale', ids: stale.map((edit) => edit.id) };
    for (const edit of changed) {
      if (edit.imageUrl === byId.get(edit.id)!.imageUrl || edit.imageUrl === null) continue;
      const [image] = await tx
        .select({ key: imageUploads.key })
        .from(imageUploads)
        .where(
          and(
            eq(imageUploads.imageUrl, edit.imageUrl),
            eq(imageUploads.adType, type),
            eq(imageUploads.status, 'stored'),
          ),
        )
        .for('update');
      if (!image) return { refused: 'unknown-image', id: edit.id };
    }
    for (const edit of changed) {
      const ad = byId.get(edit.id)!;
      const fields = { title: edit.title, redirectUrl: edit.redirectUrl, imageUrl: edit.imageUrl };
      const changedAt = ad.updatedAt.getTime() >= now.getTime() ? new Date(ad.updatedAt.getTime() + 1) : now;
      await tx
        .update(ads)
        .set({ ...fields, updatedAt: changedAt })
        .where(eq(ads.id, edit.id));
      const before = { title: ad.title, redirectUrl: ad.redirectUrl, imageUrl: ad.imageUrl };
      await recordAudit(tx, { actor, action: 'edit', target: `ad:${type}:${ad.id}`, before, after: fields }, now);
    }
    const listed = new Set(edits.map((edit) => edit.id));
    const order = [...edits.map((edit) => edit.id), ...current.filter((ad) => !listed.has(ad.id)).map((ad) => ad.id)];
    const before = current.map((ad) => ad.id);
    const reordered = order.some((id, index) => id !== before[index]);
    if (reordered) {
      for (const [position, id] of order.entries()) {
        if (byId.get(id)!.position !== position) await tx.update(ads).set({ position }).where(eq(ads.id, id));
      }
      await recordAudit(tx, { actor, action: 'reorder', target: `ads:${type}`, before, after: order }, now);
    }
    return { edited: changed.length, reordered };
  });
}

/**
 * docs/product.md §7 DELETE /api/{type}/ads/{id}: deletes the ad (its counters go with it), audited as
 * 'delete' with the ad as it was. An ad approved from an application leaves on it when it was taken
 * down, its period and its last counters (AdTakenDown), which the applicant's status page shows. Its image is then unreferenced unless its request still holds it,
 * and the orphan cleanup removes it.
 * @returns false when there is no such ad of `type`.
 */
export async function deleteAd(db: Db, type: AdType, id: number, actor: string, now: Date): Promise<boolean> {
  if (!isSerialId(id)) return false;
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(ads)
      .where(and(eq(ads.id, id), eq(ads.type, type)))
      .for('update');
    if (!found) return false;
    if (found.applicationId !== null) {
      // Its applicant's status page keeps saying what ran, and that it was taken down (before the counters go).
      const takenDown: AdTakenDown = {
        at: now.toISOString(),
        period: { startsAt: found.startsAt.toISOString(), endsAt: found.endsAt.toISOString() },
        counts: found.startsAt.getTime() <= now.getTime() ? await recentCounts(tx, found.id, now) : null,
      };
      await tx.update(adApplications).set({ adTakenDown: takenDown }).where(eq(adApplications.id, found.applicationId));
    }
    const [ad] = await tx.delete(ads).where(eq(ads.id, id)).returning();
    await recordAudit(tx, { actor, action: 'delete', target: `ad:${type}:${id}`, before: ad }, now);
    return true;
  });
}
