/**
 * The audit log of admin actions (docs/product.md §6, §11): who did what, when, on what, with the
 * state before and after. Written in the same transaction as the change it records, so neither
 * exists without the other.
 */
import type { AdType } from '../../contract/ads';
import { desc } from 'drizzle-orm';
import type { AuditAction, AuditEntry } from '../../contract/admin';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

/** A database or an open transaction: anything drizzle can insert with. */
/**
 * The audit log's name of an ad application, "ad-request:web:7": also what its e-mails are about
 * (mail_outbox.about), so that deleting the application finds them. The text stays `ad-request:…`, as
 * the stored audit entries and e-mails name it.
 */
export const adApplicationTarget = (type: AdType, id: number) => `ad-request:${type}:${id}`;

/** The audit log's name of an inquiry, "inquiry:3", and what its e-mails are about. */
export const inquiryTarget = (id: number) => `inquiry:${id}`;

export type Writer = Pick<Db, 'insert'>;

/** One audit entry; `before` and `after` are JSON (null when there is nothing on that side). */
export type AuditRecord = {
  actor: string;
  action: AuditAction;
  target: string;
  before?: unknown;
  after?: unknown;
};

/** Appends one entry at `now`. @throws what the database throws (the caller's transaction rolls back). */
export async function recordAudit(db: Writer, record: AuditRecord, now: Date): Promise<void> {
  await db.insert(auditLog).values({
    at: now,
    actor: record.actor,
    action: record.action,
    target: record.target,
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

/** The latest `limit` entries, newest first. */
export async function listAudit(db: Db, limit: number): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
  return rows.map((row) => ({ ...row, at: row.at.toISOString(), before: row.before, after: row.after }));
}
