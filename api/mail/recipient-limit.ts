/**
 * How many e-mails one recipient gets, counted with the api's other limits (rate-limiter-flexible's
 * RateLimiterDrizzle on the rate_limits table, spent with api/rate-limit.ts spendKey), so every api
 * instance sharing the database shares the count.
 */
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import { sha256Hex } from '../../lib/hash';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { spendKey } from '../rate-limit';
import { recipientKey } from './address';

/**
 * E-mails to one recipient that anyone can cause: at most 8 per 24 hours to one mailbox
 * (recipientKey), counted when each is queued (api/mail/outbox.ts RECIPIENT_COUNTED: an
 * application's receipt). Anyone can type any address into an application; without a limit the
 * site would mail a stranger as often as someone asked it to. 8 is well above a real applicant's
 * busiest day (two applications, web and chatbot). An admin's decision or reply, and the admins'
 * notices (ADMIN_NOTIFY_EMAILS), are not counted.
 */
export const MAILS_PER_RECIPIENT = { points: 8, durationSec: 24 * 60 * 60 } as const;

/**
 * Spends one of `address`'s MAILS_PER_RECIPIENT in `tx`, the transaction that queues the e-mail: a
 * change that rolls back gives its point back, and nothing waits on a query outside the
 * transaction (PGlite serves one connection at a time). The key is `mailsToRecipient:<SHA-256 of
 * the recipientKey>`, never the address itself; the per-client limiters' sweep deletes it an hour
 * after its 24 hours end.
 * @returns whether the e-mail may be queued: false once `address` has had its MAILS_PER_RECIPIENT.
 * @throws what the database throws.
 */
export async function spendRecipientMail(tx: Pick<Db, 'insert'>, address: string): Promise<boolean> {
  const limiter = new RateLimiterDrizzle({
    storeClient: tx,
    schema: rateLimits,
    keyPrefix: 'mailsToRecipient',
    points: MAILS_PER_RECIPIENT.points,
    duration: MAILS_PER_RECIPIENT.durationSec,
    clearExpiredByTimeout: false,
  });
  return !(await spendKey(limiter, sha256Hex(recipientKey(address)))).over;
}
