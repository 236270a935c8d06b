/**
 * The attack suite: what a security review tried against the running product on loopback, replayed
 * against the built web (build/server.js; `npm test` builds first) with its api in-process, on a
 * fresh PGlite directory, the way someone on the internet would send it. Each block holds what must
 * hold instead (docs/deploy.md §Request bodies and origins; README, Admin):
 * - one request cannot take the process down: bodies are capped per route before they are read;
 * - wrong passwords from one address never lock the admin out from another;
 * - a click counts once per ad, per phone, per KST day, and every click still redirects;
 * - a broken multipart body, a CR/LF in redirectTo, or a write without Origin get a 4xx or 3xx,
 *   never a 5xx;
 * - no page carries a NUL byte;
 * - fuzzed bodies and headers on every form get a 4xx, never a 5xx, and nothing is stored.
 * Elsewhere, at the level where they are decided: the crash takeover of DATA_DIR and the shutdown
 * (tests/lifecycle.test.ts, api/db/data-dir-lock.test.ts), the upload quotas and storage budget
 * (api/routes/uploads.test.ts), the sign-in and setup limits (api/routes/admin-auth.test.ts,
 * api/admin/setup.test.ts), the counters (api/routes/ads.test.ts, app/routes/ads.click.test.ts),
 * the honeypot token (app/utils/honeypot.server.test.ts), and the api's fuzz (tests/api-fuzz.test.ts).
 */
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { openDatabase } from '../api/db/client';
import { adDailyCounts, adRequests, ads, inquiries } from '../api/db/schema';
import { INQUIRY_MESSAGES } from '../contract/inquiries';
import { SKILL_BUSY_ANSWER } from '../contract/kakao';
import { freePort, runEntry, type EntryProcess } from './setup/process';

const CLOCK_START = '2026-11-23T08:00:00+09:00';
const ADMIN = { username: 'attack-admin', password: 'attack-password-1234' };
const MB = 1024 * 1024;

let web: EntryProcess;
let base: string;
let dataDir: string;
let adminCookie: string;
let adId: number;

/** The server's resident memory, in bytes (Linux /proc). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** A request from phone `ip` (the web trusts one proxy hop), from this site's pages unless `headers` say otherwise. */
function send(path: string, init: RequestInit & { ip?: string } = {}) {
  const { ip = '203.0.113.1', headers, ...rest } = init;
  return fetch(`${base}${path}`, {
    redirect: 'manual',
    ...rest,
    headers: { Origin: base, 'X-Forwarded-For': ip, ...(headers as Record<string, string>) },
  });
}

/**
 * Sends `text` as it is on a new connection (half-closing it after when `halfClose`) and resolves
 * with the status of the first answer, or 0 when the server closed without one.
 */
function raw(text: string, { halfClose = false } = {}) {
  return new Promise<number>((resolve) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('close', () => resolve(0));
    socket.on('error', () => resolve(0));
    socket.write(text, () => (halfClose ? socket.end() : undefined));
  });
}

/** A form POST (urlencoded) from this site. */
const postForm = (path: string, fields: Record<string, string>, init: RequestInit & { ip?: string } = {}) =>
  send(path, { method: 'POST', body: new URLSearchParams(fields), ...init });

/**
 * A POST of `size` bytes to `path`, sent by another process (tests/setup/flood.ts), declared with
 * Content-Length unless `chunked`, stopped once the answer comes.
 */
async function flood(path: string, size: number, { chunked = false } = {}) {
  const sender = runEntry('tests/setup/flood.ts', {}, [
    '--url',
    `${base}${path}`,
    '--size',
    String(size),
    '--origin',
    base,
    ...(chunked ? ['--chunked'] : []),
  ]);
  await sender.exited();
  return JSON.parse(sender.output().trim().split('\n').at(-1)!) as {
    status: number;
    ms: number;
    bytes: number;
    contentType: string;
    body: string;
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-attack-'));
  // A web ad with a link, in its paid period, for the clicks.
  const database = await openDatabase({ dataDir });
  const now = new Date(CLOCK_START);
  [{ id: adId }] = await database.db
    .insert(ads)
    .values({
      type: 'web',
      title: '공격 테스트 광고',
      redirectUrl: 'https://shop.example/menu',
      position: 1,
      startsAt: new Date('2026-11-01T00:00:00+09:00'),
      endsAt: new Date('2026-12-31T00:00:00+09:00'),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: ads.id });
  await database.close();

  const port = await freePort();
  base = `http://localhost:${port}`;
  web = runEntry('build/server.js', {
    PORT: String(port),
    DATA_DIR: dataDir,
    CLOCK_START,
    TRUST_PROXY: '1',
    COOKIE_SECURE: 'false',
    KAKAO_SKILL_SECRET: 's'.repeat(40),
  });
  await web.waitFor(/setup\?token=[\w-]+/, 90_000);
  // Start-up's own work (the demo history, then the day's accuracy backtest) done, so that what is
  // measured below is the attacks' effect alone.
  await web.waitFor(/\[accuracy\] today's prediction accuracy computed/, 120_000);
  const token = /setup\?token=([\w-]+)/.exec(web.output())![1];
  const setup = await postForm('/admin-only/setup', { token, ...ADMIN, passwordConfirm: ADMIN.password });
  expect(setup.status).toBe(303);
  adminCookie = setup.headers.get('Set-Cookie')!.split(';')[0];
}, 240_000);

afterAll(() => {
  if (web?.child.exitCode === null) web.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('one request cannot take the web down: bodies are capped per route', () => {
  it('refuses a 300 MB POST to /contact at once with a short page, its memory and /healthz unmoved', async () => {
    const pid = web.child.pid!;
    const before = rssOf(pid);
    let peak = before;
    let slowestHealthz = 0;
    let probing = true;
    const probes = (async () => {
      while (probing) {
        const started = performance.now();
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
        slowestHealthz = Math.max(slowestHealthz, performance.now() - started);
        peak = Math.max(peak, rssOf(pid));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (const chunked of [false, true]) {
      const answer = await flood('/contact', 300 * 1000 * 1000, { chunked });
      expect(answer.status, `chunked: ${chunked}`).toBe(413);
      // Within 1 s and 200 ms on a quiet machine (npm run measure:attack); here other test files share
      // the two cores, so the bounds leave room (before the caps: the 400 came after 28 s).
      expect(answer.ms).toBeLessThan(3000);
      expect(answer.bytes).toBeLessThan(16 * 1024);
      expect(answer.contentType).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain(INQUIRY_MESSAGES.contentTooLong);
    }
    probing = false;
    await probes;
    expect(peak - before).toBeLessThan(50 * MB);
    expect(slowestHealthz).toBeLessThan(3000);
    // The process is fine: a page still renders.
    expect((await send('/contact')).status).toBe(200);
  }, 60_000);

  it('takes a form at its cap and refuses one byte more, on every form, with its own message', async () => {
    const cases: [string, string][] = [
      ['/contact', INQUIRY_MESSAGES.contentTooLong],
      ['/admin-only/login', '보낸 내용이 너무 큽니다'],
      ['/admin-only/setup', '보낸 내용이 너무 큽니다'],
      ['/ads/impressions', '보낸 내용이 너무 큽니다'],
      ['/admin-only/notice', '보낸 내용이 너무 큽니다'],
    ];
    for (const [path, message] of cases) {
      // Find the cap: the largest body the gate lets through (answered by the route, not 413).
      let low = 0;
      let high = 64 * 1024;
      while (high - low > 1) {
        const size = Math.floor((low + high) / 2);
        const status = (await send(path, { method: 'POST', body: `x=${'a'.repeat(size - 2)}` })).status;
        if (status === 413) high = size;
        else low = size;
      }
      const over = await send(path, { method: 'POST', body: `x=${'a'.repeat(high - 2)}` });
      expect(over.status, path).toBe(413);
      expect(await over.text()).toContain(message);
      expect(low, path).toBeLessThan(32 * 1024); // a few KB to a few tens of KB, never megabytes
    }
  }, 60_000);

  it('refuses the JSON skill past 64 KB in JSON, and an image form past its 5.25 MB by its declared length', async () => {
    const skill = await send('/api/kakao/skill', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: '' },
      body: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    });
    expect(skill.status).toBe(413);
    expect(await skill.json()).toEqual({ message: 'Request body over 65536 bytes' });
    const apply = await flood('/ads/apply', 5 * MB + 256 * 1024 + 1);
    expect(apply.status).toBe(413);
    expect(apply.body).toContain('이미지는 5MB 이하만 올릴 수 있습니다.');
  }, 30_000);
});

describe('one client cannot freeze the server with a form repeating one field', () => {
  /** Polls /healthz every 20 ms while `during` runs: its slowest answer, in ms. */
  async function slowestHealthzDuring(during: Promise<unknown>) {
    let done = false;
    void during.finally(() => (done = true));
    let slowest = 0;
    while (!done) {
      const started = performance.now();
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return slowest;
  }

  it('refuses each at once with the form’s answer, /healthz answering meanwhile', async () => {
    const repeatedTitles = new FormData();
    repeatedTitles.append('image', new Blob([new Uint8Array(16)], { type: 'image/png' }), 'a.png');
    for (let i = 0; i < 40_000; i += 1) repeatedTitles.append('title', 'a');
    const cases: [string, () => BodyInit, number, string][] = [
      // Before: 8.7 s, /healthz waiting 8.2 s; the image form now takes multipart only, urlencoded at its text cap.
      ['/ads/apply', () => new URLSearchParams('title=a&'.repeat(40_000)), 413, '광고 접수에 실패했습니다.'],
      ['/ads/apply', () => new URLSearchParams('title=a&'.repeat(30_000)), 400, '광고 접수에 실패했습니다.'],
      ['/ads/apply', () => repeatedTitles, 400, '광고 접수에 실패했습니다.'],
      // Before: 290 ms and 145 ms of the event loop.
      ['/admin-only/login', () => new URLSearchParams('username=a&'.repeat(2_700)), 400, '로그인하지 못했습니다.'],
      ['/contact', () => new URLSearchParams('content=a&'.repeat(2_000)), 400, INQUIRY_MESSAGES.failed],
    ];
    for (const [path, body, status, message] of cases) {
      const started = performance.now();
      const sending = send(path, { method: 'POST', body: body(), ip: '203.0.113.40' });
      const slowest = await slowestHealthzDuring(sending);
      const answer = await sending;
      expect(answer.status, path).toBe(status);
      expect(await answer.text(), path).toContain(message);
      // A few tens of ms on a quiet machine (npm run measure:attack); other test files share the cores.
      expect(performance.now() - started, path).toBeLessThan(3000);
      expect(slowest, path).toBeLessThan(3000);
    }
  }, 120_000);
});

describe('idle connections cannot hold the body budget', () => {
  /**
   * `count` connections from `ip` that each send a POST's headers declaring `length` bytes and
   * `sent` bytes of it; resolves with the sockets and, for each, a promise of its first answer's status
   * (0: closed without one).
   */
  async function holders(count: number, path: string, length: number, sent: number, ip = '127.0.0.1') {
    const contentType = path === '/ads/apply' ? 'multipart/form-data; boundary=x' : 'application/x-www-form-urlencoded';
    return Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<{ socket: Socket; status: Promise<number> }>((resolve) => {
            const socket = connect(Number(new URL(base).port), '127.0.0.1');
            let answer = '';
            const status = new Promise<number>((answered) => {
              socket.on('data', (chunk: Buffer) => {
                answer += chunk.toString('latin1');
                const found = /^HTTP\/1\.1 (\d{3})/.exec(answer);
                if (found) answered(Number(found[1]));
              });
              socket.on('close', () => answered(0));
            });
            socket.on('error', () => undefined);
            socket.write(
              `POST ${path} HTTP/1.1\r\nHost: ${new URL(base).host}\r\nOrigin: ${base}\r\nX-Forwarded-For: ${ip}\r\n` +
                `Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`,
            );
            socket.write(Buffer.alloc(sent, 'a'), () => resolve({ socket, status }));
          }),
      ),
    );
  }

  it('leaves every ordinary POST answered beside 76 idle connections declaring 64 MiB, 12 of them images', async () => {
    // Before: the budget was reserved by what they declared, and every POST was refused 503.
    const image = 5 * MB + 256 * 1024;
    const held = [...(await holders(12, '/ads/apply', image, 1)), ...(await holders(64, '/contact', 16 * 1024, 1))];
    try {
      const ip = '203.0.113.50';
      const impression = await send('/ads/impressions', {
        method: 'POST',
        body: new URLSearchParams({ id: String(adId) }),
        ip,
      });
      expect(impression.status).toBe(204);
      const signIn = await postForm('/admin-only/login', { username: 'nobody', password: 'wrong-password' }, { ip });
      expect(signIn.status).toBe(401);
      const skill = await send('/api/kakao/skill', {
        method: 'POST',
        ip,
        headers: { 'Content-Type': 'application/json', Origin: '', 'X-Kakao-Skill-Secret': 's'.repeat(40) },
        body: readFileSync('tests/fixtures/kakao/request.json', 'utf8'),
      });
      expect(skill.status).toBe(200);
      expect(await skill.json()).not.toEqual(SKILL_BUSY_ANSWER);
      // The inquiry form's own answer (its anti-spam token is missing), not the busy one.
      const inquiry = await postForm('/contact', { content: '문의합니다' }, { ip });
      expect(inquiry.status).toBe(400);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  }, 60_000);

  it('answers 408 to a body that sends nothing for 10 s, and closes its connection', async () => {
    const [held] = await holders(1, '/contact', 20_000, 100);
    const started = performance.now();
    expect(await held.status).toBe(408);
    expect(performance.now() - started).toBeGreaterThan(9_000);
    expect(performance.now() - started).toBeLessThan(15_000);
    await new Promise((resolve) => (held.socket.closed ? resolve(null) : held.socket.once('close', resolve)));
  }, 30_000);

  it('counts the bytes an address, and a network, send against their shares: the image over either is refused, another network’s is taken', async () => {
    const image = 5 * MB + 256 * 1024;
    // Four images of 5 MiB from one address: whichever's bytes go past its 16 MiB is answered 503
    // (the others are held, and would be answered only once idle for 10 s).
    const address = await holders(4, '/ads/apply', image, 5 * MB, '203.0.113.60');
    // Two more from neighbours of its /24: past the network's 24 MiB, one of them is answered 503.
    const neighbours = [
      ...(await holders(1, '/ads/apply', image, 5 * MB, '203.0.113.61')),
      ...(await holders(1, '/ads/apply', image, 5 * MB, '203.0.113.62')),
    ];
    try {
      expect(await Promise.race(address.map(({ status }) => status))).toBe(503);
      expect(await Promise.race(neighbours.map(({ status }) => status))).toBe(503);
      // Another network has its own shares: its image is read whole, and then refused as the broken form it is.
      const other = await send('/ads/apply', {
        method: 'POST',
        ip: '198.51.100.61',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: Buffer.alloc(5 * MB, 'a'),
      });
      expect(other.status).toBe(400);
    } finally {
      for (const { socket } of [...address, ...neighbours]) socket.destroy();
    }
  }, 60_000);
});

describe('the chatbot skill’s places are for Kakao’s calls', () => {
  it('answers 1,100 held requests without the secret 401 at once, taking no place: the next call with it is answered', async () => {
    const port = Number(new URL(base).port);
    const sockets = await Promise.all(
      Array.from(
        { length: 1_100 },
        () =>
          new Promise<{ socket: Socket; status: Promise<number> }>((resolve) => {
            const socket = connect(port, '127.0.0.1');
            socket.on('error', () => undefined);
            const status = new Promise<number>((answered) => {
              socket.once('data', (chunk: Buffer) =>
                answered(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1])),
              );
              socket.once('close', () => answered(0));
            });
            socket.write(
              `POST /api/kakao/skill HTTP/1.1\r\nHost: ${new URL(base).host}\r\nContent-Type: application/json\r\n` +
                `X-Kakao-Skill-Secret: guess\r\nContent-Length: 100\r\n\r\n`,
              () => resolve({ socket, status }),
            );
          }),
      ),
    );
    try {
      expect(new Set(await Promise.all(sockets.map(({ status }) => status)))).toEqual(new Set([401]));
      const skill = await send('/api/kakao/skill', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: '', 'X-Kakao-Skill-Secret': 's'.repeat(40) },
        body: readFileSync('tests/fixtures/kakao/request.json', 'utf8'),
      });
      expect(skill.status).toBe(200);
      expect(await skill.json()).not.toEqual(SKILL_BUSY_ANSWER);
    } finally {
      for (const { socket } of sockets) socket.destroy();
    }
  }, 60_000);

  it('gives a skill call with the secret 5 s for its body, then answers 408', async () => {
    const started = performance.now();
    const status = await raw(
      `POST /api/kakao/skill HTTP/1.1\r\nHost: ${new URL(base).host}\r\nContent-Type: application/json\r\n` +
        `X-Kakao-Skill-Secret: ${'s'.repeat(40)}\r\nContent-Length: 500\r\n\r\n{"intent":`,
    );
    expect(status).toBe(408);
    // Before: held until the 2-minute request timeout; 10 s is the other bodies' idle cut.
    expect(performance.now() - started).toBeGreaterThan(4_500);
    expect(performance.now() - started).toBeLessThan(9_000);
  }, 30_000);
});

describe('the home’s kept pages cannot be emptied', () => {
  it('redirects every other spelling of a view to its one URL, and / stays quick while they are cycled', async () => {
    const values: [string, string[]][] = [
      ['dir', ['up', 'down']],
      ['times', ['all', '1150', '1117', '1303', '1005']],
      ['sort', ['time']],
      ['refresh', ['off']],
    ];
    /** Every home URL of view parameters in any order with any known values. */
    const spellings = (left: typeof values): string[][] =>
      left.length === 0
        ? [[]]
        : left.flatMap(([name, options], index) => {
            const rest = spellings([...left.slice(0, index), ...left.slice(index + 1)]);
            return [
              ...options.flatMap((value) => rest.map((tail) => [`${name}=${value}`, ...tail])),
              ...(index === 0 ? rest : []),
            ];
          });
    const urls = [...new Set(spellings(values).map((pairs) => (pairs.length ? `/?${pairs.join('&')}` : '/')))];
    expect(urls.length).toBeGreaterThan(400);
    const views = new Set<string>();
    let cycling = true;
    const cycle = (async () => {
      while (cycling) {
        for (const url of urls) {
          const answer = await send(url);
          await answer.arrayBuffer();
          expect([200, 301], url).toContain(answer.status);
          views.add(answer.status === 301 ? answer.headers.get('Location')! : url);
        }
      }
    })();
    const times: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const started = performance.now();
      const home = await send('/');
      await home.arrayBuffer();
      expect(home.status).toBe(200);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    cycling = false;
    await cycle;
    expect(views.size).toBe(16);
    for (const view of views) expect((await send(view)).status, view).toBe(200);
    // Before: 891 ms at the median while the spellings were cycled; a few ms on a quiet machine.
    expect(times.sort((a, b) => a - b)[15]).toBeLessThan(300);
  }, 120_000);
});

describe('malformed bodies and unsafe values get a 4xx or 3xx, never a 500', () => {
  it('answers a Host that makes no URL with 400', async () => {
    for (const host of ['a b', '[', 'x:99999', '%']) {
      expect(await raw(`GET / HTTP/1.1\r\nHost: ${host}\r\n\r\n`), host).toBe(400);
    }
  });

  it('caps a body by the path Remix will route: dot segments resolved, an image form’s cap not lent to another route', async () => {
    // `/admin-only/ads/edit/..` is `/admin-only/ads/` to Remix: its cap is 2 KB, not the image form's 5.25 MB.
    for (const path of ['/admin-only/ads/edit/..', '/admin-only/ads/edit/%2e%2e', '/ads/apply/../contact']) {
      const body = 'x'.repeat(100_000);
      const status = await raw(
        `POST ${path} HTTP/1.1\r\nHost: ${new URL(base).host}\r\nOrigin: ${base}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      expect(status, path).toBe(413);
    }
  });

  it('answers 400 to a Host with a path or a query, before reading the body its path would not cap', async () => {
    for (const host of ['127.0.0.1/contact?', `${new URL(base).host}/contact`, 'localhost?x=1']) {
      const status = await raw(
        `POST /ads/impressions HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${base}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3000000\r\n\r\ncontent=`,
      );
      expect(status, host).toBe(400);
    }
  });

  it('answers a broken multipart body with 400 and the form’s message, logged in one line', async () => {
    const before = web.output().length;
    for (const [path, message] of [
      ['/contact', INQUIRY_MESSAGES.failed],
      ['/admin-only/login', '로그인하지 못했습니다.'],
      ['/admin-only/setup', '관리자 계정을 만들지 못했습니다.'],
    ]) {
      const response = await send(path, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nbroken',
      });
      expect(response.status, path).toBe(400);
      expect(await response.text()).toContain(message);
    }
    const logged = web.output().slice(before);
    expect(logged).toMatch(/\[form\] \/contact: unreadable body/);
    expect(logged).not.toMatch(/\n\s+at /); // no stack
  });

  it('sends the admin home after the right password when redirectTo holds CR/LF, with the cookie set', async () => {
    for (const redirectTo of ['/admin-only\r\nSet-Cookie: evil=1', '/admin-only/notice\n', '/admin-only\u0000x']) {
      const response = await postForm('/admin-only/login', { ...ADMIN, redirectTo }, { ip: '203.0.113.90' });
      expect(response.status).toBe(303);
      expect(response.headers.get('Location')).toBe('/admin-only');
      expect(response.headers.get('Set-Cookie')).toMatch(/^__campus_admin_session=[^;]+;/);
      expect(response.headers.get('Set-Cookie')).not.toContain('evil');
    }
  });

  it('refuses a write with neither Origin nor Sec-Fetch-Site (403), and takes one with either', async () => {
    for (const path of ['/contact', '/ads/apply', '/ads/impressions', '/admin-only/login']) {
      const bare = await fetch(`${base}${path}`, { method: 'POST', body: new URLSearchParams({ id: '1' }) });
      expect(bare.status, path).toBe(403);
      expect(await bare.text()).toBe('다른 사이트에서 보낸 요청은 처리하지 않습니다.');
      const crossSite = await send(path, { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site' }, body: 'a=1' });
      expect(crossSite.status, path).toBe(403);
    }
    const sameOrigin = await fetch(`${base}/contact`, {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'content=hi',
      redirect: 'manual',
    });
    expect(sameOrigin.status).toBe(400); // past the gate; the form then wants its anti-spam token
  });
});

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

describe('no page carries a NUL byte', () => {
  it('checks every route of the build, public and admin', async () => {
    const build = (await import(`${process.cwd()}/build/index.js`)) as {
      routes: Record<string, { path?: string; parentId?: string }>;
    };
    const pathOf = (id: string): string => {
      const route = build.routes[id];
      const parent = route.parentId ? pathOf(route.parentId) : '';
      return route.path ? `${parent}/${route.path}`.replace(/\/+/g, '/') : parent || '/';
    };
    const fill = (path: string) =>
      path
        .replace(':type', 'web')
        .replace(':id', '999999') // no such ad or request: a click here counts nothing
        .replace(':key', 'web-00000000-0000-0000-0000-000000000000.png')
        .replace('*', 'no-such-page');
    const paths = new Set(
      Object.keys(build.routes)
        .filter((id) => id !== 'root')
        .map((id) => fill(pathOf(id))),
    );
    for (const extra of [
      '/?dir=down',
      '/?dir=down&times=all&sort=time',
      '/?dir=down&times=all',
      '/contact?sent=1',
      '/ads/apply?submitted=1',
      '/admin-only/ads/kakao',
      '/admin-only/ads/edit/kakao',
      '/admin-only/setup?token=x',
    ]) {
      paths.add(extra);
    }
    expect(paths.size).toBeGreaterThan(25);
    for (const path of paths) {
      const response = await send(path, { headers: { Cookie: adminCookie } });
      expect(response.status, path).toBeLessThan(500);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.indexOf(0), path).toBe(-1);
    }
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
          if (signedIn) headers.Cookie = adminCookie;
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
      `POST ${path} HTTP/1.1\r\nHost: ${new URL(base).host}\r\nOrigin: ${base}\r\n` +
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

describe('conditional GETs and the private pages’ headers', () => {
  it('answers 304 to an If-None-Match holding the strong form of the home page’s weak ETag, from fetch() or as raw bytes', async () => {
    // The page is made again each second: one try may straddle the turn, so up to five.
    const tries: { viaFetch: number; raw: number }[] = [];
    while (tries.length < 5 && !tries.some((one) => one.viaFetch === 304 && one.raw === 304)) {
      const page = await send('/');
      expect(page.status).toBe(200);
      await page.arrayBuffer();
      const etag = page.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      const strong = etag.slice(2);

      // fetch() adds Cache-Control: no-cache and Pragma: no-cache to a request with an If-None-Match.
      const revalidated = await send('/', { headers: { 'If-None-Match': strong } });
      const body = await revalidated.text();
      if (revalidated.status === 304) expect(body).toBe('');
      else expect(revalidated.headers.get('etag')).not.toBe(etag); // the turn of the second, not a refusal
      // The same request as bytes, with no Cache-Control, and a list with a tab before the tag.
      const status = await raw(
        `GET / HTTP/1.1\r\nHost: ${new URL(base).host}\r\nIf-None-Match: "other",\t${strong}\r\n` +
          'Connection: close\r\n\r\n',
      );
      tries.push({ viaFetch: revalidated.status, raw: status });
    }
    expect(tries).toContainEqual({ viaFetch: 304, raw: 304 });
  });

  it('sends one Referrer-Policy, no-referrer, on an ad’s status page (its URL holds the secret token)', async () => {
    // A token of the right shape that names no request: the page's 404, which carries the page's headers.
    const page = await send(`/ads/status/${'A'.repeat(43)}`);
    expect(page.status).toBe(404);
    await page.arrayBuffer();
    // fetch() joins repeated headers with ", ": two would read "same-origin, no-referrer".
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    // Every other page keeps the site's policy.
    const faq = await send('/faq');
    await faq.arrayBuffer();
    expect(faq.headers.get('referrer-policy')).toBe('same-origin');
  });
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
    const list = await send('/admin-only/inquiries', { headers: { Cookie: adminCookie } });
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
    const requests = await send('/admin-only/ads/web', { headers: { Cookie: adminCookie } });
    expect(await requests.text()).not.toContain('캠퍼스 카페');
  });

  it('admin sign-in: a NUL in the username gets 400 with its message (not 502), and the log has no NUL and no stack', async () => {
    const before = web.output().length;
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
    const logged = web.output().slice(before);
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
      const click = await send(`/ads/click/${adId}`, { headers: { 'User-Agent': 'attack-phone/1' }, ip: '192.0.2.30' });
      expect(click.status).toBe(302);
      expect(click.headers.get('Location')).toBe('https://shop.example/menu');
    }
    // The figures are in the database; the embedded one belongs to the server until it stops.
    web.child.kill('SIGTERM');
    expect((await web.exited()).code).toBe(0);
    const database = await openDatabase({ dataDir });
    try {
      const [counted] = await database.db.select().from(adDailyCounts).where(eq(adDailyCounts.adId, adId));
      expect(counted.clicks).toBe(1);
      // Nothing the fuzz sent was stored.
      expect((await database.db.select({ n: count() }).from(inquiries))[0].n).toBe(0);
      expect((await database.db.select({ n: count() }).from(adRequests))[0].n).toBe(0);
    } finally {
      await database.close();
    }
  }, 60_000);
});
