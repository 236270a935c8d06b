/**
 * The ads' daily impression and click counters (docs/product.md §3, §7): one row per ad and KST
 * day, counted only while the ad is served, and read back per day for the admins.
 */
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isSerialId } from '../db/serial-id';
import { adDailyCounts, ads } from '../db/schema';
import { formatKstDate } from '../../contract/kst';
import { isHttpUrl } from '../../contract/links';
import type { AdRow } from './managed';

/** The two counters of ad_daily_counts the web reports. */
export type AdCounter = 'impressions' | 'clicks';

/** Whether a served ad's impression or click on KST day `day` ("yyyy-MM-dd") is counted (recordImpression, recordClick). */
export type MayCount = (counter: AdCounter, id: number, day: string) => Promise<boolean>;

/**
 * Counts one impression of ad `id` on the KST day of `now`, if the ad is being served and
 * `mayCount` agrees (api/ads/counted-once.ts: the client's first today, within its address's limit).
 * @param mayCount asked only for a served ad, with the counter, the id and the KST day ("yyyy-MM-dd").
 * @returns false when there is no such ad in its period (nothing counted); true otherwise, counted or not.
 */
export async function recordImpression(db: Db, id: number, now: Date, mayCount: MayCount): Promise<boolean> {
  if (!(await servedAd(db, id, now))) return false;
  const day = formatKstDate(now);
  if (await mayCount('impressions', id, day)) await bump(db, id, day, 'impressions', 1);
  return true;
}

/**
 * Adds `count` impressions of ad `id` on KST day `day` ("yyyy-MM-dd"), for a caller that counted
 * them itself (the chatbot's rotation, api/skill/ads.ts); one upsert. An ad deleted meanwhile
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
  const day = formatKstDate(now);
  try {
    if (await mayCount('clicks', id, day)) await bump(db, id, day, 'clicks', 1);
  } catch (error) {
    onCountFailed(error);
  }
  return ad.redirectUrl;
}

/** Impressions and clicks of ad `id` per KST day, oldest first. */
export async function adCounts(db: Db, id: number) {
  return db
    .select({ day: adDailyCounts.day, impressions: adDailyCounts.impressions, clicks: adDailyCounts.clicks })
    .from(adDailyCounts)
    .where(eq(adDailyCounts.adId, id))
    .orderBy(asc(adDailyCounts.day));
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
