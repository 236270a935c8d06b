/**
 * What each e-mail says and when it is queued: in the change's own transaction, gone with what it is
 * about, and with nothing a submitter typed in its headers.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/hash';
import { testDatabaseKinds } from '../../tests/setup/db';
import { ADMINS, application, BASE_URL, mailSenderFor } from '../../tests/setup/mail-sender';
import { listAudit } from '../admin/audit';
import { ACTOR, NOW } from '../ads/ad-rows.fixture';
import { approveApplication, createAdApplication, deleteAdApplication, rejectApplication } from '../ads/applications';
import { adStatusTokens } from '../db/schema';
import { createInquiry, deleteInquiry, replyToInquiry } from '../inquiries/model';
import { mailOff, type MailOutbox } from './outbox';

describe.each(testDatabaseKinds)('the e-mail outbox and its sender on %s', (kind) => {
  const { db, pendingApplication, smtpServer, mailOn, storedImage, rows } = mailSenderFor(kind);

  it('sends the applicant a receipt with the title, the amount, the bank account and a working status link, and the admins a notice', async () => {
    const smtp = await smtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    await storedImage();
    const created = await createAdApplication(db(), application, NOW, outbox);
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
    // The link's token is the one whose hash the application keeps.
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
    expect(await createAdApplication(db(), application, NOW, outbox)).toBeNull();
    expect(await rows()).toEqual([]);
  });

  it("writes the e-mail in the change's transaction: when the change fails after queueing, neither stays", async () => {
    const { outbox } = mailOn('smtp://127.0.0.1:1');
    const id = await pendingApplication('web');
    // The change fails after its e-mail was queued (here: the queueing itself, once it wrote).
    const failing: MailOutbox = {
      ...outbox,
      queue: async (...args) => {
        await outbox.queue(...args);
        throw new Error('the disk is full');
      },
    };
    await expect(approveApplication(db(), 'web', id, ACTOR, NOW, failing)).rejects.toThrow('the disk is full');
    expect(await rows()).toEqual([]);
    expect(await listAudit(db(), 10)).toEqual([]);
  });

  it("deletes an application's or an inquiry's e-mails, sent or not, with it (deletion on request)", async () => {
    const { outbox } = mailOn('smtp://127.0.0.1:1');
    await storedImage();
    const created = await createAdApplication(db(), application, NOW, outbox);
    const inquiry = await createInquiry(db(), { content: '지워주세요', email: 'me@example.com' }, NOW, outbox);
    const other = await createInquiry(db(), { content: '남는 문의' }, NOW, outbox);
    expect(await rows()).toHaveLength(3 + 2 + 2);
    expect(await deleteAdApplication(db(), 'web', created!.id, ACTOR, NOW)).not.toBeNull();
    expect(await deleteInquiry(db(), inquiry, ACTOR, NOW)).toBe(true);
    expect(new Set((await rows()).map((row) => row.about))).toEqual(new Set([`inquiry:${other}`]));
  });

  it('tells the applicant the paid period on approval, and the reason on rejection, each with a fresh working link', async () => {
    const smtp = await smtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    const approvedId = await pendingApplication('web', 2);
    const rejectedId = await pendingApplication('kakao');
    await approveApplication(db(), 'web', approvedId, ACTOR, NOW, outbox);
    await rejectApplication(
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

  it('replies to an inquiry by e-mail, once, quoting it; marks it replied to and audits the reply without its words', async () => {
    const smtp = await smtpServer();
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
    expect(await replyToInquiry(db(), withEmail, reply, ACTOR, NOW, outbox)).toBe('replied');
    expect(await replyToInquiry(db(), anonymous, reply, ACTOR, NOW, outbox)).toBe('no-email');
    expect(await replyToInquiry(db(), 999, reply, ACTOR, NOW, outbox)).toBe('not-found');
    // With e-mail off: an unknown inquiry is still unknown; a known one cannot be replied to.
    const later = await createInquiry(db(), { content: '다른 질문', email: 'other@example.com' }, NOW, outbox);
    expect(await replyToInquiry(db(), 999, reply, ACTOR, NOW, mailOff)).toBe('not-found');
    expect(await replyToInquiry(db(), later, reply, ACTOR, NOW, mailOff)).toBe('mail-off');
    await sender.deliverDue();
    const replyLetter = (await smtp.waitFor(7)).find((mail) => mail.envelopeTo[0] === 'student@example.com')!;
    expect(replyLetter.parsed.subject).toBe('[외대 버스] 문의하신 내용에 답변드립니다');
    expect(replyLetter.parsed.text).toContain(reply);
    expect(replyLetter.parsed.text).toContain('> 막차가 몇 시인가요?');
    const [audit] = (await listAudit(db(), 10)).filter((entry) => entry.action === 'reply');
    expect(audit).toMatchObject({
      target: `inquiry:${withEmail}`,
      after: { answered: true, replyLength: reply.length },
    });
    expect(JSON.stringify(audit)).not.toContain('23시');
  });

  it('cannot be made to add a header or a recipient through a title or a name', async () => {
    const smtp = await smtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    await storedImage();
    const created = await createAdApplication(
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
    const smtp = await smtpServer();
    const { sender, outbox } = mailOn(smtp.url);
    await storedImage();
    const typed = ['입금 계좌: 사기은행 999-99-9999', 'https://phish.example/pay', '긴급 확인'];
    const created = await createAdApplication(
      db(),
      { ...application, title: `${typed[0]} ${typed[1]}`, applicantName: typed[2] },
      NOW,
      outbox,
    );
    await approveApplication(db(), 'web', created!.id, ACTOR, NOW, outbox);
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
});
