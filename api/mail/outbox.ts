/**
 * The e-mail outbox (docs/architecture.md §E-mail): a change that causes an e-mail (an application,
 * an approval, a rejection, an inquiry, a reply) writes its row in its own transaction, so a crash
 * between the change and the send loses nothing and a rolled-back change sends nothing. The sender
 * (sender.ts) delivers the rows; this module holds the rows' life: queued → sent, or retried with
 * backoff for up to MAIL_RETRY_WINDOW_MS (24 h) → failed; failed → queued again by an admin's resend.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, lt, lte, min, ne, or } from 'drizzle-orm';
import type { UndeliveredMail } from '../../contract/admin';
import { MAIL_RETENTION_DAYS } from '../../contract/privacy';
import { recordAudit, type Writer } from '../admin/audit';
import type { Db } from '../db/client';
import { isSerialId } from '../db/serial-id';
import { mailOutbox, type MailStatus } from '../db/schema';
import type { Logger } from '../logger';
import { MAILS_PER_RECIPIENT, spendRecipientMail } from './recipient-limit';
import { renderLetter, type Letter, type LetterSettings } from './messages';

/** How long a row is retried (ms) after it was queued or resent: then it is failed. */
const MAIL_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The first retry's delay (ms); each next one doubles, up to MAIL_RETRY_MAX_DELAY_MS. */
const MAIL_RETRY_FIRST_DELAY_MS = 15_000;
const MAIL_RETRY_MAX_DELAY_MS = 60 * 60 * 1000;

/**
 * The letters counted against their recipient's MAILS_PER_RECIPIENT: those a stranger can have sent
 * to any address by typing it. An admin's decision or reply is sent whatever the count: a stranger
 * typing someone's address into applications must not keep that person's real answers from them.
 */
const RECIPIENT_COUNTED: ReadonlySet<Letter['kind']> = new Set(['application-received']);

/** Who a letter goes to: an address, or ADMIN_NOTIFY_EMAILS (one row each, so each delivery stands alone). */
type Recipient = string | 'admins';

/** What the changes write their e-mails through. */
export type MailOutbox = {
  /** False when the deployment sends no e-mail (SMTP_URL unset): then `queue` writes nothing. */
  readonly enabled: boolean;
  /**
   * Renders `letter` and queues it for `to` in `tx`, the transaction of the change that causes it.
   * A letter anyone can cause (RECIPIENT_COUNTED: the receipt of an application, whose address
   * whoever applies types) spends one of its recipient's e-mails (recipient-limit.ts
   * MAILS_PER_RECIPIENT) in `tx`; past the limit the letter is dropped, logged once, and the change
   * goes on. What an admin causes (a decision, a reply) and the admins' notices are never counted.
   * @returns false when nothing was queued: e-mail is off, `to` is 'admins' and none are set, or
   *   `to` is over its limit.
   */
  queue(tx: Writer, letter: Letter, to: Recipient, now: Date): Promise<boolean>;
  /** Asks the sender for a round soon: call it once the transaction that queued has committed. */
  kick(): void;
};

/** The outbox of a deployment that sends no e-mail. */
export const mailOff: MailOutbox = { enabled: false, queue: async () => false, kick: () => undefined };

/**
 * The outbox of a deployment that sends e-mail.
 * @param settings.messageIdHost the domain of each Message-ID (`<uuid@host>`): MAIL_FROM's.
 * @param settings.kick the sender's (sender.ts MailSender.kick).
 * @param settings.logger where a letter dropped over its recipient's limit is told.
 */
export function createMailOutbox(settings: {
  letters: LetterSettings;
  adminEmails: readonly string[];
  messageIdHost: string;
  kick: () => void;
  logger: Logger;
}): MailOutbox {
  return {
    enabled: true,
    kick: settings.kick,
    queue: async (tx, letter, to, now) => {
      const addresses = to === 'admins' ? settings.adminEmails : [to];
      if (addresses.length === 0) return false;
      const rendered = renderLetter(letter, settings.letters);
      if (to !== 'admins' && RECIPIENT_COUNTED.has(letter.kind)) {
        if (!(await spendRecipientMail(tx, to))) {
          // Not the address (personal data): the record the letter is about leads to it.
          settings.logger.warn(
            `[mail] ${rendered.kind} about ${rendered.about} not queued: its recipient has had ` +
              `${MAILS_PER_RECIPIENT.points} e-mails in 24 hours, the most one address gets.`,
          );
          return false;
        }
      }
      await tx.insert(mailOutbox).values(
        addresses.map((address) => ({
          ...rendered,
          messageId: `<${randomUUID()}@${settings.messageIdHost}>`,
          recipients: [address],
          nextAttemptAt: now,
          expiresAt: new Date(now.getTime() + MAIL_RETRY_WINDOW_MS),
          createdAt: now,
        })),
      );
      return true;
    },
  };
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** The rows due at `now` (pending, their next attempt not later), the oldest first, at most `limit`. */
export function dueMail(db: Db, now: Date, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(limit);
}

/**
 * Claims `row`, as dueMail read it, for a send until `until`: it is not due before then, so no
 * round (of this instance or another) sends it meanwhile; the send's outcome (markSent,
 * markAttemptFailed) ends the claim, and a crash leaves it to run out.
 * @returns false when the row changed since it was read (another round claimed or settled it).
 */
export async function claimMail(db: Db, row: OutboxRow, until: Date): Promise<boolean> {
  const claimed = await db
    .update(mailOutbox)
    .set({ nextAttemptAt: until })
    .where(
      and(
        eq(mailOutbox.id, row.id),
        eq(mailOutbox.status, 'pending'),
        eq(mailOutbox.nextAttemptAt, row.nextAttemptAt),
        eq(mailOutbox.attempts, row.attempts),
      ),
    )
    .returning({ id: mailOutbox.id });
  return claimed.length === 1;
}

/** Row `id` was delivered at `now`. */
export async function markSent(db: Db, row: OutboxRow, now: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: now, attempts: row.attempts + 1, lastError: null })
    .where(eq(mailOutbox.id, row.id));
}

/**
 * Row `id`'s attempt at `now` failed with `error`. A permanent failure (an SMTP 5xx) fails it; a
 * transient one retries after 15 s × 2^(attempts − 1), at most 1 h, until its expiry, when it fails.
 * @returns what became of it.
 */
export async function markAttemptFailed(
  db: Db,
  row: OutboxRow,
  now: Date,
  error: { message: string; permanent: boolean },
): Promise<'retry' | 'failed'> {
  const attempts = row.attempts + 1;
  const delay = Math.min(MAIL_RETRY_FIRST_DELAY_MS * 2 ** (attempts - 1), MAIL_RETRY_MAX_DELAY_MS);
  const nextAttemptAt = new Date(now.getTime() + delay);
  const failed = error.permanent || nextAttemptAt.getTime() > row.expiresAt.getTime();
  await db
    .update(mailOutbox)
    .set({
      attempts,
      lastError: error.permanent || !failed ? error.message : `${error.message} (retried for 24 hours)`,
      ...(failed ? { status: 'failed' as const } : { nextAttemptAt }),
    })
    .where(eq(mailOutbox.id, row.id));
  return failed ? 'failed' : 'retry';
}

/** The most failed rows the admin page lists. */
const UNDELIVERED_PAGE = 100;

/** The failed rows, newest first (at most 100), how many failed in all, and how many wait to be sent. */
export async function undeliveredMail(
  db: Db,
): Promise<{ failed: UndeliveredMail[]; failedCount: number; pending: number }> {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'failed'))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(UNDELIVERED_PAGE);
  const counts = await db
    .select({ status: mailOutbox.status, rows: count() })
    .from(mailOutbox)
    .where(ne(mailOutbox.status, 'sent'))
    .groupBy(mailOutbox.status);
  const countOf = (status: MailStatus) => counts.find((row) => row.status === status)?.rows ?? 0;
  return {
    pending: countOf('pending'),
    failedCount: countOf('failed'),
    failed: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      recipients: row.recipients,
      subject: row.subject,
      messageId: row.messageId,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/** The outbox at a glance, for the metrics (api/metrics.ts): rows per status, and of the pending ones the oldest and those retrying. */
export type OutboxSummary = {
  rows: Record<MailStatus, number>;
  /** When the oldest pending row was queued; null when none waits. */
  oldestPendingAt: Date | null;
  /** Pending rows that failed at least one attempt (the SMTP server down or refusing). */
  retrying: number;
};

/** The outbox's rows per status, its oldest pending row and its retrying ones: two small queries. */
export async function outboxSummary(db: Db): Promise<OutboxSummary> {
  const counts = await db
    .select({ status: mailOutbox.status, rows: count() })
    .from(mailOutbox)
    .groupBy(mailOutbox.status);
  const [pending] = await db
    .select({ oldest: min(mailOutbox.createdAt), retrying: count(mailOutbox.lastError) })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'));
  const countOf = (status: MailStatus) => counts.find((row) => row.status === status)?.rows ?? 0;
  return {
    rows: { pending: countOf('pending'), failed: countOf('failed'), sent: countOf('sent') },
    oldestPendingAt: pending?.oldest ?? null,
    retrying: pending?.retrying ?? 0,
  };
}

/**
 * Queues failed row `id` again at `now`, with the same Message-ID (a receiver can tell it is the
 * same e-mail) and a new 24-hour retry window, audited as 'resend' by `actor`.
 * @returns false when there is no such failed row.
 */
export async function resendMail(db: Db, id: number, actor: string, now: Date): Promise<boolean> {
  if (!isSerialId(id)) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mailOutbox)
      .set({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        expiresAt: new Date(now.getTime() + MAIL_RETRY_WINDOW_MS),
      })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed')))
      .returning({ kind: mailOutbox.kind, messageId: mailOutbox.messageId, lastError: mailOutbox.lastError });
    if (!row) return false;
    await recordAudit(
      tx,
      {
        actor,
        action: 'resend',
        target: `mail:${id}`,
        before: { status: 'failed', lastError: row.lastError },
        after: { status: 'pending', kind: row.kind, messageId: row.messageId },
      },
      now,
    );
    return true;
  });
}

/**
 * Deletes the rows delivered over MAIL_RETENTION_DAYS (30) days before `now`, and those whose
 * retries ended that long ago (failed, or still pending in a deployment that stopped sending):
 * their addresses and words are personal data (the privacy policy's retention).
 * @returns how many were deleted.
 */
export async function purgeOldMail(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - MAIL_RETENTION_DAYS * 86_400_000);
  const deleted = await db
    .delete(mailOutbox)
    .where(
      or(
        and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.sentAt, before)),
        and(ne(mailOutbox.status, 'sent'), lt(mailOutbox.expiresAt, before)),
      ),
    )
    .returning({ id: mailOutbox.id });
  return deleted.length;
}

/**
 * Deletes every e-mail about `about` (an audit target, "ad-request:web:7"), sent or not, in the
 * transaction that deletes that record on its owner's request: none is sent or kept after it.
 */
export async function forgetMailAbout(tx: Pick<Db, 'delete'>, about: string): Promise<void> {
  await tx.delete(mailOutbox).where(eq(mailOutbox.about, about));
}
