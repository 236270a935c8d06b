/**
 * Malformed requests, replayed against the built web (tests/setup/attack-server.ts): the home's kept
 * pages cannot be emptied; a broken Host, multipart body, redirectTo or a write without Origin get a
 * 4xx or 3xx, never a 5xx; conditional GETs and the private pages' headers; no page carries a NUL byte.
 */
import { INQUIRY_MESSAGES } from '../contract/inquiries';
import { ADMIN, attackServerFor } from './setup/attack-server';

const { web, base, adminCookie, send, raw, postForm } = attackServerFor();

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
        `POST ${path} HTTP/1.1\r\nHost: ${new URL(base()).host}\r\nOrigin: ${base()}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      expect(status, path).toBe(413);
    }
  });

  it('answers 400 to a Host with a path or a query, before reading the body its path would not cap', async () => {
    for (const host of ['127.0.0.1/contact?', `${new URL(base()).host}/contact`, 'localhost?x=1']) {
      const status = await raw(
        `POST /ads/impressions HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${base()}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3000000\r\n\r\ncontent=`,
      );
      expect(status, host).toBe(400);
    }
  });

  it('answers a broken multipart body with 400 and the form’s message, logged in one line', async () => {
    const before = web().output().length;
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
    const logged = web().output().slice(before);
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
      const bare = await fetch(`${base()}${path}`, { method: 'POST', body: new URLSearchParams({ id: '1' }) });
      expect(bare.status, path).toBe(403);
      expect(await bare.text()).toBe('다른 사이트에서 보낸 요청은 처리하지 않습니다.');
      const crossSite = await send(path, { method: 'POST', headers: { 'Sec-Fetch-Site': 'cross-site' }, body: 'a=1' });
      expect(crossSite.status, path).toBe(403);
    }
    const sameOrigin = await fetch(`${base()}/contact`, {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'content=hi',
      redirect: 'manual',
    });
    expect(sameOrigin.status).toBe(400); // past the gate; the form then wants its anti-spam token
  });
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
      const response = await send(path, { headers: { Cookie: adminCookie() } });
      expect(response.status, path).toBeLessThan(500);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.indexOf(0), path).toBe(-1);
    }
  }, 60_000);
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
        `GET / HTTP/1.1\r\nHost: ${new URL(base()).host}\r\nIf-None-Match: "other",\t${strong}\r\n` +
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

describe('what browsers and crawlers ask for unprompted', () => {
  it('answers /favicon.ico with the icon and /robots.txt with what may not be crawled', async () => {
    const favicon = await send('/favicon.ico');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect([...new Uint8Array(await favicon.arrayBuffer()).slice(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO header
    const robots = await send('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    const rules = await robots.text();
    for (const path of ['/admin-only', '/api/', '/ads/status/']) expect(rules).toContain(`Disallow: ${path}`);
  });
});
