/**
 * Ad requests (docs/product.md §3, §4, §9): submitting an application, approving it into an ad with
 * a paid period, rejecting it, the admins' list and detail of the requests, and the deletion of a
 * request on its applicant's request. The admins' routes (api/routes/ad-review.ts) call these.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/hash';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { AD_MONTH_DAYS, type AdApplicationSchema, type AdRequestSummary, type AdType } from '../../contract/ads';
import { adRequestTarget, recordAudit } from '../admin/audit';
import type { Db } from '../db/client';
import { isSerialId } from '../db/serial-id';
import { adRequests, adStatusTokens, ads, imageUploads } from '../db/schema';
import { forgetMailAbout, type MailOutbox } from '../mail/outbox';
import type { AdRow } from './managed';

type AdRequestRow = typeof adRequests.$inferSelect;
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
 * Issues a new status page token of request `requestId` (32 random bytes, base64url; only its
 * SHA-256 is stored), in the caller's transaction.
 * @returns the token, for the link /ads/status/{token}.
 */
export async function issueStatusToken(tx: Pick<Db, 'insert'>, requestId: number, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(adStatusTokens).values({ tokenHash: sha256Hex(token), requestId, createdAt: now });
  return token;
}

/**
 * Stores an application as a pending request with `confirmed` false (docs/product.md §3), in one transaction
 * that also locks its image's record, so the orphan cleanup cannot remove the image under it. The
 * caller has confirmed the image first (images.ts confirmStoredImage). The request gets its status
 * page's token (issueStatusToken); the same transaction queues the applicant's receipt and the
 * admins' notice in `mail` (api/mail/outbox.ts).
 * @returns the new request's id, its status token and whether the receipt was queued (`emailed`),
 *   or null when the image is no longer stored.
 */
export async function createAdRequest(
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
    const statusToken = await issueStatusToken(tx, row.id, now);
    const about = { id: row.id, type: application.type, title: application.title, duration: application.duration };
    const { applicantName } = application;
    const emailed = await mail.queue(
      tx,
      { kind: 'application-received', application: about, applicantName, statusToken },
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
 * Queues the e-mail of a decision on `request` to its applicant in `tx`, with a fresh status link
 * (issueStatusToken: the stored hashes cannot give back the token the applicant got first).
 * Nothing when `mail` is off.
 */
async function queueDecision(
  tx: Pick<Db, 'insert'>,
  mail: MailOutbox,
  request: AdRequestRow,
  decision: Decision,
  now: Date,
) {
  if (!mail.enabled) return;
  const statusToken = await issueStatusToken(tx, request.id, now);
  const application = { id: request.id, type: request.type, title: request.title, duration: request.duration };
  await mail.queue(tx, { ...decision, application, statusToken }, request.applicantEmail, now);
}

/**
 * Approves the pending request `id` of `type` (docs/product.md §4.5 Admin request detail): marks it approved and
 * creates its ad, last in the type's order, paid from `now` for its duration (paidPeriod), audited
 * as 'approve' by `actor`, with the applicant's e-mail queued in `mail`. One transaction; a request
 * that is missing, of another type or already decided changes nothing.
 * @returns the new ad, or null when nothing was approved.
 */
export async function approveRequest(
  db: Db,
  type: AdType,
  id: number,
  actor: string,
  now: Date,
  mail: MailOutbox,
): Promise<AdRow | null> {
  if (!isSerialId(id)) return null;
  const approved = await db.transaction(async (tx) => {
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
        target: adRequestTarget(type, id),
        before: { status: 'pending' },
        after: { status: 'approved', adId: ad.id, startsAt: ad.startsAt, endsAt: ad.endsAt, position: ad.position },
      },
      now,
    );
    await queueDecision(tx, mail, request, { kind: 'approved', startsAt: ad.startsAt, endsAt: ad.endsAt }, now);
    return ad;
  });
  if (approved) mail.kick();
  return approved;
}

/**
 * Rejects the pending request `id` of `type` (docs/product.md §4) for `reason` (already validated:
 * contract RejectRequestSchema; null when none was given), audited as 'reject' by `actor` with the
 * reason, and the applicant's e-mail queued in `mail`. One transaction.
 * @returns false when it is missing, of another type or already decided.
 */
export async function rejectRequest(
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
    const [request] = await tx
      .update(adRequests)
      .set({ status: 'rejected', decidedAt: now, rejectReason: reason })
      .where(and(eq(adRequests.id, id), eq(adRequests.type, type), eq(adRequests.status, 'pending')))
      .returning();
    if (!request) return false;
    const change = { before: { status: 'pending' }, after: { status: 'rejected', reason } };
    await recordAudit(tx, { actor, action: 'reject', target: adRequestTarget(type, id), ...change }, now);
    await queueDecision(tx, mail, request, { kind: 'rejected', reason }, now);
    return true;
  });
  if (rejected) mail.kick();
  return rejected;
}

/** The requests of `type`, newest first, with their status (docs/product.md §2.10.1 Admin request list: id and title). */
export async function listRequests(db: Db, type: AdType): Promise<AdRequestSummary[]> {
  const rows = await db
    .select({ id: adRequests.id, title: adRequests.title, status: adRequests.status, createdAt: adRequests.createdAt })
    .from(adRequests)
    .where(eq(adRequests.type, type))
    .orderBy(desc(adRequests.createdAt), desc(adRequests.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Request `id` of `type` whatever its status, or null (docs/product.md §2.10.2 Admin request detail). */
export async function getRequest(db: Db, type: AdType, id: number): Promise<AdRequestRow | null> {
  if (!isSerialId(id)) return null;
  const [request] = await db
    .select()
    .from(adRequests)
    .where(and(eq(adRequests.id, id), eq(adRequests.type, type)));
  return request ?? null;
}

/**
 * Deletes request `id` of `type` whatever its status (the privacy policy's deletion on
 * request, 제7조), audited as 'delete' by `actor` in the same transaction, with its e-mails (forgetMailAbout). The audit entry keeps only
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
    await recordAudit(tx, { actor, action: 'delete', target: adRequestTarget(type, id), before }, now);
    await forgetMailAbout(tx, adRequestTarget(type, id));
    return request.imageUrl;
  });
}
