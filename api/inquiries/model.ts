/**
 * Inquiries (docs/product.md §3.8 Inquiry: content and an optional e-mail): stored as /contact sends them
 * through POST /api/inquiries, read by the admins, deleted by an admin on the sender's request
 * (the privacy policy's deletion on request, 제7조), and deleted after a year (api/privacy/retention.ts).
 */
import { desc, eq } from 'drizzle-orm';
import type { Inquiry, InquiryRequest } from '../../contract/inquiries';
import { inquiryTarget, recordAudit } from '../admin/audit';
import { isSerialId } from '../db/serial-id';
import type { Db } from '../db/client';
import { inquiries } from '../db/schema';
import { forgetMailAbout, type MailOutbox } from '../mail/outbox';

/**
 * Stores an inquiry received at `now`, with the admins' notice queued in `mail` in the same transaction.
 * @param input already validated (contract InquiryRequestSchema: content trimmed, 1–2,000
 *   characters; email absent or an address; locale the page's, absent → the table's default 'ko').
 * @returns the new inquiry's id.
 */
export async function createInquiry(db: Db, input: InquiryRequest, now: Date, mail: MailOutbox): Promise<number> {
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(inquiries)
      .values({ content: input.content, email: input.email ?? null, locale: input.locale, createdAt: now })
      .returning({ id: inquiries.id });
    await mail.queue(tx, { kind: 'inquiry-admin', inquiryId: row.id, content: input.content }, 'admins', now);
    return row.id;
  });
  mail.kick();
  return id;
}

/** The latest `limit` inquiries, newest first. */
export async function listInquiries(db: Db, limit: number): Promise<Inquiry[]> {
  const rows = await db.select().from(inquiries).orderBy(desc(inquiries.createdAt), desc(inquiries.id)).limit(limit);
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    repliedAt: row.repliedAt?.toISOString() ?? null,
  }));
}

/** Why a reply was not sent. */
export type ReplyRefusal = 'not-found' | 'no-email' | 'replied' | 'mail-off';

/**
 * Replies to inquiry `id` with `reply` (contract InquiryReplySchema, validated): stores it, marks the
 * inquiry replied to, audits 'reply' by `actor` (the reply's length, not its words) and queues the
 * e-mail to the inquirer, in the language of the page the inquiry was sent from (docs/product.md §1
 * Languages), in one transaction.
 * @returns true, or why not: no such inquiry, no e-mail left with it, replied to already, e-mail off.
 */
export async function replyToInquiry(
  db: Db,
  id: number,
  reply: string,
  actor: string,
  now: Date,
  mail: MailOutbox,
): Promise<true | ReplyRefusal> {
  if (!isSerialId(id)) return 'not-found';
  const outcome = await db.transaction(async (tx): Promise<true | ReplyRefusal> => {
    const [inquiry] = await tx.select().from(inquiries).where(eq(inquiries.id, id)).for('update');
    if (!inquiry) return 'not-found';
    if (!inquiry.email) return 'no-email';
    if (inquiry.repliedAt) return 'replied';
    if (!mail.enabled) return 'mail-off';
    await tx.update(inquiries).set({ reply, repliedAt: now }).where(eq(inquiries.id, id));
    const after = { answered: true, replyLength: reply.length };
    await recordAudit(tx, { actor, action: 'reply', target: inquiryTarget(id), after }, now);
    const letter = {
      kind: 'inquiry-reply',
      inquiryId: id,
      reply,
      content: inquiry.content,
      askedAt: inquiry.createdAt,
      locale: inquiry.locale,
    } as const;
    await mail.queue(tx, letter, inquiry.email, now);
    return true;
  });
  if (outcome === true) mail.kick();
  return outcome;
}

/**
 * Deletes inquiry `id` (the privacy policy's deletion on request, 제7조), audited as
 * 'delete' of `inquiry:<id>` by `actor` in the same transaction, with its e-mails (forgetMailAbout). The audit entry keeps only when
 * the inquiry arrived, never its text or e-mail (what is being erased).
 * @returns false when there is no such inquiry.
 */
export async function deleteInquiry(db: Db, id: number, actor: string, now: Date): Promise<boolean> {
  if (!isSerialId(id)) return false;
  return db.transaction(async (tx) => {
    const [inquiry] = await tx
      .delete(inquiries)
      .where(eq(inquiries.id, id))
      .returning({ createdAt: inquiries.createdAt });
    if (!inquiry) return false;
    const before = { createdAt: inquiry.createdAt };
    await recordAudit(tx, { actor, action: 'delete', target: inquiryTarget(id), before }, now);
    await forgetMailAbout(tx, inquiryTarget(id));
    return true;
  });
}
