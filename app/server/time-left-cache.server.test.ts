import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SHARED_ANSWER_MAX_AGE_MS } from '~/server/shared-answer.server';
import { createTimeLeftAnswers } from '~/server/time-left-cache.server';
import { timeLeftBody } from '../../tests/mocks/api';
import { rawServer } from '../../tests/setup/raw-http';

const BUS_LOAD_FAILED = '버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.';
const SECURITY = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'self'" };

/** The route behind a real HTTP server, on an api that answers `next()` and counts its calls. */
async function setUp(next: () => Response | Promise<Response> = () => Response.json(timeLeftBody)) {
  let nowMs = Date.parse('2026-11-23T08:00:00+09:00');
  const api = { calls: 0, baseUrl: 'http://api.internal', fetch: async () => (api.calls++, next()) };
  const failures = { fail: vi.fn(), ok: vi.fn() };
  const answers = createTimeLeftAnswers({ api, headers: SECURITY, failures, nowMs: () => nowMs });
  const { get: rawGet, close } = await rawServer((req, res) => void answers.serve(req, res));
  /** One raw answer (body as sent, still compressed). */
  const get = (headers: Record<string, string> = {}, method = 'GET') => rawGet('/bus/time-left', headers, method);
  return {
    api,
    failures,
    answers,
    get,
    advance: (ms: number) => (nowMs += ms),
    close,
  };
}

let route: Awaited<ReturnType<typeof setUp>>;
afterEach(() => route?.close());

describe('GET /bus/time-left (the shared answer)', () => {
  it('asks the api once per second however many phones ask, renewing ahead of the second’s turn', async () => {
    let calls = 0;
    const numbered = () => Response.json({ ...timeLeftBody, feed: { ...timeLeftBody.feed!, ageSec: ++calls } });
    route = await setUp(numbered);
    const answers = await Promise.all(Array.from({ length: 200 }, () => route.get()));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(route.api.calls).toBe(1);
    const ageSec = async () => JSON.parse((await route.get()).body.toString()).feed.ageSec as number;

    route.advance(799);
    expect(await ageSec()).toBe(1);
    expect(route.api.calls).toBe(1);
    // From 800 ms on, a request still gets the current answer and the next one is asked in the background.
    route.advance(1);
    expect(await ageSec()).toBe(1);
    await vi.waitFor(() => expect(route.api.calls).toBe(2));
    // The renewed answer is served once it is made, its compression done (off the serving thread).
    await vi.waitFor(async () => expect(await ageSec()).toBe(2));
    expect(route.api.calls).toBe(2);
  });

  it('never serves an answer a second old: at the turn, requests wait for the next one', async () => {
    let release = () => {};
    let calls = 0;
    route = await setUp(async () => {
      calls += 1;
      if (calls > 1) await new Promise<void>((resolve) => (release = resolve));
      return Response.json({ ...timeLeftBody, feed: { ...timeLeftBody.feed!, ageSec: calls } });
    });
    await route.get();
    route.advance(SHARED_ANSWER_MAX_AGE_MS);
    const waiting = route.get();
    await vi.waitFor(() => expect(route.api.calls).toBe(2));
    release();
    expect(JSON.parse((await waiting).body.toString()).feed.ageSec).toBe(2);
  });

  it('sends the same bytes in the encoding the phone prefers, with the security headers', async () => {
    route = await setUp();
    const json = JSON.parse(JSON.stringify(timeLeftBody));
    const br = await route.get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(json);
    const gzip = await route.get({ 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(json);
    const plain = await route.get({ 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(json);
    for (const answer of [br, gzip, plain]) {
      expect(answer.headers).toMatchObject({
        ...SECURITY,
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
        'content-length': String(answer.body.length),
        etag: br.headers.etag,
      });
    }
    expect(br.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    // The same bytes to every phone while the answer is current.
    expect((await route.get({ 'accept-encoding': 'br' })).body.equals(br.body)).toBe(true);
  });

  it('answers an unchanged poll with 304 and no body, a changed one with the new answer', async () => {
    let body = timeLeftBody;
    route = await setUp(() => Response.json(body));
    const first = await route.get({ 'accept-encoding': 'br' });
    const again = await route.get({ 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers).toMatchObject({ etag: first.headers.etag, ...SECURITY });
    expect(again.headers['content-encoding']).toBeUndefined();

    body = { ...timeLeftBody, feed: { ...timeLeftBody.feed!, ageSec: 1 } };
    route.advance(SHARED_ANSWER_MAX_AGE_MS);
    const changed = await route.get({ 'if-none-match': first.headers.etag });
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.body.toString()).feed.ageSec).toBe(1);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it('answers HEAD with the headers only', async () => {
    route = await setUp();
    const head = await route.get({}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(timeLeftBody))));
  });

  it('passes stale data through marked stale', async () => {
    const stale = { ...timeLeftBody, feed: { ...timeLeftBody.feed!, stale: true } };
    route = await setUp(() => Response.json(stale));
    const answer = await route.get();
    expect(JSON.parse(answer.body.toString()).feed.stale).toBe(true);
    expect((await route.answers.current()).data?.feed?.stale).toBe(true);
  });

  it('answers the 502 with the bus load failure message while the api fails, tells each failure, and recovers', async () => {
    let up = false;
    route = await setUp(() => (up ? Response.json(timeLeftBody) : Response.json({ message: 'down' }, { status: 503 })));
    const failed = await route.get({ 'accept-encoding': 'gzip' });
    expect(failed.status).toBe(502);
    expect(JSON.parse(gunzipSync(failed.body).toString())).toEqual({ message: BUS_LOAD_FAILED });
    expect(failed.headers).toMatchObject({ 'cache-control': 'no-store', ...SECURITY });
    expect(failed.headers.etag).toBeUndefined();
    expect((await route.answers.current()).data).toBeNull();
    expect(route.failures.fail).toHaveBeenCalledWith('GET /api/bus/timeLeft: HTTP 503');

    up = true;
    route.advance(SHARED_ANSWER_MAX_AGE_MS);
    expect((await route.get()).status).toBe(200);
    expect(route.failures.ok).toHaveBeenCalledTimes(1);
    expect(route.api.calls).toBe(2);
  });
});
