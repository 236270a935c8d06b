/**
 * Ad requests and managed ads (spec §3, §4, §9): submitting an application, approving it into an
 * ad with a paid period, rejecting it, the ads served now in the admins' order, and their daily
 * impression and click counters. The admin issue's routes call approveRequest / rejectRequest.
 */
import { and, asc, desc, eq, getTableColumns, gt, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  AD_MONTH_DAYS,
  type AdApplicationSchema,
  type AdEdit,
  type AdRequestSummary,
  type AdType,
} from '../../contract/ads';
import { recordAudit } from '../admin/audit';
import type { Db } from '../db/client';
import { isSerialId } from '../db/serial-id';
import { adDailyCounts, adRequests, ads, imageUploads } from '../db/schema';
import { kstDateKey } from '../time';
import { isHttpUrl } from '../../contract/helpers';

type AdRequestRow = typeof adRequests.$inferSelect;
export type AdRow = typeof ads.$inferSelect;
/** A validated application (contract AdApplicationSchema's output). */
type ValidApplication = z.output<typeof AdApplicationSchema>;

/**
 * The paid period of an ad approved at `startsAt` for `durationMonths` months: spec §9, one month
 * is AD_MONTH_DAYS (30) days, so it ends durationMonths × 30 × 24 h later (instants; exclusive end).
 */
export function paidPeriod(startsAt: Date, durationMonths: number): { startsAt: Date; endsAt: Date } {
  return { startsAt, endsAt: new Date(startsAt.getTime() + durationMonths * AD_MONTH_DAYS * 86_400_000) };
}

/**
 * Stores an application as a pending request with `confirmed` false (spec §3), in one transaction
 * that also locks its image's record, so the orphan cleanup cannot remove the image under it. The
 * caller has confirmed the image first (images.ts confirmStoredImage).
 * @returns the new request's id, or null when the image is no longer stored.
 */
export async function createAdRequest(db: Db, application: ValidApplication, now: Date): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [image] = await tx
      .select({ key: imageUploads.key })
      .from(imageUploads)
      .where(and(eq(imageUploads.imageUrl, application.imageUrl), eq(imageUploads.status, 'stored')))
      .for('update');
    if (!image) return null;
    const [row] = await tx
      .insert(adRequests)
      .values({
        type: application.type,
        title: application.title,
        applicantName: application.applicantName,
        applicantPhone: application.applicantPhone,
        applicantEmail: application.applicantEmail,
        redirectUrl: application.redirectUrl ?? null,
        imageUrl: application.imageUrl,
        contentForManager: application.contentForManager ?? null,
        content: application.type === 'kakao' ? (application.content ?? null) : null,
        duration: application.duration,
        confirmed: false,
        status: 'pending',
        createdAt: now,
      })
      .returning({ id: adRequests.id });
    return row.id;
  });
}

/**
 * Approves the pending request `id` of `type` (spec §4 Admin request detail): marks it approved and
 * creates its ad, last in the type's order, paid from `now` for its duration (paidPeriod), audited
 * as 'approve' by `actor`. One transaction; a request that is missing, of another type or already
 * decided changes nothing.
 * @returns the new ad, or null when nothing was approved.
 */
export async function approveRequest(
  db: Db,
  type: AdType,
  id: number,
  actor: string,
  now: Date,
): Promise<AdRow | null> {
  if (!isSerialId(id)) return null;
  return db.transaction(async (tx) => {
    const [request] = await tx
      .update(adRequests)
      .set({ status: 'approved', confirmed: true, decidedAt: now })
      .where(and(eq(adRequests.id, id), eq(adRequests.type, type), eq(adRequests.status, 'pending')))
      .returning();
    if (!request) return null;
    const [{ last }] = await tx
      .select({ last: sql<number | null>`max(${ads.position})` })
      .from(ads)
      .where(eq(ads.type, type));
    const [ad] = await tx
      .insert(ads)
      .values({
        type,
        title: request.title,
        redirectUrl: request.redirectUrl,
        imageUrl: request.imageUrl,
        content: request.content,
        position: (last ?? -1) + 1,
        ...paidPeriod(now, request.duration),
        requestId: request.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(
      tx,
      {
        actor,
        action: 'approve',
        target: `ad-request:${type}:${id}`,
        before: { status: 'pending' },
        after: { status: 'approved', adId: ad.id, startsAt: ad.startsAt, endsAt: ad.endsAt, position: ad.position },
      },
      now,
    );
    return ad;
  });
}

/**
 * Rejects the pending request `id` of `type` (spec §4), audited as 'reject' by `actor`.
 * @returns false when it is missing, of another type or already decided.
 */
export async function rejectRequest(db: Db, type: AdType, id: number, actor: string, now: Date): Promise<boolean> {
  if (!isSerialId(id)) return false;
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(adRequests)
      .set({ status: 'rejected', decidedAt: now })
      .where(and(eq(adRequests.id, id), eq(adRequests.type, type), eq(adRequests.status, 'pending')))
      .returning({ id: adRequests.id });
    if (rows.length === 0) return false;
    const change = { before: { status: 'pending' }, after: { status: 'rejected' } };
    await recordAudit(tx, { actor, action: 'reject', target: `ad-request:${type}:${id}`, ...change }, now);
    return true;
  });
}

/** The ads of `type` inside their paid period at `now`, in the admins' order (position, then id). */
export async function listServedAds(db: Db, type: AdType, now: Date): Promise<AdRow[]> {
  return db
    .select()
    .from(ads)
    .where(and(eq(ads.type, type), lte(ads.startsAt, now), gt(ads.endsAt, now)))
    .orderBy(asc(ads.position), asc(ads.id));
}

/**
 * Counts one impression of ad `id` on the KST day of `now`, if the ad is being served and
 * `mayCount` agrees (api/ads/counted-once.ts: the client's first today, within its address's limit).
 * @param mayCount asked only for a served ad, with the counter, the id and the KST day ("yyyy-MM-dd").
 * @returns false when there is no such ad in its period (nothing counted); true otherwise, counted or not.
 */
export async function recordImpression(db: Db, id: number, now: Date, mayCount: MayCount): Promise<boolean> {
  if (!(await servedAd(db, id, now))) return false;
  const day = kstDateKey(now);
  if (await mayCount('impressions', id, day)) await bump(db, id, day, 'impressions', 1);
  return true;
}

/** The two counters of ad_daily_counts the web reports. */
export type AdCounter = 'impressions' | 'clicks';

/** Whether a served ad's impression or click on KST day `day` ("yyyy-MM-dd") is counted (recordImpression, recordClick). */
export type MayCount = (counter: AdCounter, id: number, day: string) => Promise<boolean>;

/**
 * Adds `count` impressions of ad `id` on KST day `day` ("yyyy-MM-dd"), for a caller that counted
 * them itself (the chatbot's rotation, api/kakao/ads.ts); one upsert. An ad deleted meanwhile
 * counts nothing.
 */
export function addImpressions(db: Db, id: number, day: string, count: number): Promise<void> {
  return bump(db, id, day, 'impressions', count);
}

/**
 * Counts one click of ad `id` on the KST day of `now` when `mayCount` agrees, and returns where it
 * leads either way: the ad's stored redirectUrl, only when it is http(s) and the ad is being
 * served. Nothing else is ever returned, so the click redirect is not an open redirect. The count
 * is best-effort and the link is not: when `mayCount` or the count's write fails (a database that
 * reads but cannot write, a full disk), `onCountFailed` gets the error and the link is returned.
 * @param mayCount asked only for a served ad with a link, with the counter, the id and the KST day.
 * @returns null (nothing counted) for a missing, out-of-period or link-less ad.
 * @throws what reading the ad throws.
 */
export async function recordClick(
  db: Db,
  id: number,
  now: Date,
  mayCount: MayCount,
  onCountFailed: (error: unknown) => void,
): Promise<string | null> {
  const ad = await servedAd(db, id, now);
  if (!ad?.redirectUrl || !isHttpUrl(ad.redirectUrl)) return null;
  const day = kstDateKey(now);
  try {
    if (await mayCount('clicks', id, day)) await bump(db, id, day, 'clicks', 1);
  } catch (error) {
    onCountFailed(error);
  }
  return ad.redirectUrl;
}

/** The requests of `type`, newest first, with their status (spec §2 Admin request list: id and title). */
export async function listRequests(db: Db, type: AdType): Promise<AdRequestSummary[]> {
  const rows = await db
    .select({ id: adRequests.id, title: adRequests.title, status: adRequests.status, createdAt: adRequests.createdAt })
    .from(adRequests)
    .where(eq(adRequests.type, type))
    .orderBy(desc(adRequests.createdAt), desc(adRequests.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Request `id` of `type` whatever its status, or null (spec §2 Admin request detail). */
export async function getRequest(db: Db, type: AdType, id: number): Promise<AdRequestRow | null> {
  if (!isSerialId(id)) return null;
  const [request] = await db
    .select()
    .from(adRequests)
    .where(and(eq(adRequests.id, id), eq(adRequests.type, type)));
  return request ?? null;
}

/** A managed ad with its counters: over all days, and on the KST date of `now`. */
type ManagedAdRow = AdRow & { impressions: number; clicks: number; todayImpressions: number; todayClicks: number };

/**
 * Every ad of `type`, in or out of its period, in the admins' order, with its impressions and
 * clicks over all days and today (the KST date of `now`) (spec §2 Ad edit page).
 */
export async function listManagedAds(db: Db, type: AdType, now: Date): Promise<ManagedAdRow[]> {
  const today = kstDateKey(now);
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

/** Impressions and clicks of ad `id` per KST day, oldest first. */
export async function adCounts(db: Db, id: number) {
  return db
    .select({ day: adDailyCounts.day, impressions: adDailyCounts.impressions, clicks: adDailyCounts.clicks })
    .from(adDailyCounts)
    .where(eq(adDailyCounts.adId, id))
    .orderBy(asc(adDailyCounts.day));
}

/** The imageUrl of each ad of `type`, by id (what a bulk save compares new images with). */
export async function adImageUrls(db: Db, type: AdType): Promise<Map<number, string | null>> {
  const rows = await db.select({ id: ads.id, imageUrl: ads.imageUrl }).from(ads).where(eq(ads.type, type));
  return new Map(rows.map((row) => [row.id, row.imageUrl]));
}

/** Why a bulk save was refused: ids that are no ad of the type, or an imageUrl that is no stored upload for it. */
export type SaveAdsRefusal = { refused: 'unknown-ad'; ids: number[] } | { refused: 'unknown-image'; id: number };

/**
 * Spec §7 PUT /api/{type}/ads/bulk: saves the edited fields of the listed ads and makes the list's
 * order theirs (ads left out follow, in their order), in one transaction that locks the type's ads.
 * Each changed ad is audited as 'edit' and a changed order as 'reorder' by `actor`. A new imageUrl
 * must be a stored upload for `type` (the caller sniffs direct-to-store uploads first).
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
      await tx
        .update(ads)
        .set({ ...fields, updatedAt: now })
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
 * Spec §7 DELETE /api/{type}/ads/{id}: deletes the ad (its counters go with it), audited as
 * 'delete' with the ad as it was. Its image is then unreferenced unless its request still holds it,
 * and the orphan cleanup removes it.
 * @returns false when there is no such ad of `type`.
 */
export async function deleteAd(db: Db, type: AdType, id: number, actor: string, now: Date): Promise<boolean> {
  if (!isSerialId(id)) return false;
  return db.transaction(async (tx) => {
    const [ad] = await tx
      .delete(ads)
      .where(and(eq(ads.id, id), eq(ads.type, type)))
      .returning();
    if (!ad) return false;
    await recordAudit(tx, { actor, action: 'delete', target: `ad:${type}:${id}`, before: ad }, now);
    return true;
  });
}

/**
 * Deletes request `id` of `type` whatever its status (issue 8: the privacy policy's deletion on
 * request, 제7조), audited as 'delete' by `actor` in the same transaction. The audit entry keeps only
 * the request's status and submission time, never the applicant's data being erased. An ad
 * approved from it stays (ads.request_id becomes null). The caller then applies the images' rule
 * (api/privacy/application-images.ts eraseApplicationImages) to the returned imageUrl.
 * @returns the deleted request's imageUrl, or null when there is no such request of `type`.
 */
export async function deleteAdRequest(
  db: Db,
  type: AdType,
  id: number,
  actor: string,
  now: Date,
): Promise<string | null> {
  if (!isSerialId(id)) return null;
  return db.transaction(async (tx) => {
    const [request] = await tx
      .delete(adRequests)
      .where(and(eq(adRequests.id, id), eq(adRequests.type, type)))
      .returning({ imageUrl: adRequests.imageUrl, status: adRequests.status, createdAt: adRequests.createdAt });
    if (!request) return null;
    const before = { status: request.status, createdAt: request.createdAt };
    await recordAudit(tx, { actor, action: 'delete', target: `ad-request:${type}:${id}`, before }, now);
    return request.imageUrl;
  });
}

async function servedAd(db: Db, id: number, now: Date): Promise<AdRow | null> {
  if (!isSerialId(id)) return null;
  const [ad] = await db
    .select()
    .from(ads)
    .where(and(eq(ads.id, id), lte(ads.startsAt, now), gt(ads.endsAt, now)));
  return ad ?? null;
}

/** Adds `by` to one daily counter of ad `id` (one upsert; nothing when the ad no longer exists). */
async function bump(db: Db, id: number, day: string, counter: 'impressions' | 'clicks', by: number): Promise<void> {
  const added = (name: typeof counter) => sql<number>`${name === counter ? by : 0}::integer`.as(name);
  await db
    .insert(adDailyCounts)
    .select(
      db
        .select({
          adId: ads.id,
          day: sql<string>`${day}::text`.as('day'),
          impressions: added('impressions'),
          clicks: added('clicks'),
        })
        .from(ads)
        .where(eq(ads.id, id)),
    )
    .onConflictDoUpdate({
      target: [adDailyCounts.adId, adDailyCounts.day],
      set: { [counter]: sql`${adDailyCounts[counter]} + excluded.${sql.identifier(adDailyCounts[counter].name)}` },
    });
}
