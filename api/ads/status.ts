/**
 * The applicant's status page of an ad application (GET /api/ads/status/{token}; docs/product.md §11):
 * found by its status token (only the token's SHA-256 is stored, ad_status_tokens),
 * it tells the application's state, the paid period of the ad approved from it, and that ad's daily
 * counters; once an admin deleted that ad, when, with the period and the counters it had then. A
 * deleted or purged application takes its token with it.
 */
import { sha256Hex } from '../../lib/hash';
import { eq } from 'drizzle-orm';
import { AD_STATUS_DAYS, contentLang, type AdDayCount, type AdStatus } from '../../contract/ads';
import type { Db } from '../db/client';
import { adApplications, adStatusTokens, ads } from '../db/schema';
import { addServiceDays } from '../time';
import { formatKstDate } from '../../contract/kst';
import { adCounts } from './counters';

/** A status token as api/ads/applications.ts createAdApplication issues it: 32 bytes, base64url without padding. */
const STATUS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The status of the application whose status token is `token`, as of `now`.
 * @returns null for a token that is malformed (not looked up) or names no stored application.
 */
export async function adStatus(db: Db, token: string, now: Date): Promise<AdStatus | null> {
  if (!STATUS_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ application: adApplications, ad: { id: ads.id, startsAt: ads.startsAt, endsAt: ads.endsAt } })
    .from(adStatusTokens)
    .innerJoin(adApplications, eq(adApplications.id, adStatusTokens.applicationId))
    .leftJoin(ads, eq(ads.applicationId, adApplications.id))
    .where(eq(adStatusTokens.tokenHash, sha256Hex(token)));
  if (!row) return null;
  const { application, ad } = row;
  const running = ad !== null && ad.startsAt.getTime() <= now.getTime();
  const takenDown = ad === null ? application.adTakenDown : null;
  return {
    type: application.type,
    title: application.title,
    appliedAt: application.createdAt.toISOString(),
    duration: application.duration,
    status: application.status,
    rejectReason: application.status === 'rejected' ? application.rejectReason : null,
    period: ad ? { startsAt: ad.startsAt.toISOString(), endsAt: ad.endsAt.toISOString() } : (takenDown?.period ?? null),
    counts: running ? await recentCounts(db, ad.id, now) : (takenDown?.counts ?? null),
    takenDownAt: takenDown?.at ?? null,
    ...contentLang(application.lang),
  };
}

/** Ad `id`'s counters on the last AD_STATUS_DAYS KST days up to the KST day of `now`, zero-filled, oldest first, with their sums. */
export async function recentCounts(db: Db, id: number, now: Date): Promise<NonNullable<AdStatus['counts']>> {
  const today = formatKstDate(now);
  const counted = new Map((await adCounts(db, id)).map((row) => [row.day, row]));
  const days: AdDayCount[] = Array.from({ length: AD_STATUS_DAYS }, (_, index) => {
    const day = addServiceDays(today, index - (AD_STATUS_DAYS - 1));
    const { impressions, clicks } = counted.get(day) ?? { impressions: 0, clicks: 0 };
    return { day, impressions, clicks };
  });
  const sum = (counter: 'impressions' | 'clicks') => days.reduce((total, day) => total + day[counter], 0);
  return { days, impressions: sum('impressions'), clicks: sum('clicks') };
}
