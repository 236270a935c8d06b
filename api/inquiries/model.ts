/** Inquiries (spec §3 Inquiry: content and an optional e-mail), as the admins read them. */
import { desc } from 'drizzle-orm';
import type { Inquiry } from '../../contract/admin';
import type { Db } from '../db/client';
import { inquiries } from '../db/schema';

/** The latest `limit` inquiries, newest first. */
export async function listInquiries(db: Db, limit: number): Promise<Inquiry[]> {
  const rows = await db.select().from(inquiries).orderBy(desc(inquiries.createdAt), desc(inquiries.id)).limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
