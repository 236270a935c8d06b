/**
 * The outbox's sender (docs/architecture.md §E-mail): one per deployment, the bus feed's lease holder
 * (ADR 003), so two instances never send the same row. Every MAIL_POLL_MS (5 s), and at once when a
 * change of this process queued a row (`kick`), it delivers the due rows over SMTP with nodemailer,
 * one after another, and records each outcome in the outbox (outbox.ts). Delivery is at least once:
 * a crash after the SMTP server took a message and before the row was marked sends it again, with
 * the same Message-ID.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { dueMail, markAttemptFailed, markSent, type OutboxRow } from './outbox';

/** How often (ms) the lease holder looks for due rows. */
const MAIL_POLL_MS = 5_000;

/** The most rows one round sends; the rest wait for the next round. */
const ROUND_SIZE = 20;

/** What a transport needs of a message: nodemailer's sendMail. */
type MailTransport = Pick<Transporter, 'sendMail'>;

/**
 * An SMTP transport for SMTP_URL (smtp:// with STARTTLS when offered, smtps:// with TLS), with time
 * limits so that a silent server cannot stall the sender: 10 s to connect and greet, 30 s idle.
 */
export function smtpTransport(smtpUrl: string): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
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
 */
export function createMailSender(options: {
  db: Db;
  transport: MailTransport;
  from: string;
  clock: Clock;
  logger: Logger;
  isLeader: () => boolean;
}): MailSender {
  const { db, transport, from, clock, logger, isLeader } = options;
  let round: Promise<void> | null = null;
  let again = false;

  const send = async (row: OutboxRow) => {
    try {
      await transport.sendMail({
        from,
        to: row.recipients,
        subject: row.subject,
        text: row.text,
        html: row.html,
        messageId: row.messageId,
      });
      await markSent(db, row, clock.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // nodemailer marks an SMTP 5xx reply (but 503) as permanent; the network's failures are not.
      const permanent = (error as { permanent?: unknown }).permanent === true;
      const outcome = await markAttemptFailed(db, row, clock.now(), { message, permanent });
      logger.warn(
        `[mail] ${row.kind} ${row.messageId} not sent (${outcome === 'failed' ? 'failed' : 'will retry'}): ${message}`,
      );
    }
  };

  const runRound = async () => {
    do {
      again = false;
      if (!isLeader()) return;
      const rows = await dueMail(db, clock.now(), ROUND_SIZE);
      for (const row of rows) {
        // A send may take up to its 30 s socket limit: the lease may have moved meanwhile.
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
