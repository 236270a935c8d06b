/**
 * The service-suspension notice (docs/product.md §1, §4): the admins' switch for the home screen's blocking
 * modal, with its title and text. Stored in settings 'service-notice'; until an admin saves it, it is
 * the preset text (contract DEFAULT_SERVICE_NOTICE), on only when the deployment starts with
 * SERVICE_NOTICE=on (the reference had it hard-wired on; here a fresh install shows the buses).
 */
import { eq } from 'drizzle-orm';
import { DEFAULT_SERVICE_NOTICE, ServiceNoticeSchema, type ServiceNotice } from '../../contract/admin';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { recordAudit } from './audit';

const NOTICE_KEY = 'service-notice';

/** The notice now: the stored one, else the preset with `enabledByDefault` (SERVICE_NOTICE). */
export async function getNotice(db: Db, enabledByDefault: boolean): Promise<ServiceNotice> {
  const [row] = await db.select().from(settings).where(eq(settings.key, NOTICE_KEY));
  return ServiceNoticeSchema.safeParse(row?.value).data ?? { ...DEFAULT_SERVICE_NOTICE, enabled: enabledByDefault };
}

/**
 * Saves `notice` (validated by the caller) and audits the change ('notice', before and after) by `actor`.
 * @returns the saved notice.
 */
export async function saveNotice(
  db: Db,
  notice: ServiceNotice,
  change: { actor: string; enabledByDefault: boolean },
  now: Date,
): Promise<ServiceNotice> {
  return db.transaction(async (tx) => {
    const before = await getNotice(tx, change.enabledByDefault);
    await tx
      .insert(settings)
      .values({ key: NOTICE_KEY, value: notice, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: notice, updatedAt: now } });
    await recordAudit(tx, { actor: change.actor, action: 'notice', target: 'notice', before, after: notice }, now);
    return notice;
  });
}
