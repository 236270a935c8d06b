/**
 * The service-suspension notice (docs/product.md §1, §4): the admins' switch for the home screen's blocking
 * modal, with its title and text. Stored in settings 'service-notice'; until an admin saves it, it is
 * the preset text (contract DEFAULT_SERVICE_NOTICE), on only when the deployment starts with
 * SERVICE_NOTICE=on (the reference had it hard-wired on; here a fresh install shows the buses).
 */
import { eq } from 'drizzle-orm';
import {
  DEFAULT_SERVICE_NOTICE,
  ServiceNoticeSchema,
  type AdminNotice,
  type ServiceNotice,
} from '../../contract/admin';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { recordAudit } from './audit';

const NOTICE_KEY = 'service-notice';

/** The notice now: the stored one, else the preset with `enabledByDefault` (SERVICE_NOTICE). */
export async function getNotice(db: Db, enabledByDefault: boolean): Promise<ServiceNotice> {
  const [row] = await db.select().from(settings).where(eq(settings.key, NOTICE_KEY));
  return ServiceNoticeSchema.safeParse(row?.value).data ?? { ...DEFAULT_SERVICE_NOTICE, enabled: enabledByDefault };
}

/** The notice now with its version (AdminNoticeSchema): its last save's instant, null before any. */
export async function getAdminNotice(db: Db, enabledByDefault: boolean): Promise<AdminNotice> {
  const [row] = await db.select().from(settings).where(eq(settings.key, NOTICE_KEY));
  const notice = ServiceNoticeSchema.safeParse(row?.value).data;
  return notice
    ? { ...notice, version: row.updatedAt.toISOString() }
    : { ...DEFAULT_SERVICE_NOTICE, enabled: enabledByDefault, version: null };
}

/**
 * Saves `notice` (validated by the caller) if it was made on the version saved now
 * (`notice.version`), and audits the change ('notice', before and after) by `actor`. The check and
 * the write are one transaction, the row locked: of two admins saving the same version, one saves
 * and the other is refused.
 * @returns the saved notice with its new version, or 'stale' when another save came first (nothing written).
 */
export async function saveNotice(
  db: Db,
  notice: AdminNotice,
  change: { actor: string; enabledByDefault: boolean },
  now: Date,
): Promise<AdminNotice | 'stale'> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(settings).where(eq(settings.key, NOTICE_KEY)).for('update');
    const stored = row ? row.updatedAt.toISOString() : null;
    if (stored !== notice.version) return 'stale';
    const before = await getNotice(tx, change.enabledByDefault);
    const { version: _, ...value } = notice;
    // A version is a save's instant: two saves within one millisecond still get two.
    const savedAt = row && row.updatedAt.getTime() >= now.getTime() ? new Date(row.updatedAt.getTime() + 1) : now;
    const written = await tx
      .insert(settings)
      .values({ key: NOTICE_KEY, value, updatedAt: savedAt })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: savedAt } })
      .returning({ key: settings.key });
    if (written.length === 0) return 'stale';
    await recordAudit(tx, { actor: change.actor, action: 'notice', target: 'notice', before, after: value }, now);
    return { ...value, version: savedAt.toISOString() };
  });
}
