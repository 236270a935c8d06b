/**
 * The e-mail outbox and its sender, for api/mail/sender-*.test.ts: an outbox with fixed letters
 * settings and its sender on a test SMTP server (tests/setup/smtp.ts), on a test database.
 */
import { afterEach } from 'vitest';
import { FakeClock, recordingLogger } from './fakes';
import { startSmtpServer, type TestSmtpServer } from './smtp';
import { testDatabaseFor, type TestDatabaseKind } from './db';
import { adRowsIn, NOW } from '../../api/ads/ad-rows.fixture';
import { imageUploads, mailOutbox } from '../../api/db/schema';
import { createMailOutbox, type MailOutbox } from '../../api/mail/outbox';
import { createMailSender, SMTP_TIMEOUTS, smtpTransport, type SmtpTimeouts } from '../../api/mail/sender';

export const BASE_URL = 'https://bus.example.com';
const FROM = '외대 버스 <bus@example.com>';
export const ADMINS = ['admin1@example.com', 'admin2@example.com'];

export const application = {
  type: 'web' as const,
  title: '캠퍼스 카페',
  applicantName: '홍길동',
  applicantPhone: '01012345678',
  applicantEmail: 'owner@example.com',
  redirectUrl: undefined,
  contentForManager: undefined,
  content: undefined,
  imageUrl: '/images/web-1.png',
  duration: 2 as const,
  confirmed: false as const,
};

/**
 * Registers, for the suite on `kind`, the file's test database (emptied before each test) and the
 * closing of every SMTP server `smtpServer` started, after each test. Returns the helpers.
 */
export function mailSenderFor(kind: TestDatabaseKind) {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const { pendingApplication } = adRowsIn(db);
  const servers: TestSmtpServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  /** startSmtpServer's server, closed after the test. */
  async function smtpServer(...args: Parameters<typeof startSmtpServer>): Promise<TestSmtpServer> {
    const server = await startSmtpServer(...args);
    servers.push(server);
    return server;
  }

  /**
   * An outbox with the test's settings, its sender on `smtpUrl`, and a fixed clock at NOW.
   * @param options.timeouts the SMTP waits, SMTP_TIMEOUTS unless a test shortens them.
   */
  function mailOn(
    smtpUrl: string,
    options: { leader?: () => boolean; timeouts?: SmtpTimeouts; clock?: FakeClock; claimMs?: number } = {},
  ) {
    const clock = options.clock ?? new FakeClock(NOW);
    const logger = recordingLogger();
    const timeouts = options.timeouts ?? SMTP_TIMEOUTS;
    const sender = createMailSender({
      db: db(),
      transport: smtpTransport(smtpUrl, timeouts),
      from: FROM,
      clock,
      logger,
      isLeader: options.leader ?? (() => true),
      sendMs: timeouts.sendMs,
      claimMs: options.claimMs,
    });
    const outbox: MailOutbox = createMailOutbox({
      letters: { baseUrl: BASE_URL, bankAccount: { bank: '농협', number: '351-1234-5678-90', holder: '캠퍼스버스' } },
      adminEmails: ADMINS,
      messageIdHost: 'example.com',
      kick: () => undefined, // the tests run the rounds themselves
      logger,
    });
    return { clock, logger, sender, outbox };
  }

  async function storedImage() {
    await db().insert(imageUploads).values({
      key: 'web-1.png',
      imageUrl: '/images/web-1.png',
      adType: 'web',
      contentType: 'image/png',
      byteSize: 10,
      status: 'stored',
      issuedAt: NOW,
      expiresAt: NOW,
    });
  }

  const rows = () => db().select().from(mailOutbox).orderBy(mailOutbox.id);

  return { db, pendingApplication, smtpServer, mailOn, storedImage, rows };
}
