/**
 * Inquiries (docs/product.md §3.8 Inquiry: content and an optional e-mail): stored as /contact sends them
 * through POST /api/inquiries, read by the admins, deleted by an admin on the sender's request
 * (the privacy policy's deletion on request, 제7조), and deleted after a year (api/privacy/retention.ts).
 */
import { desc, eq } from 'drizzle-orm';
import type { Inquiry, InquiryRequest } from '../../contract/inquiries';
import { recordAudit } from '../admin/audit';
import { isSerialId } from '../db/serial-id';
import type { Db } from '../db/client';
import { inquiries } from '../db/schema';

/**
 * Stores an inquiry received at `now`.
 * @param input already validated (contract InquiryRequestSchema: content trimmed, 1–2,000
 *   characters; email absent or an address).
 * @returns the new inquiry's id.
 */
export async function createInquiry(db: Db, input: InquiryRequest, now: Date): Promise<number> {
  const [row] = await db
    .insert(inquiries)
    .values({ content: input.content, email: input.email ?? null, createdAt: now })
    .returning({ id: inquiries.id });
  return row.id;
}

/** The latest `limit` inquiries, newest first. */
export async function listInquiries(db: Db, limit: number): Promise<Inquiry[]> {
  const rows = await db.select().from(inquiries).orderBy(desc(inquiries.createdAt), desc(inquiries.id)).limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/**
 * Deletes inquiry `id` (the privacy policy's deletion on request, 제7조), audited as
 * 'delete' of `inquiry:<id>` by `actor` in the same transaction. The audit entry keeps only when
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
    await recordAudit(tx, { actor, action: 'delete', target: `inquiry:${id}`, before }, now);
    return true;
  });
}
