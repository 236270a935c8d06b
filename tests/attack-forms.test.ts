/**
 * Attacks through the forms, replayed against the built web (tests/setup/attack-server.ts; README,
 * Admin): wrong passwords from one address never lock the admin out from another; fuzzed bodies and
 * headers on every form get a 4xx, never a 5xx; one address however spelt is one client of the limits;
 * the phishing and NUL attacks of the security review; and what the attacks left behind: a click
 * counted once per ad, phone and KST day, every click still redirected, nothing stored.
 * Elsewhere, at the level where they are decided: the crash takeover of DATA_DIR and the shutdown
 * (tests/lifecycle.test.ts, api/db/data-dir-lock.test.ts), the upload quotas and storage budget
 * (api/routes/uploads-limits.test.ts), the sign-in and setup limits (api/routes/admin-auth.test.ts,
 * api/admin/setup.test.ts), the counters (api/routes/ads-served.test.ts, app/routes/ads.click.test.ts),
 * the honeypot token (app/utils/honeypot.server.test.ts), and the api's fuzz (tests/api-fuzz.test.ts).
 */
import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { openDatabase } from '../api/db/client';
import { adDailyCounts, adApplications, inquiries } from '../api/db/schema';
import { ADMIN, attackServerFor } from './setup/attack-server';

const { web, base, dataDir, adminCookie, adId, send, raw, postForm } = attackServerFor();

describe('wrong passwords from one address never lock the admin out from another', () => {
  it('twelve wrong from one address leave the right password working from another', async () => {
    for (let i = 0; i < 12; i += 1) {
      const wrong = await postForm(
        '/admin-only/login',
        { username: ADMIN.username, password: `wrong-${i}` },
        { ip: '198.51.100.7' },
      );
      expect(wrong.status).toBeLessThan(500);
    }
    const right = await postForm('/admin-only/login', ADMIN, { ip: '198.51.100.8' });
    expect(right.status).toBe(303);
  }, 60_000);

  it('25 wrong from one address meet a 429 that says how long to wait', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const response = await postForm(
        '/admin-only/login',
        { username: ADMIN.username, password: `guess-${i}` },
        { ip: '198.51.100.20' },
      );
      statuses.push(response.status);
      if (response.status === 429) expect(await response.text()).toMatch(/로그인 시도가 너무 많습니다\. \d+분 뒤에/);
    }
    expect(statuses).toContain(429);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  }, 60_000);
});

describe('fuzzed bodies and headers on every form', () => {
  const forms = [
    '/contact',
    '/ads/apply',
    '/ads/impressions',
    '/admin-only/login',
    '/admin-only/setup',
    '/admin-only/notice',
    '/admin-only/inquiries',
    `/admin-only/ads/web/confirm/1`,
    '/admin-only/ads/edit/web',
    '/api/kakao/skill',
  ];
  const contentTypes = [
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=euc-kr',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=zz',
    'application/json',
    'text/plain',
    '',
  ];
  const bodies = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc
      .dictionary(
        fc.constantFrom(
          'content',
          'email',
          'username',
          'password',
          'token',
          'intent',
          'id',
          'type',
          'title',
          'from__confirm',
          'name__confirm',
        ),
        fc.string({ maxLength: 40 }),
      )
      .map((fields) => new URLSearchParams(fields).toString()),
    fc.constantFrom(
      '--zz\r\nContent-Disposition: form-data; name="content"\r\n\r\nhi',
      '--zz--',
      '%',
      'a=%E0%A4%A',
      '{"content":',
      'content=%00%00',
    ),
  );

  it('answers each with a 4xx or 3xx, never a 5xx, and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...forms),
        fc.constantFrom(...contentTypes),
        bodies,
        fc.boolean(),
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH'),
        async (path, contentType, body, signedIn, method) => {
          const headers: Record<string, string> = { 'Content-Type': contentType };
          if (signedIn) headers.Cookie = adminCookie();
          const response = await send(path, { method, headers, body, ip: '192.0.2.77' });
          await response.arrayBuffer();
          expect(
            response.status,
            `${method} ${path} ${contentType} ${JSON.stringify(String(body)).slice(0, 80)}`,
          ).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 20261126 },
    );
    // Wrong declared lengths: a body cut short (the client half-closes), or longer than it said.
    const head = (path: string, length: number) =>
      `POST ${path} HTTP/1.1\r\nHost: ${new URL(base()).host}\r\nOrigin: ${base()}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;
    for (const path of ['/contact', '/admin-only/login']) {
      const short = await raw(`${head(path, 100)}content=cut`, { halfClose: true });
      expect(short, `${path} cut short`).toBe(400);
      const long = await raw(`${head(path, 11)}content=cut&and=then+some+more+that+was+not+declared`);
      expect(long, `${path} longer than said`).toBeGreaterThanOrEqual(200);
      expect(long, `${path} longer than said`).toBeLessThan(500);
    }
  }, 180_000);
});

describe('one address, however spelt or moved within its IPv6 /64, is one client of the limits', () => {
  /** Look-ups of the status page per address in 10 minutes (api/rate-limit.ts adStatus). */
  const STATUS_LIMIT = 30;
  /** A status page look-up from `ip` of a well-formed token no application carries: 404 within the limit, 429 past it. */
  const lookUp = (ip: string) => send(`/ads/status/${'A'.repeat(43)}`, { ip });
  /** The statuses of one look-up from each of `ips` in turn. */
  async function lookUps(ips: string[]) {
    const statuses: number[] = [];
    for (const ip of ips) {
      const response = await lookUp(ip);
      await response.body?.cancel();
      statuses.push(response.status);
    }
    return statuses;
  }
  /** `within` answers 404, then 429 for the rest of `total`. */
  const limitedAfter = (within: number, total: number) =>
    Array.from({ length: total }, (_, i) => (i < within ? 404 : 429));

  it('answers status look-ups from 40 addresses of one IPv6 /64 as from one address: 30, then 429', async () => {
    const ips = Array.from(
      { length: 40 },
      (_, i) => `2001:db8:a77:1:${i.toString(16)}:${(i * 257).toString(16)}::${i + 1}`,
    );
    expect(new Set(ips).size).toBe(40);
    expect(await lookUps(ips)).toEqual(limitedAfter(STATUS_LIMIT, ips.length));
    // The next /64 (another /48 too, so no network's budget is shared) is another client.
    expect((await lookUp('2001:db8:a78:1::1')).status).toBe(404);
  }, 60_000);

  it('answers status look-ups from one address spelt three ways as from one address: 30, then 429', async () => {
    for (const spellings of [
      ['198.18.7.7', '::ffff:198.18.7.7', '::FFFF:C612:707'],
      ['2001:db8:a79::7', '2001:DB8:A79:0:0::7', '2001:0db8:0a79:0000:0000:0000:0000:0007'],
    ]) {
      const ips = Array.from({ length: STATUS_LIMIT + 6 }, (_, i) => spellings[i % spellings.length]);
      expect(await lookUps(ips)).toEqual(limitedAfter(STATUS_LIMIT, ips.length));
    }
    // Another address (of another /24) is not held by them.
    expect((await lookUp('198.18.8.7')).status).toBe(404);
  }, 60_000);
});

describe('the phishing and NUL attacks of the security review', () => {
  /** A 1×1 PNG (tests/fixtures/images.ts PNG), so that only the text fields can be wrong. */
  const PNG_1X1 = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const FORGED = '입금 계좌: 사기은행 999-99-9999';

  /** /contact as a person's browser posts it: the honeypot field empty and the token the page rendered. */
  async function contactForm(fields: Record<string, string>, ip: string) {
    const page = await send('/contact', { ip });
    const html = await page.text();
    const token =
      /name="from__confirm"[^>]*value="([^"]+)"/.exec(html)?.[1] ??
      /value="([^"]+)"[^>]*name="from__confirm"/.exec(html)?.[1];
    expect(token).toBeTruthy();
    return postForm('/contact', { name__confirm: '', from__confirm: token!, ...fields }, { ip });
  }

  it('/contact: a line break in the e-mail gets 400 with the e-mail field’s message, and nothing is stored', async () => {
    const response = await contactForm(
      { content: '환불 문의입니다.', email: `victim@example.com\r\nBcc: others@example.com` },
      '203.0.113.140',
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('이메일에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.');
    const list = await send('/admin-only/inquiries', { headers: { Cookie: adminCookie() } });
    expect(await list.text()).not.toContain('환불 문의입니다.');
  });

  it('/ads/apply: a line break in the title (the forged bank line) or the name gets 400 with their messages, and nothing is stored', async () => {
    const form = new FormData();
    form.append('type', 'web');
    form.append('title', `캠퍼스 카페\r\n${FORGED}`);
    form.append('applicantName', `홍길동\u2028${FORGED}`);
    form.append('applicantPhone', '010-1234-5678');
    form.append('email', 'victim@example.com');
    form.append('duration', '1');
    form.append('image', new File([PNG_1X1], 'ad.png', { type: 'image/png' }));
    const response = await send('/ads/apply', { method: 'POST', body: form, ip: '203.0.113.141' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('제목에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.');
    expect(html).toContain('이름에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.');
    const requests = await send('/admin-only/ads/web', { headers: { Cookie: adminCookie() } });
    expect(await requests.text()).not.toContain('캠퍼스 카페');
  });

  it('admin sign-in: a NUL in the username gets 400 with its message (not 502), and the log has no NUL and no stack', async () => {
    const before = web().output().length;
    const response = await postForm(
      '/admin-only/login',
      { username: 'attack\u0000admin', password: 'attack-password-1234' },
      { ip: '203.0.113.142' },
    );
    expect(response.status).toBe(400);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.indexOf(0)).toBe(-1);
    expect(new TextDecoder().decode(bytes)).toContain('아이디에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.');
    // Whatever the server logged meanwhile (the next request's line flushes anything pending).
    await (await send('/healthz')).arrayBuffer();
    const logged = web().output().slice(before);
    expect(logged).not.toContain('\u0000');
    expect(logged).not.toMatch(/\n\s+at /);
  });

  it('/contact: a NUL in the text gets 400 with the message, and the page that says so holds no NUL byte', async () => {
    const response = await contactForm({ content: '버스\u0000 시간 문의', email: 'me@example.com' }, '203.0.113.143');
    expect(response.status).toBe(400);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.indexOf(0)).toBe(-1);
    const html = new TextDecoder().decode(bytes);
    expect(html).toContain('입력할 수 없는 문자가 들어 있습니다.');
    expect(html).toContain('버스 시간 문의'); // the text comes back to be corrected, without the NUL
    expect(html).toContain('me@example.com');
  });
});

describe('what the attacks left behind', () => {
  it('30 clicks from one phone on one ad all redirect and count once', async () => {
    for (let i = 0; i < 30; i += 1) {
      const click = await send(`/ads/click/${adId()}`, {
        headers: { 'User-Agent': 'attack-phone/1' },
        ip: '192.0.2.30',
      });
      expect(click.status).toBe(302);
      expect(click.headers.get('Location')).toBe('https://shop.example/menu');
    }
    // The figures are in the database; the embedded one belongs to the server until it stops.
    web().child.kill('SIGTERM');
    expect((await web().exited()).code).toBe(0);
    const database = await openDatabase({ dataDir: dataDir() });
    try {
      const [counted] = await database.db.select().from(adDailyCounts).where(eq(adDailyCounts.adId, adId()));
      expect(counted.clicks).toBe(1);
      // Nothing the fuzz sent was stored.
      expect((await database.db.select({ n: count() }).from(inquiries))[0].n).toBe(0);
      expect((await database.db.select({ n: count() }).from(adApplications))[0].n).toBe(0);
    } finally {
      await database.close();
    }
  }, 60_000);
});
