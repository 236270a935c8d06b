/**
 * Whether e-mail is going out (docs/deploy.md §E-mail): the lease holder's sender records each
 * send's outcome in settings 'mail-sending', so that every instance's admin pages and metrics tell
 * an SMTP outage, since when, and what the server last said, not only its log.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { settings } from '../db/schema';

const KEY = 'mail-sending';

const SendingFailureSchema = z.object({
  since: z.string().datetime(),
  lastError: z.string(),
  lastErrorAt: z.string().datetime(),
});
/** Sends failing: since the first failure after the last success (ISO), and the last failure's message and instant. */
export type SendingFailure = z.infer<typeof SendingFailureSchema>;

/** The failure sends are in now, or null while they succeed (or before any send). */
export async function sendingFailure(db: Db): Promise<SendingFailure | null> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  return SendingFailureSchema.safeParse(row?.value).data ?? null;
}

/** Records a failed send at `now` with `message`, keeping when the failing began. */
export async function recordSendFailure(db: Db, message: string, now: Date): Promise<void> {
  const since = (await sendingFailure(db))?.since ?? now.toISOString();
  const value: SendingFailure = { since, lastError: message, lastErrorAt: now.toISOString() };
  await db
    .insert(settings)
    .values({ key: KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
}

/** Records a send that went out: sends no longer fail. */
export async function recordSendSuccess(db: Db): Promise<void> {
  await db.delete(settings).where(eq(settings.key, KEY));
}
