/**
 * E-mail as a deployment runs it (docs/deploy.md §E-mail): the built web (build/server.js, so
 * `npm run build` first, as `npm test` does) with its in-process api,
 * SMTP_URL pointing at a real SMTP server on loopback (tests/setup/smtp.ts). An application sent
 * without JavaScript (a plain multipart form post) brings the applicant a receipt with a working
 * status link, and the admins a notice; an SMTP server down at the submit, and the process killed
 * (SIGKILL) before anything was sent, still delivers each e-mail exactly once after the restart,
 * with no one acting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../api/db/client';
import { mailOutbox } from '../api/db/schema';
import { PNG } from './fixtures/images';
import { freePort, runEntry, type EntryProcess } from './setup/process';
import { startSmtpServer, type TestSmtpServer } from './setup/smtp';

const ADMIN = 'admin@example.com';

describe('e-mail from a running deployment', () => {
  let web: EntryProcess | null = null;
  let smtp: TestSmtpServer | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-mail-'));
  afterAll(async () => {
    if (web?.child.exitCode === null) web.child.kill('SIGKILL');
    await smtp?.close();
    web = smtp = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts server.ts on `port` with e-mail through `smtpPort`. */
  async function startWeb(port: number, smtpPort: number): Promise<EntryProcess> {
    const entry = runEntry('build/server.js', {
      DATA_DIR: dataDir,
      PORT: String(port),
      CLOCK_START: '2026-11-23T08:00:00+09:00',
      API_SERVICE_TOKEN: 't'.repeat(40),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: '외대 버스 <bus@example.com>',
      ADMIN_NOTIFY_EMAILS: ADMIN,
      PUBLIC_BASE_URL: `http://localhost:${port}`,
    });
    await entry.waitFor(/\[web\] .*listening/);
    return entry;
  }

  /** Posts the application form as a browser without JavaScript does; answers the response. */
  function applyWithoutJavaScript(port: number, title: string): Promise<Response> {
    const form = new FormData();
    form.set('image', new File([PNG.slice()], 'shop.png', { type: 'image/png' }));
    for (const [name, value] of Object.entries({
      type: 'web',
      title,
      applicantName: '홍길동',
      applicantPhone: '010-1234-5678',
      email: 'owner@example.com',
      duration: '2',
    })) {
      form.set(name, value);
    }
    const origin = `http://localhost:${port}`;
    return fetch(`${origin}/ads/apply`, {
      method: 'POST',
      body: form,
      headers: { Origin: origin },
      redirect: 'manual',
    });
  }

  const statusLinkOf = (text: string | undefined) => /https?:\/\/\S+\/ads\/status\/[\w-]{43}/.exec(text ?? '')?.[0];

  it('delivers each e-mail exactly once after a SIGKILL before the send, the SMTP server having been down; then a new application brings its receipt with a working status link within 30 s', async () => {
    const port = await freePort();
    const smtpPort = await freePort();
    web = await startWeb(port, smtpPort); // nothing listens on smtpPort yet
    expect((await applyWithoutJavaScript(port, '후문 분식')).status).toBe(303);
    // The first attempt failed (connection refused): the rows are committed, nothing was sent.
    await web.waitFor(/\[mail\] application-\w+ \S+ not sent \(will retry\)/, 30_000);
    web.child.kill('SIGKILL');
    await web.exited();

    smtp = await startSmtpServer(smtpPort);
    web = await startWeb(port, smtpPort); // the restart takes over the dead owner's data directory
    // The row whose send the kill interrupted is claimed for at most 30 s (sender.ts CLAIM_MS),
    // counted on a clock that starts again at CLOCK_START; then the next round sends it.
    const afterCrash = await smtp.waitFor(2, 60_000);
    // The request's number, not its title (which the applicant typed): a crash may advance the id
    // sequence (PostgreSQL logs it ahead), so the number is read, not assumed.
    expect(afterCrash.map((mail) => mail.parsed.subject).sort()).toEqual([
      expect.stringMatching(/^\[외대 버스\] 광고 신청을 받았습니다 \(신청 번호 \d+\)$/),
      expect.stringMatching(/^\[외대 버스\] 새 광고 신청: 웹 배너 광고 \(신청 번호 \d+\)$/),
    ]);
    for (const mail of afterCrash) expect(mail.parsed.text).toContain('제목: 후문 분식');

    // A new application, the server up: the receipt and the admins' notice within 30 s.
    const submitted = Date.now();
    expect((await applyWithoutJavaScript(port, '정문 앞 카페')).status).toBe(303);
    const received = (await smtp.waitFor(4, 30_000)).slice(2);
    expect(Date.now() - submitted).toBeLessThan(30_000);
    const receipt = received.find((mail) => mail.envelopeTo.includes('owner@example.com'))!;
    const notice = received.find((mail) => mail.envelopeTo.includes(ADMIN))!;
    expect(receipt.parsed.subject).toMatch(/^\[외대 버스\] 광고 신청을 받았습니다 \(신청 번호 \d+\)$/);
    expect(receipt.parsed.text).toContain('제목: 정문 앞 카페');
    expect(receipt.parsed.text).toContain('금액: 26,000원 × 2개월 = 52,000원');
    expect(notice.parsed.subject).toBe(
      receipt.parsed.subject!.replace('광고 신청을 받았습니다', '새 광고 신청: 웹 배너 광고'),
    );
    const link = statusLinkOf(receipt.parsed.text);
    expect(link).toMatch(new RegExp(`^http://localhost:${port}/ads/status/`));
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('정문 앞 카페');
    expect(html).toContain('검토 중');

    web.child.kill('SIGTERM');
    await web.exited();
    web = null;
    // Exactly one row per e-mail, each delivered, and no second copy sent meanwhile.
    expect(smtp.received).toHaveLength(4);
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(mailOutbox);
      expect(rows.map((row) => [row.kind, row.status]).sort()).toEqual([
        ['application-admin', 'sent'],
        ['application-admin', 'sent'],
        ['application-received', 'sent'],
        ['application-received', 'sent'],
      ]);
    } finally {
      await database.close();
    }
  }, 150_000);
});
