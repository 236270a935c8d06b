/**
 * Ad applications (docs/product.md §3, §4, §9): submitting one, approving it into an ad with
 * a paid period, rejecting it, the admins' list and detail of the applications, and the deletion of an
 * application on its applicant's request. The admins' routes (api/routes/ad-review.ts) call these.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/hash';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { AD_MONTH_DAYS, type AdApplicationSchema, type AdApplicationSummary, type AdType } from '../../contract/ads';
import { adApplicationTarget, recordAudit } from '../admin/audit';
import type { Db } from '../db/client';
import { isSerialId } from '../db/serial-id';
import { adApplications, adStatusTokens, ads, imageUploads } from '../db/schema';
import { forgetMailAbout, type MailOutbox } from '../mail/outbox';
import type { AdRow } from './managed';

type AdApplicationRow = typeof adApplications.$inferSelect;
/** A validated application (contract AdApplicationSchema's output). */
type ValidApplication = z.output<typeof AdApplicationSchema>;

/**
 * The paid period of an ad approved at `startsAt` for `durationMonths` months: docs/product.md §9, one month
 * is AD_MONTH_DAYS (30) days, so it ends durationMonths × 30 × 24 h later (instants; exclusive end).
 */
export function paidPeriod(startsAt: Date, durationMonths: number): { startsAt: Date; endsAt: Date } {
  return { startsAt, endsAt: new Date(startsAt.getTime() + durationMonths * AD_MONTH_DAYS * 86_400_000) };
}

/**
 * Issues a new status page token of application `applicationId` (32 random bytes, base64url; only its
 * SHA-256 is stored), in the caller's transaction.
 * @returns the token, for the link /ads/status/{token}.
 */
export async function issueStatusToken(tx: Pick<Db, 'insert'>, applicationId: number, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(adStatusTokens).values({ tokenHash: sha256Hex(token), applicationId, createdAt: now });
  return token;
}

/**
 * Stores an application as pending with `confirmed` false (docs/product.md §3), in one transaction
 * that also locks its image's record, so the orphan cleanup cannot remove the image under it. The
 * caller has confirmed the image first (images.ts confirmStoredImage). The application gets its status
 * page's token (issueStatusToken); the same transaction queues the applicant's receipt and the
 * admins' notice in `mail` (api/mail/outbox.ts).
 * @returns the new application's id, its status token and whether the receipt was queued (`emailed`),
 *   or null when the image is no longer stored.
 */
export async function createAdApplication(
  db: Db,
  application: ValidApplication,
  now: Date,
  mail: MailOutbox,
): Promise<{ id: number; statusToken: string; emailed: boolean } | null> {
  const created = await db.transaction(async (tx) => {
    const [image] = await tx
      .select({ key: imageUploads.key })
      .from(imageUploads)
      .where(and(eq(imageUploads.imageUrl, application.imageUrl), eq(imageUploads.status, 'stored')))
      .for('update');
    if (!image) return null;
    const [row] = await tx
      .insert(adApplications)
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
        locale: application.locale,
        lang: application.lang,
      })
      .returning({ id: adApplications.id });
    const statusToken = await issueStatusToken(tx, row.id, now);
    const about = { id: row.id, type: application.type, title: application.title, duration: application.duration };
    const { applicantName, locale } = application;
    const emailed = await mail.queue(
      tx,
      { kind: 'application-received', application: about, applicantName, statusToken, locale },
      application.applicantEmail,
      now,
    );
    await mail.queue(tx, { kind: 'application-admin', application: about, applicantName }, 'admins', now);
    return { id: row.id, statusToken, emailed };
  });
  if (created) mail.kick();
  return created;
}

/** A decision as its e-mail tells it. */
type Decision = { kind: 'approved'; startsAt: Date; endsAt: Date } | { kind: 'rejected'; reason: string | null };

/**
 * Queues the e-mail of a decision on `application` to its applicant in `tx`, with a fresh status link
 * (issueStatusToken: the stored hashes cannot give back the token the applicant got first), in the
 * language of the page it was sent from (docs/product.md §1 Languages). Nothing when `mail` is off.
 */
async function queueDecision(
  tx: Pick<Db, 'insert'>,
  mail: MailOutbox,
  application: AdApplicationRow,
  decision: Decision,
  now: Date,
) {
  if (!mail.enabled) return;
  const statusToken = await issueStatusToken(tx, application.id, now);
  const { id, type, title, duration, locale } = application;
  await mail.queue(
    tx,
    { ...decision, application: { id, type, title, duration }, statusToken, locale },
    application.applicantEmail,
    now,
  );
}

/**
 * Approves the pending application `id` of `type` (docs/product.md §4.5 Admin request detail): marks it approved and
 * creates its ad (in the language the advertiser wrote it in, `lang`), last in the type's order, paid from `now` for its duration (paidPeriod), audited
 * as 'approve' by `actor`, with the applicant's e-mail queued in `mail`. One transaction; an application
 * that is missing, of another type or already decided changes nothing.
 * @returns the new ad, or null when nothing was approved.
 */
export async function approveApplication(
  db: Db,
  type: AdType,
  id: number,
  actor: string,
  now: Date,
  mail: MailOutbox,
): Promise<AdRow | null> {
  if (!isSerialId(id)) return null;
  const approved = await db.transaction(async (tx) => {
    const [application] = await tx
      .update(adApplications)
      .set({ status: 'approved', confirmed: true, decidedAt: now })
      .where(and(eq(adApplications.id, id), eq(adApplications.type, type), eq(adApplications.status, 'pending')))
      .returning();
    if (!application) return null;
    const [{ last }] = await tx
      .select({ last: sql<number | null>`max(${ads.position})` })
      .from(ads)
      .where(eq(ads.type, type));
    const [ad] = await tx
      .insert(ads)
      .values({
        type,
        title: application.title,
        redirectUrl: application.redirectUrl,
        imageUrl: application.imageUrl,
        content: application.content,
        lang: application.lang,
        position: (last ?? -1) + 1,
        ...paidPeriod(now, application.duration),
        applicationId: application.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(
      tx,
      {
        actor,
        action: 'approve',
        target: adApplicationTarget(type, id),
        before: { status: 'pending' },
        after: { status: 'approved', adId: ad.id, startsAt: ad.startsAt, endsAt: ad.endsAt, position: ad.position },
      },
      now,
    );
    await queueDecision(tx, mail, application, { kind: 'approved', startsAt: ad.startsAt, endsAt: ad.endsAt }, now);
    return ad;
  });
  if (approved) mail.kick();
  return approved;
}

/**
 * Rejects the pending application `id` of `type` (docs/product.md §4) for `reason` (already validated:
 * contract RejectRequestSchema; null when none was given), audited as 'reject' by `actor` with the
 * reason, and the applicant's e-mail queued in `mail`. One transaction.
 * @returns false when it is missing, of another type or already decided.
 */
export async function rejectApplication(
  db: Db,
  type: AdType,
  id: number,
  reason: string | null,
  actor: string,
  now: Date,
  mail: MailOutbox,
): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const rejected = await db.transaction(async (tx) => {
    const [application] = await tx
      .update(adApplications)
      .set({ status: 'rejected', decidedAt: now, rejectReason: reason })
      .where(and(eq(adApplications.id, id), eq(adApplications.type, type), eq(adApplications.status, 'pending')))
      .returning();
    if (!application) return false;
    const change = { before: { status: 'pending' }, after: { status: 'rejected', reason } };
    await recordAudit(tx, { actor, action: 'reject', target: adApplicationTarget(type, id), ...change }, now);
    await queueDecision(tx, mail, application, { kind: 'rejected', reason }, now);
    return true;
  });
  if (rejected) mail.kick();
  return rejected;
}

/** The applications of `type`, newest first, with their status (docs/product.md §2.10.1 Admin request list: id and title). */
export async function listApplications(db: Db, type: AdType): Promise<AdApplicationSummary[]> {
  const rows = await db
    .select({
      id: adApplications.id,
      title: adApplications.title,
      status: adApplications.status,
      createdAt: adApplications.createdAt,
    })
    .from(adApplications)
    .where(eq(adApplications.type, type))
    .orderBy(desc(adApplications.createdAt), desc(adApplications.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Application `id` of `type` whatever its status, or null (docs/product.md §2.10.2 Admin request detail). */
export async function getApplication(db: Db, type: AdType, id: number): Promise<AdApplicationRow | null> {
  if (!isSerialId(id)) return null;
  const [application] = await db
    .select()
    .from(adApplications)
    .where(and(eq(adApplications.id, id), eq(adApplications.type, type)));
  return application ?? null;
}

/**
 * Deletes application `id` of `type` whatever its status (the privacy policy's deletion on
 * request, 제7조), audited as 'delete' by `actor` in the same transaction, with its e-mails (forgetMailAbout). The audit entry keeps only
 * the application's status and submission time, never the applicant's data being erased. An ad
 * approved from it stays (ads.request_id becomes null). The caller then applies the images' rule
 * (api/privacy/application-images.ts eraseApplicationImages) to the returned imageUrl.
 * @returns the deleted application's imageUrl, or null when there is no such application of `type`.
 */
export async function deleteAdApplication(
  db: Db,
  type: AdType,
  id: number,
  actor: string,
  now: Date,
): Promise<string | null> {
  if (!isSerialId(id)) return null;
  return db.transaction(async (tx) => {
    const [application] = await tx
      .delete(adApplications)
      .where(and(eq(adApplications.id, id), eq(adApplications.type, type)))
      .returning({
        imageUrl: adApplications.imageUrl,
        status: adApplications.status,
        createdAt: adApplications.createdAt,
      });
    if (!application) return null;
    const before = { status: application.status, createdAt: application.createdAt };
    await recordAudit(tx, { actor, action: 'delete', target: adApplicationTarget(type, id), before }, now);
    await forgetMailAbout(tx, adApplicationTarget(type, id));
    return application.imageUrl;
  });
}
