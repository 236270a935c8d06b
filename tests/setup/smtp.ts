/**
 * A real SMTP server on loopback (the smtp-server package) that parses what arrives with mailparser,
 * for the e-mail tests: what the outbox's sender delivers is read back as a mail client would.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A delivered message: the SMTP envelope's recipients, and the message as mailparser reads it. */
export type ReceivedMail = { envelopeTo: string[]; parsed: ParsedMail; raw: string };

export type TestSmtpServer = {
  /** smtp://127.0.0.1:<port> (no TLS, no authentication). */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/**
 * Starts the server on `port` (0: any free one).
 * @param options.refuseRecipients answer every RCPT TO with `550 5.1.1 mailbox unavailable` (a permanent failure).
 * @param options.holdDataReply called once a message has arrived whole (it is in `received`: the
 *   server has it and will deliver it), before the server answers the "." that ended its DATA; the
 *   answer waits for the promise it returns (a slow server, RFC 5321 §4.5.3.2.6).
 */
export async function startSmtpServer(
  port = 0,
  options: { refuseRecipients?: boolean; holdDataReply?: () => Promise<unknown> } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuseRecipients) return callback();
      const error = Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw)
          .then(async (parsed) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed, raw });
            for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
            await options.holdDataReply?.();
          })
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    received,
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(() => reject(new Error(`${received.length} of ${count} messages arrived`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
