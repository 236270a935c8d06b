import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../lib/hash';
import { freePort } from '../../tests/setup/process';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { startSmtpServer, type TestSmtpServer } from '../../tests/setup/smtp';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { listAudit } from '../admin/audit';
import { ACTOR, NOW, adRowsIn } from '../ads/ad-rows.fixture';
import { approveRequest, createAdRequest, deleteAdRequest, rejectRequest } from '../ads/requests';
import { adStatusTokens, imageUploads, mailOutbox } from '../db/schema';
import { createInquiry, deleteInquiry, replyToInquiry } from '../inquiries/model';
import {
  claimMail,
  createMailOutbox,
  mailOff,
  purgeOldMail,
  resendMail,
  undeliveredMail,
  type MailOutbox,
} from './outbox';
import { MAILS_PER_RECIPIENT } from './recipient-limit';
import { CLAIM_MS, createMailSender, SMTP_TIMEOUTS, smtpTransport, type SmtpTimeouts } from './sender';

const BASE_URL = 'https://bus.example.com';
const FROM = '외대 버스 <bus@example.com>';
const ADMINS = ['admin1@example.com', 'admin2@example.com'];

const application = {
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

describe.each(testDatabaseKinds)('the e-mail outbox and its sender on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const { pendingRequest } = adRowsIn(db);
  let smtp: TestSmtpServer | null = null;
  afterEach(async () => {
    await smtp?.close();
    smtp = null;
  });

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

  it('sends the applicant a receipt with the title, the amount, the bank account and a working status link, and the admins a notice', async () => {
    smtp = await startSmtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    await storedImage();
    const created = await createAdRequest(db(), application, NOW, outbox);
    expect(created?.emailed).toBe(true);
    await sender.deliverDue();

    const [receipt, ...notices] = await smtp.waitFor(3);
    expect(receipt.envelopeTo).toEqual(['owner@example.com']);
    expect(receipt.parsed.from?.value).toEqual([{ name: '외대 버스', address: 'bus@example.com' }]);
    expect(receipt.parsed.subject).toBe(`[외대 버스] 광고 신청을 받았습니다 (신청 번호 ${created!.id})`);
    // Korean subjects go out encoded (RFC 2047), never as raw 8-bit header bytes.
    expect(receipt.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    const text = receipt.parsed.text ?? '';
    expect(text).toContain('광고 유형: 웹 배너 광고');
    expect(text).toContain('제목: 캠퍼스 카페');
    expect(text).toContain('금액: 26,000원 × 2개월 = 52,000원');
    expect(text).toContain('입금 계좌: 농협 351-1234-5678-90 (예금주 캠퍼스버스)');
    const link = `${BASE_URL}/ads/status/${created!.statusToken}`;
    expect(text).toContain(link);
    expect(receipt.parsed.html).toContain(`href="${link}"`);
    expect(receipt.parsed.html).toContain('52,000원');
    // The link's token is the one whose hash the request keeps.
    const [token] = await db().select().from(adStatusTokens);
    expect(token.tokenHash).toBe(sha256Hex(created!.statusToken));

    // One e-mail per admin: a refused address fails alone, and the mail page shows which.
    expect(notices.map((notice) => notice.envelopeTo)).toEqual(ADMINS.map((admin) => [admin]));
    for (const notice of notices) {
      expect(notice.parsed.subject).toBe(`[외대 버스] 새 광고 신청: 웹 배너 광고 (신청 번호 ${created!.id})`);
      expect(notice.parsed.text).toContain(`${BASE_URL}/admin-only/ads/web/confirm/${created!.id}`);
    }

    const stored = await rows();
    expect(stored.map((row) => [row.kind, row.about, row.status, row.attempts])).toEqual([
      ['application-received', `ad-request:web:${created!.id}`, 'sent', 1],
      ['application-admin', `ad-request:web:${created!.id}`, 'sent', 1],
      ['application-admin', `ad-request:web:${created!.id}`, 'sent', 1],
    ]);
    expect(receipt.parsed.messageId).toBe(stored[0].messageId);
  });

  it('queues nothing when the change is not made (an application whose image is not stored)', async () => {
    const { outbox } = mailOn('smtp://127.0.0.1:1');
    expect(await createAdRequest(db(), application, NOW, outbox)).toBeNull();
    expect(await rows()).toEqual([]);
  });

  it("writes the e-mail in the change's transaction: when the change fails after queueing, neither stays", async () => {
    const { outbox } = mailOn('smtp://127.0.0.1:1');
    const id = await pendingRequest('web');
    // The change fails after its e-mail was queued (here: the queueing itself, once it wrote).
    const failing: MailOutbox = {
      ...outbox,
      queue: async (...args) => {
        await outbox.queue(...args);
        throw new Error('the disk is full');
      },
    };
    await expect(approveRequest(db(), 'web', id, ACTOR, NOW, failing)).rejects.toThrow('the disk is full');
    expect(await rows()).toEqual([]);
    expect(await listAudit(db(), 10)).toEqual([]);
  });

  it("deletes a request's or an inquiry's e-mails, sent or not, with it (deletion on request)", async () => {
    const { outbox } = mailOn('smtp://127.0.0.1:1');
    await storedImage();
    const created = await createAdRequest(db(), application, NOW, outbox);
    const inquiry = await createInquiry(db(), { content: '지워주세요', email: 'me@example.com' }, NOW, outbox);
    const other = await createInquiry(db(), { content: '남는 문의' }, NOW, outbox);
    expect(await rows()).toHaveLength(3 + 2 + 2);
    expect(await deleteAdRequest(db(), 'web', created!.id, ACTOR, NOW)).not.toBeNull();
    expect(await deleteInquiry(db(), inquiry, ACTOR, NOW)).toBe(true);
    expect(new Set((await rows()).map((row) => row.about))).toEqual(new Set([`inquiry:${other}`]));
  });

  it('tells the applicant the paid period on approval, and the reason on rejection, each with a fresh working link', async () => {
    smtp = await startSmtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    const approvedId = await pendingRequest('web', 2);
    const rejectedId = await pendingRequest('kakao');
    await approveRequest(db(), 'web', approvedId, ACTOR, NOW, outbox);
    await rejectRequest(
      db(),
      'kakao',
      rejectedId,
      '이미지에 연락처가 없습니다.\n다시 신청해주세요.',
      ACTOR,
      NOW,
      outbox,
    );
    await sender.deliverDue();
    const [approved, rejected] = await smtp.waitFor(2);

    expect(approved.envelopeTo).toEqual(['a@example.com']);
    expect(approved.parsed.subject).toBe(`[외대 버스] 광고가 승인되었습니다 (신청 번호 ${approvedId})`);
    expect(approved.parsed.text).toContain('제목: web ad');
    // NOW is 2026-11-23 10:00 KST; 60 days later is 2027-01-22 10:00 KST, exclusive: the last day is the 22nd.
    expect(approved.parsed.text).toContain('게재 기간: 2026년 11월 23일 ~ 2027년 1월 22일');
    expect(rejected.parsed.subject).toBe(`[외대 버스] 광고 신청 검토 결과를 알려드립니다 (신청 번호 ${rejectedId})`);
    expect(rejected.parsed.text).toContain('사유: 이미지에 연락처가 없습니다.\n다시 신청해주세요.');

    const hashes = (await db().select().from(adStatusTokens)).map((row) => row.tokenHash);
    for (const mail of [approved, rejected]) {
      const token = /\/ads\/status\/([\w-]{43})/.exec(mail.parsed.text ?? '')![1];
      expect(hashes).toContain(sha256Hex(token));
    }
  });

  it('retries while the SMTP server is down, and delivers once it is up, with no one acting', async () => {
    const port = await freePort();
    const { clock, sender, outbox } = mailOn(`smtp://127.0.0.1:${port}`);
    const inquiry = await createInquiry(db(), { content: '버스 시간이 틀려요\n두 번째 줄' }, NOW, outbox);
    await sender.deliverDue();
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 15_000) });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);

    clock.advance(10);
    await sender.deliverDue(); // not due yet
    expect((await rows())[0].attempts).toBe(1);

    smtp = await startSmtpServer(port);
    clock.advance(5);
    await sender.deliverDue();
    const [notice] = await smtp.waitFor(1);
    expect(notice.parsed.subject).toBe(`[외대 버스] 새 문의 (문의 번호 ${inquiry})`);
    [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null, sentAt: clock.now() });
  });

  it('backs off 15 s, 30 s, 60 s… up to an hour, and fails a row still undelivered after 24 hours', async () => {
    const port = await freePort();
    const { clock, sender, outbox } = mailOn(`smtp://127.0.0.1:${port}`);
    await createInquiry(db(), { content: '문의' }, NOW, outbox);
    const delays: number[] = [];
    for (;;) {
      await sender.deliverDue();
      const [row] = await rows();
      if (row.status !== 'pending') break;
      delays.push((row.nextAttemptAt.getTime() - clock.now().getTime()) / 1000);
      clock.set(row.nextAttemptAt);
    }
    expect(delays.slice(0, 5)).toEqual([15, 30, 60, 120, 240]);
    expect(Math.max(...delays)).toBe(3600);
    const [row] = await rows();
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/retried for 24 hours/);
    expect(clock.now().getTime() - NOW.getTime()).toBeLessThanOrEqual(24 * 3600 * 1000);
  });

  it('fails a message the server refuses (550) at once, lists it for the admins, and resends it with the same Message-ID', async () => {
    const refusing = await startSmtpServer(0, { refuseRecipients: true });
    const { clock, sender, outbox } = mailOn(refusing.url);
    const id = await pendingRequest('web');
    await approveRequest(db(), 'web', id, ACTOR, NOW, outbox);
    await sender.deliverDue();
    await refusing.close();

    const { failed, pending } = await undeliveredMail(db());
    expect(pending).toBe(0);
    expect(failed).toEqual([
      expect.objectContaining({
        kind: 'approved',
        recipients: ['a@example.com'],
        subject: `[외대 버스] 광고가 승인되었습니다 (신청 번호 ${id})`,
        attempts: 1,
        lastError: expect.stringContaining('550'),
      }),
    ]);

    // The admin fixes the cause (here: a server that takes it) and resends.
    smtp = await startSmtpServer(refusing.port);
    clock.advance(60);
    expect(await resendMail(db(), failed[0].id, 'bob', clock.now())).toBe(true);
    expect(await resendMail(db(), failed[0].id, 'bob', clock.now())).toBe(false); // pending now, not failed
    await sender.deliverDue();
    const [delivered] = await smtp.waitFor(1);
    expect(delivered.parsed.messageId).toBe(failed[0].messageId);
    expect((await undeliveredMail(db())).failed).toEqual([]);
    const [resend] = (await listAudit(db(), 10)).filter((entry) => entry.action === 'resend');
    expect(resend).toMatchObject({ actor: 'bob', target: `mail:${failed[0].id}` });
  });

  it('purges what was sent, or stopped being retried, over 30 days ago, even in a deployment that stopped sending', async () => {
    const DAY = 86_400_000;
    const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
    const row = (status: 'pending' | 'sent' | 'failed', days: number) => ({
      kind: 'inquiry-admin' as const,
      about: `inquiry:${days}`,
      messageId: `<${status}-${days}@example.com>`,
      recipients: ['admin1@example.com'],
      subject: '제목',
      text: '본문',
      html: '<p>본문</p>',
      status,
      nextAttemptAt: ago(days),
      expiresAt: ago(days),
      createdAt: ago(days + 1),
      sentAt: status === 'sent' ? ago(days) : null,
    });
    await db()
      .insert(mailOutbox)
      .values([
        row('sent', 31),
        row('sent', 29),
        row('failed', 31),
        row('failed', 29),
        row('pending', 31),
        row('pending', 0),
      ]);
    expect(await purgeOldMail(db(), NOW)).toBe(3);
    expect((await rows()).map((left) => left.messageId).sort()).toEqual([
      '<failed-29@example.com>',
      '<pending-0@example.com>',
      '<sent-29@example.com>',
    ]);
  });

  it('sends only from the lease holder', async () => {
    smtp = await startSmtpServer();
    let leader = false;
    const { sender, outbox } = mailOn(smtp.url, { leader: () => leader });
    await createInquiry(db(), { content: '문의' }, NOW, outbox);
    await sender.deliverDue();
    expect((await rows())[0].status).toBe('pending');
    leader = true;
    await sender.deliverDue();
    expect((await rows())[0].status).toBe('sent');
  });

  it('replies to an inquiry by e-mail, once, quoting it; marks it answered and audits the reply without its words', async () => {
    smtp = await startSmtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    const withEmail = await createInquiry(
      db(),
      { content: '막차가 몇 시인가요?', email: 'student@example.com' },
      NOW,
      outbox,
    );
    const anonymous = await createInquiry(db(), { content: '익명 문의' }, NOW, outbox);
    const reply = '평일 막차는 23시 30분입니다.';
    expect(await replyToInquiry(db(), withEmail, reply, ACTOR, NOW, outbox)).toBe(true);
    expect(await replyToInquiry(db(), withEmail, reply, ACTOR, NOW, outbox)).toBe('answered');
    expect(await replyToInquiry(db(), anonymous, reply, ACTOR, NOW, outbox)).toBe('no-email');
    expect(await replyToInquiry(db(), 999, reply, ACTOR, NOW, outbox)).toBe('not-found');
    // With e-mail off: an unknown inquiry is still unknown; a known one cannot be answered.
    const later = await createInquiry(db(), { content: '다른 질문', email: 'other@example.com' }, NOW, outbox);
    expect(await replyToInquiry(db(), 999, reply, ACTOR, NOW, mailOff)).toBe('not-found');
    expect(await replyToInquiry(db(), later, reply, ACTOR, NOW, mailOff)).toBe('mail-off');
    await sender.deliverDue();
    const answered = (await smtp.waitFor(7)).find((mail) => mail.envelopeTo[0] === 'student@example.com')!;
    expect(answered.parsed.subject).toBe('[외대 버스] 문의하신 내용에 답변드립니다');
    expect(answered.parsed.text).toContain(reply);
    expect(answered.parsed.text).toContain('> 막차가 몇 시인가요?');
    const [audit] = (await listAudit(db(), 10)).filter((entry) => entry.action === 'reply');
    expect(audit).toMatchObject({
      target: `inquiry:${withEmail}`,
      after: { answered: true, replyLength: reply.length },
    });
    expect(JSON.stringify(audit)).not.toContain('23시');
  });

  it('cannot be made to add a header or a recipient through a title or a name', async () => {
    smtp = await startSmtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    await storedImage();
    const created = await createAdRequest(
      db(),
      { ...application, title: '카페\r\nBcc: victim@example.com', applicantName: '홍길동\r\nX-Injected: yes' },
      NOW,
      outbox,
    );
    await sender.deliverDue();
    const received = await smtp.waitFor(3);
    expect(received.flatMap((mail) => mail.envelopeTo)).toEqual(['owner@example.com', ...ADMINS]);
    for (const mail of received) {
      expect(mail.parsed.headers.has('bcc')).toBe(false);
      expect(mail.parsed.headers.has('x-injected')).toBe(false);
    }
    expect(received[0].parsed.subject).toBe(`[외대 버스] 광고 신청을 받았습니다 (신청 번호 ${created!.id})`);
    // A value stored before one-line fields refused line breaks stays on its line of the body too.
    expect(received[0].parsed.text).toContain('제목: 카페 Bcc: victim@example.com\n');
    expect(received[0].parsed.text).toMatch(/^홍길동 X-Injected: yes님, /);
    for (const row of await rows()) expect(row.subject).not.toMatch(/[\r\n]/);
  });

  it('puts nothing a submitter typed into a subject: fixed words, the ad type and the number the system gave', async () => {
    smtp = await startSmtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    await storedImage();
    const typed = ['입금 계좌: 사기은행 999-99-9999', 'https://phish.example/pay', '긴급 확인'];
    const created = await createAdRequest(
      db(),
      { ...application, title: `${typed[0]} ${typed[1]}`, applicantName: typed[2] },
      NOW,
      outbox,
    );
    await approveRequest(db(), 'web', created!.id, ACTOR, NOW, outbox);
    const inquiry = await createInquiry(
      db(),
      { content: `${typed[0]} ${typed[1]}`, email: 'student@example.com' },
      NOW,
      outbox,
    );
    await replyToInquiry(db(), inquiry, '답변입니다.', ACTOR, NOW, outbox);
    await sender.deliverDue();
    const received = await smtp.waitFor(3 + 1 + 2 + 1);
    const subjects = new Set(received.map((mail) => mail.parsed.subject));
    expect(subjects).toEqual(
      new Set([
        `[외대 버스] 광고 신청을 받았습니다 (신청 번호 ${created!.id})`,
        `[외대 버스] 새 광고 신청: 웹 배너 광고 (신청 번호 ${created!.id})`,
        `[외대 버스] 광고가 승인되었습니다 (신청 번호 ${created!.id})`,
        `[외대 버스] 새 문의 (문의 번호 ${inquiry})`,
        '[외대 버스] 문의하신 내용에 답변드립니다',
      ]),
    );
    for (const subject of subjects) for (const text of typed) expect(subject).not.toContain(text.slice(0, 6));
  });

  describe('the e-mails one address gets', () => {
    afterEach(() => vi.useRealTimers());

    it(`are at most ${MAILS_PER_RECIPIENT.points} in 24 hours, however the address is spelt; the rest are dropped, logged once each, and the changes still succeed`, async () => {
      vi.useFakeTimers({ now: NOW, toFake: ['Date'] }); // rate-limiter-flexible reads Date.now()
      const { logger, outbox } = mailOn('smtp://127.0.0.1:1');
      await storedImage();
      const spellings = [
        'victim@gmail.com',
        'Vic.tim+ad1@Gmail.com',
        ' victim+x@googlemail.com',
        'v.i.c.t.i.m@gmail.com',
      ];
      const outcomes: (boolean | undefined)[] = [];
      for (let index = 0; index < MAILS_PER_RECIPIENT.points + 2; index += 1) {
        const applicantEmail = spellings[index % spellings.length].trim();
        const created = await createAdRequest(db(), { ...application, applicantEmail }, NOW, outbox);
        expect(created).not.toBeNull(); // the application is taken either way
        outcomes.push(created?.emailed);
      }
      expect(outcomes).toEqual([...Array<boolean>(MAILS_PER_RECIPIENT.points).fill(true), false, false]);
      const queued = await rows();
      expect(queued.filter((row) => row.kind === 'application-received')).toHaveLength(MAILS_PER_RECIPIENT.points);
      // The admins' notices are not counted: every application told them.
      expect(queued.filter((row) => row.kind === 'application-admin')).toHaveLength(
        (MAILS_PER_RECIPIENT.points + 2) * ADMINS.length,
      );
      const dropped = logger.lines.filter((line) => line.includes('not queued'));
      expect(dropped).toEqual([
        expect.stringContaining(
          `application-received about ad-request:web:${MAILS_PER_RECIPIENT.points + 1} not queued`,
        ),
        expect.stringContaining(
          `application-received about ad-request:web:${MAILS_PER_RECIPIENT.points + 2} not queued`,
        ),
      ]);
      expect(dropped.join('\n')).not.toMatch(/victim|gmail/i); // the address is not logged

      // An admin's reply and decision are sent whatever the count; another address has its own.
      const inquiry = await createInquiry(db(), { content: '문의', email: 'VICTIM@gmail.com' }, NOW, outbox);
      expect(await replyToInquiry(db(), inquiry, '답변', ACTOR, NOW, outbox)).toBe(true);
      expect(await approveRequest(db(), 'web', 1, ACTOR, NOW, outbox)).not.toBeNull();
      const other = await createAdRequest(db(), { ...application, applicantEmail: 'owner@example.com' }, NOW, outbox);
      expect(other?.emailed).toBe(true);
      const kinds = (await rows()).filter((row) => row.kind !== 'application-admin' && row.kind !== 'inquiry-admin');
      expect(kinds.map((row) => [row.kind, row.recipients[0]])).toEqual([
        ...queued.filter((row) => row.kind === 'application-received').map((row) => [row.kind, row.recipients[0]]),
        ['inquiry-reply', 'VICTIM@gmail.com'],
        ['approved', expect.stringMatching(/^victim@gmail\.com$/i)],
        ['application-received', 'owner@example.com'],
      ]);

      // A day later the address has its e-mails again.
      vi.setSystemTime(new Date(NOW.getTime() + 24 * 3600_000 + 1000));
      const later = await createAdRequest(db(), { ...application, applicantEmail: 'victim@gmail.com' }, NOW, outbox);
      expect(later?.emailed).toBe(true);
    });
  });

  describe('a slow SMTP server (RFC 5321 §4.5.3.2)', () => {
    // A test that fails while the server holds an answer still lets it go, so the server closes at once.
    const releases: (() => void)[] = [];
    afterEach(() => releases.splice(0).forEach((release) => release()));

    /** A server that holds its answer to the first message's final "." until `release` is called, and answers the others at once. */
    async function holdingServer() {
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      releases.push(release);
      let messages = 0;
      const server = await startSmtpServer(0, { holdDataReply: () => (messages++ === 0 ? held : Promise.resolve()) });
      return { server, release };
    }

    it('waits 10 minutes for the answer to the end of DATA, and seconds to connect and be greeted', () => {
      const { options } = smtpTransport('smtp://127.0.0.1:25') as unknown as {
        options: { socketTimeout: number; connectionTimeout: number; greetingTimeout: number };
      };
      expect(options.socketTimeout).toBeGreaterThanOrEqual(10 * 60_000);
      expect(options.connectionTimeout).toBeLessThanOrEqual(10_000);
      expect(options.greetingTimeout).toBeLessThanOrEqual(10_000);
      // A send is given longer than that reply before it is aborted.
      expect(SMTP_TIMEOUTS.sendMs).toBeGreaterThan(SMTP_TIMEOUTS.replyMs + SMTP_TIMEOUTS.connectionMs);
    });

    it('gives up on an answer to the end of DATA slower than its reply wait: that wait is the one SMTP_TIMEOUTS.replyMs sets', async () => {
      const { server, release } = await holdingServer();
      smtp = server;
      const { sender, outbox } = mailOn(server.url, {
        timeouts: { connectionMs: 1000, greetingMs: 1000, replyMs: 300, sendMs: 2000 },
      });
      await approveRequest(db(), 'web', await pendingRequest('web'), ACTOR, NOW, outbox);
      await sender.deliverDue(); // the server holds its answer past replyMs
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.lastError).toMatch(/timeout/i);
      release();
    });

    it('takes an answer to the end of DATA that comes within its reply wait: one copy, sent', async () => {
      const { server, release } = await holdingServer();
      smtp = server;
      const { sender, outbox } = mailOn(server.url, {
        timeouts: { connectionMs: 1000, greetingMs: 1000, replyMs: 1500, sendMs: 2000 },
      });
      await approveRequest(db(), 'web', await pendingRequest('web'), ACTOR, NOW, outbox);
      const round = sender.deliverDue();
      await server.waitFor(1);
      setTimeout(release, 500);
      await round;
      expect((await rows()).map((row) => [row.status, row.attempts])).toEqual([['sent', 1]]);
      expect(server.received).toHaveLength(1);
    });

    it('renews its claim while an answer is awaited: the instance the lease moves to sends no second copy, even with its clock past the RFC 10 minutes', async () => {
      const { server, release } = await holdingServer();
      smtp = server;
      const clock = new FakeClock(NOW);
      const first = mailOn(server.url, { clock, claimMs: 300 });
      const id = await pendingRequest('web');
      await approveRequest(db(), 'web', id, ACTOR, NOW, first.outbox);
      const firstRound = first.sender.deliverDue();
      await server.waitFor(1); // the server has the message and has not answered yet

      // The lease moves to another instance, its clock 10 minutes on, past the first retries'
      // delays and the RFC's wait: once the first send has renewed its claim, the row is not due.
      const next = mailOn(server.url, { clock, claimMs: 300 });
      clock.advance(10 * 60);
      await vi.waitFor(async () =>
        expect((await rows())[0].nextAttemptAt.getTime()).toBeGreaterThan(clock.now().getTime()),
      );
      await next.sender.deliverDue();
      expect(server.received).toHaveLength(1);

      release();
      await firstRound;
      await next.sender.deliverDue();
      expect(server.received.map((mail) => mail.parsed.subject)).toEqual([
        `[외대 버스] 광고가 승인되었습니다 (신청 번호 ${id})`,
      ]);
      expect((await rows()).map((row) => [row.status, row.attempts])).toEqual([['sent', 1]]);
    });

    it('sends a row whose sender died mid-send (its claim no longer renewed) once the claim runs out, within CLAIM_MS', async () => {
      smtp = await startSmtpServer();
      const { clock, sender, outbox } = mailOn(smtp.url);
      await approveRequest(db(), 'web', await pendingRequest('web'), ACTOR, NOW, outbox);
      const [row] = await rows();
      // What a sender killed during its send leaves: the row claimed, never renewed.
      expect(await claimMail(db(), row, new Date(NOW.getTime() + CLAIM_MS))).toBe(true);
      await sender.deliverDue();
      expect(smtp.received).toHaveLength(0);
      clock.advance(CLAIM_MS / 1000);
      await sender.deliverDue();
      await smtp.waitFor(1);
      expect((await rows()).map((row) => [row.status, row.attempts])).toEqual([['sent', 1]]);
      expect(CLAIM_MS).toBeLessThanOrEqual(30_000);
    });

    it('aborts its send when another round has taken the row over, and leaves the outcome to that round', async () => {
      const { server, release } = await holdingServer();
      smtp = server;
      const { sender, outbox, logger } = mailOn(server.url, { claimMs: 300 });
      await approveRequest(db(), 'web', await pendingRequest('web'), ACTOR, NOW, outbox);
      const round = sender.deliverDue();
      await server.waitFor(1);
      const takenUntil = new Date(NOW.getTime() + 3_600_000);
      await db().update(mailOutbox).set({ nextAttemptAt: takenUntil });
      await round; // ends at the next renewal, the server still holding its answer
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: takenUntil, lastError: null });
      expect(logger.lines).toEqual([
        expect.stringMatching(/^\[mail\] approved \S+ send aborted: the claim on the row was lost/),
      ]);
      release();
    });

    it('aborts a send that outlasts its limit, and retries it after the usual delay', async () => {
      const { server, release } = await holdingServer();
      smtp = server;
      const { clock, sender, outbox } = mailOn(server.url, {
        timeouts: { connectionMs: 1000, greetingMs: 1000, replyMs: 10_000, sendMs: 300 },
      });
      await approveRequest(db(), 'web', await pendingRequest('web'), ACTOR, NOW, outbox);
      const started = performance.now();
      await sender.deliverDue();
      expect(performance.now() - started).toBeLessThan(3000);
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.nextAttemptAt).toEqual(new Date(clock.now().getTime() + 15_000));
      release();
    });
  });
});
