/**
 * E-mail for web tests against the real api in-process (tests/setup/web-api.ts), which app/ tests
 * may not build themselves (app/ never imports api/): an outbox that queues and never sends, rows
 * given up on written straight into mail_outbox, and what the outbox holds.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { createMailOutbox, type MailOutbox } from '../../api/mail/outbox';
import { mailOutbox } from '../../api/db/schema';
import type { WebApi } from './web-api';
import { recordSendFailure, recordSendSuccess } from '../../api/mail/sending-state';

/** E-mail on: each change queues its row in mail_outbox; no sender runs (`kick` does nothing). */
export function queueingMailOutbox(): MailOutbox {
  return createMailOutbox({
    letters: { baseUrl: 'http://localhost', bankAccount: null },
    adminEmails: [],
    messageIdHost: 'bus.example.com',
    kick: () => undefined,
    logger: console,
  });
}

let failedSeq = 0;

/**
 * Writes an e-mail the sender gave up on, queued at `createdAt`, with `fields` over a rejection notice.
 * @returns its id.
 */
export async function insertFailedMail(
  api: WebApi,
  createdAt: Date,
  fields: Partial<
    Pick<typeof mailOutbox.$inferInsert, 'kind' | 'recipients' | 'subject' | 'attempts' | 'lastError'>
  > = {},
): Promise<number> {
  failedSeq += 1;
  const [row] = await api.db
    .insert(mailOutbox)
    .values({
      kind: 'rejected',
      about: `ad-request:web:${failedSeq}`,
      messageId: `<failed-${failedSeq}@bus.example.com>`,
      recipients: ['owner@example.com'],
      subject: `[외대 버스] 광고 신청이 거절되었습니다 ${failedSeq}`,
      text: '본문',
      html: '<p>본문</p>',
      status: 'failed',
      attempts: 1,
      lastError: '550 5.1.1 mailbox unavailable',
      nextAttemptAt: createdAt,
      expiresAt: new Date(createdAt.getTime() + 24 * 60 * 60 * 1000),
      createdAt,
      ...fields,
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}

/** The rows of mail_outbox, in id order. */
export function outboxRows(api: WebApi) {
  return api.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
}

/** The status of row `id` of mail_outbox. */
export async function outboxStatus(api: WebApi, id: number): Promise<string | undefined> {
  const [row] = await api.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, id));
  return row?.status;
}

/** Empties mail_outbox. */
export async function clearOutbox(api: WebApi): Promise<void> {
  await api.db.execute(sql`TRUNCATE mail_outbox RESTART IDENTITY`);
}

/** A send's outcome as the lease holder's sender records it: a failure (its message, when), or null for one that went out. */
export async function recordSending(api: WebApi, failure: { error: string; at: Date } | null): Promise<void> {
  if (failure) await recordSendFailure(api.db, failure.error, failure.at);
  else await recordSendSuccess(api.db);
}
