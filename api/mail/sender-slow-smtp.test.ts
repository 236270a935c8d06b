/**
 * A slow SMTP server (RFC 5321 §4.5.3.2): the sender's waits, its claim renewed while it waits, and
 * the sends it aborts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../tests/setup/fakes';
import { testDatabaseKinds } from '../../tests/setup/db';
import { mailSenderFor } from '../../tests/setup/mail-sender';
import { ACTOR, NOW } from '../ads/ad-rows.fixture';
import { approveApplication } from '../ads/applications';
import { mailOutbox } from '../db/schema';
import { CLAIM_MS, SMTP_TIMEOUTS, smtpTransport } from './sender';

describe.each(testDatabaseKinds)('the e-mail outbox and its sender on %s', (kind) => {
  const { db, pendingApplication, smtpServer, mailOn, rows } = mailSenderFor(kind);

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
      const server = await smtpServer(0, { holdDataReply: () => (messages++ === 0 ? held : Promise.resolve()) });
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
      const { sender, outbox } = mailOn(server.url, {
        timeouts: { connectionMs: 1000, greetingMs: 1000, replyMs: 300, sendMs: 2000 },
      });
      await approveApplication(db(), 'web', await pendingApplication('web'), ACTOR, NOW, outbox);
      await sender.deliverDue(); // the server holds its answer past replyMs
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.lastError).toMatch(/timeout/i);
      release();
    });

    it('takes an answer to the end of DATA that comes within its reply wait: one copy, sent', async () => {
      const { server, release } = await holdingServer();
      const { sender, outbox } = mailOn(server.url, {
        timeouts: { connectionMs: 1000, greetingMs: 1000, replyMs: 1500, sendMs: 2000 },
      });
      await approveApplication(db(), 'web', await pendingApplication('web'), ACTOR, NOW, outbox);
      const round = sender.deliverDue();
      await server.waitFor(1);
      setTimeout(release, 500);
      await round;
      expect((await rows()).map((row) => [row.status, row.attempts])).toEqual([['sent', 1]]);
      expect(server.received).toHaveLength(1);
    });

    it('renews its claim while an answer is awaited: the instance the lease moves to sends no second copy, even with its clock past the RFC 10 minutes', async () => {
      const { server, release } = await holdingServer();
      const clock = new FakeClock(NOW);
      const first = mailOn(server.url, { clock, claimMs: 300 });
      const id = await pendingApplication('web');
      await approveApplication(db(), 'web', id, ACTOR, NOW, first.outbox);
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

    it('claims a row it sends for CLAIM_MS (30 s) at most, so a row whose sender died mid-send is sent by the next round once that runs out', async () => {
      const { server, release } = await holdingServer();
      const clock = new FakeClock(NOW);
      const dying = mailOn(server.url, { clock });
      await approveApplication(db(), 'web', await pendingApplication('web'), ACTOR, NOW, dying.outbox);
      const dyingRound = dying.sender.deliverDue();
      await server.waitFor(1); // in flight: the server holds its answer, as it would for a sender killed now
      const [claimed] = await rows();
      expect(claimed.nextAttemptAt).toEqual(new Date(NOW.getTime() + CLAIM_MS));
      expect(CLAIM_MS).toBeLessThanOrEqual(30_000);

      // The instance that takes over, its clock where the claim runs out (the dying one renews only
      // every CLAIM_MS / 3 of real time, which this test does not wait for).
      const next = mailOn(server.url, { clock });
      await next.sender.deliverDue();
      expect(server.received).toHaveLength(1);
      clock.advance(CLAIM_MS / 1000);
      await next.sender.deliverDue();
      expect(server.received).toHaveLength(2);
      expect((await rows()).map((row) => row.status)).toEqual(['sent']);
      release();
      await dyingRound;
    });

    it('aborts its send when another round has taken the row over, and leaves the outcome to that round', async () => {
      const { server, release } = await holdingServer();
      const { sender, outbox, logger } = mailOn(server.url, { claimMs: 300 });
      await approveApplication(db(), 'web', await pendingApplication('web'), ACTOR, NOW, outbox);
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
      const { clock, sender, outbox } = mailOn(server.url, {
        timeouts: { connectionMs: 1000, greetingMs: 1000, replyMs: 10_000, sendMs: 300 },
      });
      await approveApplication(db(), 'web', await pendingApplication('web'), ACTOR, NOW, outbox);
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
