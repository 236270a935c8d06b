/**
 * Inquiries (spec §3 Inquiry: content and an optional e-mail): stored as /contact sends them
 * through POST /api/inquiries, read by the admins, and deleted after a year (api/privacy/retention.ts).
 */
import { desc } from 'drizzle-orm';
import type { Inquiry, InquiryRequest } from '../../contract/inquiries';
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
