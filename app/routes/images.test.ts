/**
 * GET /images/:key against the real api in-process: an image uploaded through the api (presign,
 * signed PUT) is served on the web's origin byte for byte with the api's safety headers; anything
 * else is 404, and keys the server could not have chosen never reach the api.
 */
import { randomUUID } from 'node:crypto';
import { loader } from '~/routes/images.$key';
import { startWebApi, TINY_PNG, type WebApi } from '../../tests/setup/web-api';

let api: WebApi;
beforeAll(async () => {
  api = await startWebApi();
});
afterAll(() => api.close());

const get = (key: string) =>
  loader({
    request: new Request(`http://web.test/images/${encodeURIComponent(key)}`),
    context: api.context(),
    params: { key },
  });

describe('GET /images/:key', () => {
  // X-Content-Type-Options: nosniff is set on every response by the edge (helmet), not by this
  // loader; tests/e2e/ads-apply.spec.ts checks it on a served image.
  it('serves an uploaded image byte for byte, as an immutable, sandboxed PNG', async () => {
    const { key, imageUrl } = await api.uploadImage('web');
    expect(imageUrl).toBe(`/images/${key}`);
    const response = await get(key);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(TINY_PNG);
    expect(response.headers.get('Content-Type')).toBe('image/png');
    expect(response.headers.get('Content-Length')).toBe(String(TINY_PNG.byteLength));
    expect(response.headers.get('Cache-Control')).toMatch(/\bimmutable\b/);
    expect(response.headers.get('Cache-Control')).toMatch(/\bmax-age=31536000\b/);
    expect(response.headers.get('Content-Security-Policy')).toContain('sandbox');
    // Nothing else of the api's answer is passed on.
    expect(response.headers.get('Set-Cookie')).toBeNull();
  });

  it('answers 404 (not cached) for a well-formed key the api does not know', async () => {
    const calls = api.calls.length;
    const response = await get(`web-${randomUUID()}.png`);
    expect(response.status).toBe(404);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(api.calls.length).toBe(calls + 1);
  });

  it('answers 404 for an image issued but never uploaded', async () => {
    const presign = await api.app.request('http://api.internal/api/s3/presigned-url/image', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.9' },
      body: JSON.stringify({ type: 'kakao', extension: 'png', byteSize: TINY_PNG.byteLength }),
    });
    const { imageUrl } = (await presign.json()) as { imageUrl: string };
    expect((await get(imageUrl.slice('/images/'.length))).status).toBe(404);
  });

  it.each([
    '../etc/passwd',
    '..%2Fetc%2Fpasswd',
    'x.svg',
    'web-abc.png',
    `web-${randomUUID()}.svg`,
    `web-${randomUUID()}.png/../../x`,
    `WEB-${randomUUID()}.png`,
    `web-${randomUUID()}.PNG`,
    `web-${randomUUID()}.png?x=1`,
    `.web-${randomUUID()}.png`,
    '',
  ])('answers 404 for the key %j without calling the api', async (key) => {
    const calls = api.calls.length;
    const response = await get(key);
    expect(response.status).toBe(404);
    expect(api.calls.length).toBe(calls);
  });

  it('answers 502 (and logs) when the api cannot be reached', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const key = `web-${randomUUID()}.png`;
    const context = api.context();
    context.api = { ...context.api, fetch: () => Promise.reject(new TypeError('fetch failed')) };
    const response = await loader({ request: new Request(`http://web.test/images/${key}`), context, params: { key } });
    expect(response.status).toBe(502);
    expect(log).toHaveBeenCalledWith('[images] api unreachable:', expect.stringContaining('GET /api/images/'));
    log.mockRestore();
  });
});
