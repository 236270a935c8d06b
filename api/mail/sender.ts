/**
 * The outbox's sender (docs/architecture.md §E-mail): one per deployment, the bus feed's lease holder
 * (ADR 003), so two instances never send the same row. Every MAIL_POLL_MS (5 s), and at once when a
 * change of this process queued a row (`kick`), it delivers the due rows over SMTP with nodemailer,
 * one after another, and records each outcome in the outbox (outbox.ts). Before each send the row is
 * claimed for CLAIM_MS (30 s), and the claim is renewed every third of that while the send runs (a
 * slow server may take minutes: SMTP_TIMEOUTS), so no round, here or on the instance the lease
 * moves to meanwhile, sends it again while it may still be in flight; a send whose claim is lost
 * (taken over after a stalled renewal, or unwritable) is aborted. A sender that dies mid-send stops
 * renewing, so its row is due again within CLAIM_MS, on whichever instance holds the lease. Delivery
 * is at least once: a crash after the SMTP server took a message and before the row was marked
 * sends it again, with the same Message-ID.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { recordSendFailure, recordSendSuccess } from './sending-state';
import { claimMail, dueMail, markAttemptFailed, markSent, type OutboxRow } from './outbox';

/** How often (ms) the lease holder looks for due rows. */
const MAIL_POLL_MS = 5_000;

/** The most rows one round sends; the rest wait for the next round. */
const ROUND_SIZE = 20;

/** What a transport needs of a message: nodemailer's sendMail. */
type MailTransport = Pick<Transporter, 'sendMail'>;

/** How long (ms) a send waits for the SMTP server. */
export type SmtpTimeouts = {
  /** To connect (DNS, TCP, TLS): a server that is down or unreachable is known within seconds. */
  connectionMs: number;
  /** For the server's greeting once connected. */
  greetingMs: number;
  /**
   * For any one reply once greeted (nodemailer's socketTimeout, an idle limit). RFC 5321
   * §4.5.3.2.6 gives the reply to the "." that ends DATA 10 minutes, the longest of its waits: the
   * server may be checking or delivering the message then. Giving up sooner gave up on messages
   * the server went on to deliver, and the retries delivered them again.
   */
  replyMs: number;
  /**
   * For the whole send, at most (RFC 5321 §4.5.3.2's waits of a slow but working server fit in it):
   * then it is aborted, its connection closed, and retried.
   */
  sendMs: number;
};

export const SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  replyMs: 10 * 60_000,
  sendMs: 20 * 60_000,
};

/**
 * How long (ms) a claim on a row lasts unless renewed: the longest a row whose sender died waits.
 * A send renews it every CLAIM_MS / 3, so two renewals may fail or stall (a database statement may
 * take 10 s: db/client.ts PG_LIMITS) before another round may take the row.
 */
export const CLAIM_MS = 30_000;

/**
 * An SMTP transport for SMTP_URL (smtp:// with STARTTLS when offered, smtps:// with TLS), waiting as
 * `timeouts` say (SMTP_TIMEOUTS; tests shorten them): a server that is down is known within
 * seconds, a slow one gets the replies RFC 5321 gives it.
 */
export function smtpTransport(smtpUrl: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.replyMs,
  });
}

export type MailSender = {
  /** Delivers the rows due now, if this instance holds the lease. Rounds never overlap. */
  deliverDue(): Promise<void>;
  /** Asks for a round soon (after a change queued a row). */
  kick(): void;
  /** Runs a round now (what a crash left behind goes out at once), then every MAIL_POLL_MS; returns what stops them. */
  start(): () => void;
};

/**
 * @param options.from MAIL_FROM, the From of every message.
 * @param options.isLeader whether this instance holds the bus feed's lease (feed.role() === 'leader').
 * @param options.sendMs the longest a send may take (SMTP_TIMEOUTS.sendMs; tests shorten it).
 * @param options.claimMs how long a claim lasts unless renewed (CLAIM_MS; tests shorten it).
 */
export function createMailSender(options: {
  db: Db;
  transport: MailTransport;
  from: string;
  clock: Clock;
  logger: Logger;
  isLeader: () => boolean;
  sendMs?: number;
  claimMs?: number;
}): MailSender {
  const { db, transport, from, clock, logger, isLeader, sendMs = SMTP_TIMEOUTS.sendMs, claimMs = CLAIM_MS } = options;
  let round: Promise<void> | null = null;
  let again = false;

  /**
   * Renews the claim on `row` (held until `until`) every claimMs / 3 until the returned function
   * is called; when a renewal finds the row taken over, or cannot be written, aborts `lost`.
   */
  const holdClaim = (row: OutboxRow, until: Date, lost: AbortController): (() => void) => {
    let held = until;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const renew = async () => {
      const next = new Date(clock.now().getTime() + claimMs);
      try {
        if (!(await claimMail(db, { ...row, nextAttemptAt: held }, next)))
          throw new Error('another round took the row');
        held = next;
        if (!done) timer = setTimeout(() => void renew(), claimMs / 3);
      } catch (error) {
        if (!done) lost.abort(new Error(`the claim on the row was lost: ${errorText(error)}`));
      }
    };
    timer = setTimeout(() => void renew(), claimMs / 3);
    return () => {
      done = true;
      clearTimeout(timer);
    };
  };

  const send = async (row: OutboxRow) => {
    const claimedUntil = new Date(clock.now().getTime() + claimMs);
    if (!(await claimMail(db, row, claimedUntil))) return; // another round took it since it was read
    const lost = new AbortController();
    const release = holdClaim(row, claimedUntil, lost);
    try {
      await transport.sendMail({
        from,
        to: row.recipients,
        subject: row.subject,
        text: row.text,
        html: row.html,
        messageId: row.messageId,
        signal: AbortSignal.any([AbortSignal.timeout(sendMs), lost.signal]),
      });
      release();
      await markSent(db, row, clock.now());
    } catch (error) {
      release();
      if (lost.signal.aborted) {
        // The row is another round's now (or its claim runs out): its outcome is that round's to record.
        logger.warn(`[mail] ${row.kind} ${row.messageId} send aborted: ${errorText(lost.signal.reason)}`);
        return;
      }
      const message = errorText(error);
      // nodemailer marks an SMTP 5xx reply (but 503) as permanent; the network's failures are not.
      const permanent = (error as { permanent?: unknown }).permanent === true;
      const outcome = await markAttemptFailed(db, row, clock.now(), { message, permanent });
      logger.warn(
        `[mail] ${row.kind} ${row.messageId} not sent (${outcome === 'failed' ? 'failed' : 'will retry'}): ${message}`,
      );
      await recordSendFailure(db, message, clock.now());
      return;
    }
    await recordSendSuccess(db);
  };

  const runRound = async () => {
    do {
      again = false;
      if (!isLeader()) return;
      const rows = await dueMail(db, clock.now(), ROUND_SIZE);
      for (const row of rows) {
        // A send may take minutes (SMTP_TIMEOUTS): the lease may have moved meanwhile.
        if (!isLeader()) return;
        await send(row);
      }
      if (rows.length === ROUND_SIZE) again = true;
    } while (again);
  };

  const deliverDue = () => {
    if (round) {
      again = true;
      return round;
    }
    round = runRound()
      .catch((error: unknown) => logger.error('[mail] the outbox could not be read:', error))
      .finally(() => (round = null));
    return round;
  };

  return {
    deliverDue,
    kick: () => void deliverDue(),
    start: () => {
      void deliverDue();
      const timer = setInterval(() => void deliverDue(), MAIL_POLL_MS).unref();
      return () => clearInterval(timer);
    },
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
