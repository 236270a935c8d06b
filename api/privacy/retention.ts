/**
 * Retention of personal data (docs/product.md §2.9 Privacy policy, §9: the periods the policy states
 * are enforced, not only stated), with the periods of contract/privacy.ts RETENTION_YEARS:
 * inquiries are deleted once older than 1 year, ad applications (ad_requests: name, phone, e-mail)
 * once older than 3 years together with their images, or once UNPAID_APPLICATION_DAYS (30) old
 * while still unpaid (pending; ADR 027), the uploaders' pseudonyms of the images issued that long ago
 * are blanked, and the client IP address the audit log keeps with each admin sign-in attempt is
 * blanked once older than 1 year. A folder of its own
 * (api/privacy/) because the rule spans resources (inquiries, ads, the audit log) and belongs to
 * the privacy policy, not to any of them; the images' rule (application-images.ts) also serves
 * the admins' deletion on request.
 *
 * An expired application's image is kept only while an ad still showing or scheduled uses it; it
 * then stays with that ad, which an admin manages, and goes when the admin deletes the ad (the
 * orphan cleanup, api/ads/images.ts removeOrphanImages). Ads whose period has ended lose it. The
 * managed ad itself stays; its link to the deleted application becomes null (ads.request_id ON
 * DELETE SET NULL).
 */
import { and, eq, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import {
  MAIL_RETENTION_DAYS,
  RETENTION_YEARS,
  SUBSCRIPTION_SWEEP_HOURS,
  UNPAID_APPLICATION_DAYS,
} from '../../contract/privacy';
import type { BusFeed } from '../bus/feed/service';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { adApplications, auditLog, imageUploads, inquiries, pushSubscriptions, reminders } from '../db/schema';
import type { Logger } from '../logger';
import type { ObjectStore } from '../storage/types';
import { kstWallClock } from '../../contract/kst';
import { purgeOldMail } from '../mail/outbox';
import { eraseApplicationImages } from './application-images';

/**
 * The oldest instant a record received `years` calendar years before `now` may carry and still be
 * kept: the same KST wall-clock time `years` years earlier (29 Feb falls back to 28 Feb). A record
 * created strictly before it is past retention.
 * E.g. now 2026-11-23 10:00 KST, 1 year → 2025-11-23 10:00 KST.
 */
export function retentionCutoff(now: Date, years: number): Date {
  const { year, month, day } = kstWallClock(now);
  const lastDay = new Date(Date.UTC(year - years, month, 0)).getUTCDate();
  // KST keeps one offset: the wall clock moves back by as many days as the calendar date does.
  return new Date(
    now.getTime() - (Date.UTC(year, month - 1, day) - Date.UTC(year - years, month - 1, Math.min(day, lastDay))),
  );
}

/**
 * The oldest instant an unpaid application may carry and still be kept: UNPAID_APPLICATION_DAYS
 * whole days (of 24 hours) before `now`. One created strictly before it is deleted.
 */
export function unpaidCutoff(now: Date): Date {
  return new Date(now.getTime() - UNPAID_APPLICATION_DAYS * 86_400_000);
}

/** What one retention run removed (counts only: the log never carries personal data). */
export type RetentionReport = {
  inquiries: number;
  /** Ad applications older than RETENTION_YEARS.adApplication. */
  adApplications: number;
  /** Ad applications still pending (unpaid) UNPAID_APPLICATION_DAYS after their submission. */
  unpaidAdApplications: number;
  /** Images of the deleted applications removed from the object store with their image_uploads rows. */
  images: number;
  /** Images of the deleted applications kept because a showing or scheduled ad, or a newer application, uses them. */
  imagesKept: number;
  /** Ads whose period had ended that lost a deleted image (imageUrl set to null). */
  endedAdsUnlinked: number;
  /** Image uploads issued over UNPAID_APPLICATION_DAYS ago whose uploader pseudonyms were blanked. */
  uploaderMarks: number;
  /** Audit entries (admin sign-in attempts) whose client IP was blanked. */
  signInIps: number;
  /** E-mails delivered, or failed, over MAIL_RETENTION_DAYS ago, deleted from the outbox. */
  mail: number;
  /** Push subscriptions given over SUBSCRIPTION_SWEEP_HOURS ago, or with no pending reminder, deleted with their reminders. */
  pushSubscriptions: number;
};

/**
 * Removes, as of `now` (retentionCutoff of each RETENTION_YEARS period):
 * - the inquiries older than RETENTION_YEARS.inquiry;
 * - the ad applications still pending (unpaid: an admin approves one once its deposit is found)
 *   older than UNPAID_APPLICATION_DAYS (unpaidCutoff), and those older than
 *   RETENTION_YEARS.adApplication, then their images by the rule of eraseApplicationImages (kept
 *   only while a showing or scheduled ad or a newer application uses them);
 * - the uploader pseudonyms (image_uploads.uploader, uploader_network) of the images issued before
 *   unpaidCutoff: no client's room counts them any more (api/ads/images.ts heldBy);
 * - the client IP of the audit entries older than RETENTION_YEARS.adminSignInIp: the `client` key of
 *   `after` (api/admin/accounts.ts signIn) becomes JSON null, the rest of the entry stays;
 * - the e-mails delivered, or failed, over MAIL_RETENTION_DAYS (30) days ago (purgeOldMail);
 * - the push subscriptions given over SUBSCRIPTION_SWEEP_HOURS ago (none outlives
 *   PUSH_SUBSCRIPTION_MAX_HOURS), or with no pending reminder left, with their reminders.
 * Idempotent: a run that fails halfway is finished by the next one, and an image left behind is an
 * orphan that removeOrphanImages deletes.
 * @throws what the database or the object store throws.
 */
export async function removeExpiredRecords(db: Db, store: ObjectStore, now: Date): Promise<RetentionReport> {
  const deletedInquiries = await db
    .delete(inquiries)
    .where(lt(inquiries.createdAt, retentionCutoff(now, RETENTION_YEARS.inquiry)))
    .returning({ id: inquiries.id });
  const deletedUnpaid = await db
    .delete(adApplications)
    .where(
      and(
        eq(adApplications.status, 'pending'),
        eq(adApplications.confirmed, false),
        lt(adApplications.createdAt, unpaidCutoff(now)),
      ),
    )
    .returning({ imageUrl: adApplications.imageUrl });
  const deletedApplications = await db
    .delete(adApplications)
    .where(lt(adApplications.createdAt, retentionCutoff(now, RETENTION_YEARS.adApplication)))
    .returning({ imageUrl: adApplications.imageUrl });
  const images = await eraseApplicationImages(
    db,
    store,
    [...deletedUnpaid, ...deletedApplications].map((application) => application.imageUrl),
    now,
  );
  const unmarked = await db
    .update(imageUploads)
    .set({ uploader: null, uploaderNetwork: null })
    .where(
      and(
        lt(imageUploads.issuedAt, unpaidCutoff(now)),
        or(isNotNull(imageUploads.uploader), isNotNull(imageUploads.uploaderNetwork)),
      ),
    )
    .returning({ key: imageUploads.key });
  // NOTE: `->>` is SQL null both without the key and for a JSON null, so a blanked entry is not counted again.
  const blanked = await db
    .update(auditLog)
    .set({ after: sql`jsonb_set(${auditLog.after}, '{client}', 'null'::jsonb)` })
    .where(
      and(
        lt(auditLog.at, retentionCutoff(now, RETENTION_YEARS.adminSignInIp)),
        sql`${auditLog.after} ->> 'client' is not null`,
      ),
    )
    .returning({ id: auditLog.id });
  const pending = db
    .select({ id: reminders.id })
    .from(reminders)
    .where(and(eq(reminders.subscriptionId, pushSubscriptions.id), isNull(reminders.sentAt)));
  const deletedSubscriptions = await db
    .delete(pushSubscriptions)
    .where(
      or(
        lt(pushSubscriptions.createdAt, new Date(now.getTime() - SUBSCRIPTION_SWEEP_HOURS * 3_600_000)),
        notExists(pending),
      ),
    )
    .returning({ id: pushSubscriptions.id });
  return {
    inquiries: deletedInquiries.length,
    adApplications: deletedApplications.length,
    unpaidAdApplications: deletedUnpaid.length,
    images: images.deleted,
    imagesKept: images.kept,
    endedAdsUnlinked: images.endedAdsUnlinked,
    uploaderMarks: unmarked.length,
    signInIps: blanked.length,
    mail: await purgeOldMail(db, now),
    pushSubscriptions: deletedSubscriptions.length,
  };
}

/**
 * One scheduled run (api/runtime.ts: a minute after start, then hourly): only in the instance that
 * holds the poller lease (`feed.role()` is 'leader'), so several api instances on one database do
 * not run it at once; a follower does nothing. Logs the counts when anything was removed.
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
  const { inquiries, adApplications, unpaidAdApplications, uploaderMarks, signInIps, mail, pushSubscriptions } = report;
  if (inquiries + adApplications + unpaidAdApplications + uploaderMarks + signInIps + mail + pushSubscriptions > 0) {
    deps.logger.info(
      `[retention] deleted ${report.inquiries} inquiries older than ${RETENTION_YEARS.inquiry} year, ` +
        `${report.adApplications} ad applications older than ${RETENTION_YEARS.adApplication} years and ` +
        `${report.unpaidAdApplications} unpaid ones older than ${UNPAID_APPLICATION_DAYS} days with ` +
        `${report.images} images (${report.imagesKept} kept: used by a showing or scheduled ad or a newer ` +
        `application; ${report.endedAdsUnlinked} ended ads lost their image); blanked the uploader of ` +
        `${report.uploaderMarks} images issued over ${UNPAID_APPLICATION_DAYS} days ago and the client IP of ` +
        `${report.signInIps} admin sign-in entries older than ${RETENTION_YEARS.adminSignInIp} year; ` +
        `deleted ${report.mail} e-mails sent or failed over ${MAIL_RETENTION_DAYS} days ago and ` +
        `${report.pushSubscriptions} push subscriptions with no pending reminder or given over ${SUBSCRIPTION_SWEEP_HOURS} hours ago.`,
    );
  }
  return report;
}
