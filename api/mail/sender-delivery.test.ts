/**
 * How the sender delivers: retried while the server is down, backed off, failed and resent, purged,
 * from the lease holder only, and at most so many e-mails per address.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../tests/setup/process';
import { startSmtpServer } from '../../tests/setup/smtp';
import { testDatabaseKinds } from '../../tests/setup/db';
import { ADMINS, application, mailSenderFor } from '../../tests/setup/mail-sender';
import { listAudit } from '../admin/audit';
import { ACTOR, NOW } from '../ads/ad-rows.fixture';
import { approveApplication, createAdApplication } from '../ads/applications';
import { mailOutbox } from '../db/schema';
import { createInquiry, replyToInquiry } from '../inquiries/model';
import { purgeOldMail, resendMail, undeliveredMail } from './outbox';
import { MAILS_PER_RECIPIENT } from './recipient-limit';
import { sendingFailure } from './sending-state';

describe.each(testDatabaseKinds)('the e-mail outbox and its sender on %s', (kind) => {
  const { db, pendingApplication, smtpServer, mailOn, storedImage, rows } = mailSenderFor(kind);

  it('retries while the SMTP server is down, telling since when and why, and delivers once it is up, with no one acting', async () => {
    const port = await freePort();
    const { clock, sender, outbox } = mailOn(`smtp://127.0.0.1:${port}`);
    const inquiry = await createInquiry(db(), { content: '버스 시간이 틀려요\n두 번째 줄' }, NOW, outbox);
    await sender.deliverDue();
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 15_000) });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    // The admin pages and the metrics read the outage, not only the log (docs/deploy.md §E-mail).
    expect(await sendingFailure(db())).toEqual({
      since: NOW.toISOString(),
      lastError: row.lastError,
      lastErrorAt: NOW.toISOString(),
    });

    clock.advance(10);
    await sender.deliverDue(); // not due yet
    expect((await rows())[0].attempts).toBe(1);
    clock.advance(5);
    await sender.deliverDue(); // down still: the outage keeps its start
    expect(await sendingFailure(db())).toMatchObject({
      since: NOW.toISOString(),
      lastErrorAt: new Date(NOW.getTime() + 15_000).toISOString(),
    });

    const smtp = await smtpServer(port);
    clock.advance(30);
    await sender.deliverDue();
    const [notice] = await smtp.waitFor(1);
    expect(notice.parsed.subject).toBe(`[외대 버스] 새 문의 (문의 번호 ${inquiry})`);
    [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null, sentAt: clock.now() });
    expect(await sendingFailure(db())).toBeNull();
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
    const id = await pendingApplication('web');
    await approveApplication(db(), 'web', id, ACTOR, NOW, outbox);
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
    const smtp = await smtpServer(refusing.port);
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
    const smtp = await smtpServer();
    let leader = false;
    const { sender, outbox } = mailOn(smtp.url, { leader: () => leader });
    await createInquiry(db(), { content: '문의' }, NOW, outbox);
    await sender.deliverDue();
    expect((await rows())[0].status).toBe('pending');
    leader = true;
    await sender.deliverDue();
    expect((await rows())[0].status).toBe('sent');
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
        const created = await createAdApplication(db(), { ...application, applicantEmail }, NOW, outbox);
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
      expect(await approveApplication(db(), 'web', 1, ACTOR, NOW, outbox)).not.toBeNull();
      const other = await createAdApplication(
        db(),
        { ...application, applicantEmail: 'owner@example.com' },
        NOW,
        outbox,
      );
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
      const later = await createAdApplication(
        db(),
        { ...application, applicantEmail: 'victim@gmail.com' },
        NOW,
        outbox,
      );
      expect(later?.emailed).toBe(true);
    });
  });
});
