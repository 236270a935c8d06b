import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SCRIPT_HASHES_HEADER } from '~/server/csp.server';
import { createHomePages } from '~/server/home-page-cache.server';
import { HOME_VIEWS } from '~/utils/home-view';
import { SHARED_ANSWER_MAX_AGE_MS } from '~/server/shared-answer.server';
import { rawServer } from '../../tests/setup/raw-http';

const SECURITY = { 'x-content-type-options': 'nosniff' };

/**
 * The home pages behind a real HTTP server, on a render that numbers its pages and counts them per
 * URL; a request the pages do not serve is answered 404 by "the rest of the app".
 */
async function setUp() {
  let nowMs = Date.parse('2026-11-23T08:00:00+09:00');
  const renders = new Map<string, number>();
  const render = async (url: string, locale: string) => {
    const key = locale === 'ko' ? url : `${locale} ${url}`;
    const count = (renders.get(key) ?? 0) + 1;
    renders.set(key, count);
    return new Response(`<html lang="${locale}"><body>${url} #${count}<script>go(${count})</script></body></html>`, {
      headers: {
        'content-language': locale,
        vary: 'Accept-Language, Cookie',
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        [SCRIPT_HASHES_HEADER]: `'sha256-${count}'`,
      },
    });
  };
  const pages = createHomePages({
    render,
    documentHeaders: (hashes) => ({ ...SECURITY, 'content-security-policy': `script-src 'self' ${hashes}` }),
    nowMs: () => nowMs,
  });
  const server = await rawServer((req, res) => {
    if (pages.serves(req)) void pages.serve(req, res);
    else res.writeHead(404).end();
  });
  return { ...server, renders, advance: (ms: number) => (nowMs += ms) };
}

let home: Awaited<ReturnType<typeof setUp>>;
afterEach(() => home?.close());

describe('the home pages (made once a second per view)', () => {
  it('renders each view once a second however many phones ask, and again in the next second', async () => {
    home = await setUp();
    const answers = await Promise.all(Array.from({ length: 100 }, () => home.get('/?dir=down')));
    expect(new Set(answers.map((answer) => answer.body.toString()))).toEqual(
      new Set(['<html lang="ko"><body>/?dir=down #1<script>go(1)</script></body></html>']),
    );
    await home.get('/');
    await home.get('/?dir=down&times=1150');
    expect(Object.fromEntries(home.renders)).toEqual({ '/?dir=down': 1, '/': 1, '/?dir=down&times=1150': 1 });

    home.advance(SHARED_ANSWER_MAX_AGE_MS);
    expect((await home.get('/?dir=down')).body.toString()).toContain('#2');
    expect(home.renders.get('/?dir=down')).toBe(2);
  });

  it('keeps a page per language: the switch’s choice, else the phone’s', async () => {
    home = await setUp();
    const english = await Promise.all([
      home.get('/?dir=down', { 'accept-language': 'en-US,en;q=0.9' }),
      home.get('/?dir=down', { cookie: 'lang=en', 'accept-language': 'ko-KR' }),
    ]);
    const korean = await home.get('/?dir=down', { 'accept-language': 'ko-KR,en;q=0.5' });
    for (const answer of english) expect(answer.body.toString()).toContain('<html lang="en"><body>/?dir=down #1');
    expect(korean.body.toString()).toContain('<html lang="ko"><body>/?dir=down #1');
    expect(english[0].headers.etag).not.toBe(korean.headers.etag);
    expect(Object.fromEntries(home.renders)).toEqual({ 'en /?dir=down': 1, '/?dir=down': 1 });
  });

  it('sends the page compressed once in the encoding the phone prefers, with its headers and the document’s', async () => {
    home = await setUp();
    const br = await home.get('/', { 'accept-encoding': 'gzip, br' });
    const gzip = await home.get('/', { 'accept-encoding': 'gzip' });
    const html = '<html lang="ko"><body>/ #1<script>go(1)</script></body></html>';
    expect(brotliDecompressSync(br.body).toString()).toBe(html);
    expect(gunzipSync(gzip.body).toString()).toBe(html);
    for (const [answer, encoding] of [
      [br, 'br'],
      [gzip, 'gzip'],
    ] as const) {
      expect(answer.headers).toMatchObject({
        ...SECURITY,
        'content-security-policy': "script-src 'self' 'sha256-1'",
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-encoding': encoding,
        'content-language': 'ko',
        vary: 'Accept-Language, Cookie, Accept-Encoding',
        etag: br.headers.etag,
      });
    }
    expect(br.headers[SCRIPT_HASHES_HEADER]).toBeUndefined();
    const head = await home.get('/', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toHaveLength(0);
    expect(home.renders.get('/')).toBe(1);
  });

  it('answers 304 with no body to a phone that holds the page of this second', async () => {
    home = await setUp();
    const first = await home.get('/');
    const again = await home.get('/', { 'if-none-match': first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body).toHaveLength(0);
    home.advance(SHARED_ANSWER_MAX_AGE_MS);
    expect((await home.get('/', { 'if-none-match': first.headers.etag })).status).toBe(200);
  });

  it('keeps pages only of the home made of view parameters with values it knows; the rest is rendered per request', async () => {
    home = await setUp();
    for (const path of ['/?dir=down&times=all&sort=time', '/?refresh=off', '/?dir=down&times=1303']) {
      expect((await home.get(path)).status, path).toBe(200);
    }
    for (const path of [
      '/?dir=sideways',
      '/?dir=up&dir=down',
      '/?utm_source=kakao',
      '/?constructor=x',
      '/faq',
      '/?dir=up?x',
    ]) {
      expect((await home.get(path)).status, path).toBe(404);
    }
    expect((await home.get('/', {}, 'POST')).status).toBe(404);
  });

  it('redirects every other spelling of a view to its one URL, rendering nothing', async () => {
    home = await setUp();
    for (const [path, view] of [
      ['/?refresh=off&dir=down', '/?dir=down&refresh=off'],
      ['/?times=1303&dir=down', '/?dir=down&times=1303'],
      ['/?dir=up', '/'],
      ['/?d%69r=down', '/?dir=down'],
      ['/?times=all', '/'], // the modal opens on the down tab only
      ['/?dir=down&times=1150&sort=time', '/?dir=down&times=1150'], // the sort is the `all` filter's
      ['/?sort=time&refresh=off&times=all&dir=down', '/?dir=down&times=all&sort=time&refresh=off'],
    ]) {
      const answer = await home.get(path);
      expect(answer.status, path).toBe(301);
      expect(answer.headers.location, path).toBe(view);
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      expect((await home.get(view)).status, view).toBe(200);
    }
    expect(home.renders.size).toBe(6);
  });

  it('keeps a page for every view at once: asking for each in turn renders each once in its second', async () => {
    home = await setUp();
    for (let round = 0; round < 3; round += 1) {
      for (const search of HOME_VIEWS) expect((await home.get(search ? `/?${search}` : '/')).status).toBe(200);
    }
    expect(HOME_VIEWS.length).toBe(16);
    expect(new Set(home.renders.values())).toEqual(new Set([1]));
    expect(home.renders.size).toBe(HOME_VIEWS.length);
  });
});
