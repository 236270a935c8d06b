/**
 * GET /ads/click/:id against an msw stand-in for the api: the click is counted by the api, and the
 * redirect goes only to the http(s) link the api answers (never to anything from the request).
 * Then against the real api: a phone's clicks count once a day, and every click is redirected,
 * counted or not.
 */
import type { AppLoadContext } from '@remix-run/node';
import { http, HttpResponse } from 'msw';
import { listManagedAds } from '~/models/ads.server';
import { loader } from '~/routes/ads.click.$id';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';
import { adminContext, seedAd } from '../../tests/setup/admin-web';
import { startWebApi, type WebApi } from '../../tests/setup/web-api';

const server = setupApiServer();
const clicksUrl = `${API_BASE_URL}/api/ads/:id/clicks`;

/** The phone each request of the last clicksHandler came from, as the api saw it. */
const phones: { forwardedFor: string | null; userAgent: string | null }[] = [];

/** The api answering POST /api/ads/:id/clicks with `answer`, recording the ids it was asked about. */
function clicksHandler(answer: () => Response) {
  const ids: string[] = [];
  phones.length = 0;
  server.use(
    http.post(clicksUrl, ({ params, request }) => {
      ids.push(String(params.id));
      phones.push({
        forwardedFor: request.headers.get('X-Forwarded-For'),
        userAgent: request.headers.get('User-Agent'),
      });
      return answer();
    }),
  );
  return ids;
}

const click = (id: string, query = '', init: RequestInit = {}, context: AppLoadContext = apiContext()) =>
  loader({ request: new Request(`http://web.test/ads/click/${id}${query}`, init), context, params: { id } });

describe('GET /ads/click/:id', () => {
  it('counts the click in the api and redirects (302, no-store) to the ad’s link', async () => {
    const ids = clicksHandler(() => HttpResponse.json({ redirectUrl: 'https://shop.example/menu' }));
    const response = await click('7');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('https://shop.example/menu');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(ids).toEqual(['7']);
  });

  it('answers 404 when the api has no such ad', async () => {
    clicksHandler(() => HttpResponse.json({ message: 'No such ad with a link in its period' }, { status: 404 }));
    const response = await click('7');
    expect(response.status).toBe(404);
    expect(response.headers.get('Location')).toBeNull();
    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example',
    '/relative/path',
    '',
  ])('never redirects to a link that is not http(s) (%j): 404', async (redirectUrl) => {
    clicksHandler(() => HttpResponse.json({ redirectUrl }));
    const response = await click('7');
    expect(response.status).toBe(404);
    expect(response.headers.get('Location')).toBeNull();
  });

  it('answers 502 when the api answers off-contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    clicksHandler(() => HttpResponse.json({ url: 'https://shop.example/menu' }));
    const response = await click('7');
    expect(response.status).toBe(502);
    expect(response.headers.get('Location')).toBeNull();
  });

  it.each(['abc', '1e3', '-1', '0x7', '7.0', ' 7', '', '99999999999999999999', '9007199254740993'])(
    'answers 404 for the id %j without calling the api',
    async (id) => {
      const ids = clicksHandler(() => HttpResponse.json({ redirectUrl: 'https://shop.example/menu' }));
      const response = await click(id);
      expect(response.status).toBe(404);
      expect(response.headers.get('Location')).toBeNull();
      expect(ids).toEqual([]);
    },
  );

  it('ignores a target in the query: only the api’s link is followed', async () => {
    clicksHandler(() => HttpResponse.json({ redirectUrl: 'https://shop.example/menu' }));
    const response = await click('7', '?url=https://evil.example&redirectUrl=https://evil.example');
    expect(response.headers.get('Location')).toBe('https://shop.example/menu');
  });

  it('answers 502 (and logs) when the api is down', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    clicksHandler(() => HttpResponse.error());
    const response = await click('7');
    expect(response.status).toBe(502);
    expect(response.headers.get('Location')).toBeNull();
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(log).toHaveBeenCalledWith('[ads/click] api failed:', expect.stringContaining('POST /api/ads/7/clicks'));
  });

  it('answers 502 when the api fails with 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    clicksHandler(() => HttpResponse.json({ message: 'Internal server error' }, { status: 500 }));
    expect((await click('7')).status).toBe(502);
  });

  it('passes the phone’s address and User-Agent on to the api, which counts a click once per phone per day', async () => {
    clicksHandler(() => HttpResponse.json({ redirectUrl: 'https://shop.example/menu' }));
    const userAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';
    const context = { ...apiContext(), clientIp: '203.0.113.9' };
    expect((await click('7', '', { headers: { 'User-Agent': userAgent } }, context)).status).toBe(302);
    expect(phones).toEqual([{ forwardedFor: '203.0.113.9', userAgent }]);
  });
});

describe('GET /ads/click/:id through the real api', () => {
  const TOKEN = 's'.repeat(40);
  let api: WebApi;
  beforeAll(async () => {
    api = await startWebApi({ serviceToken: TOKEN });
  });
  afterAll(() => api.close());

  /** A click on ad `id` from the phone at `ip` with `userAgent`. */
  const clickFrom = (id: number, ip: string, userAgent: string) =>
    loader({
      request: new Request(`http://web.test/ads/click/${id}`, { headers: { 'User-Agent': userAgent } }),
      context: api.context({ clientIp: ip }),
      params: { id: String(id) },
    });
  const clicksOf = async (id: number) =>
    (await listManagedAds(adminContext(api, TOKEN), 'test', 'web')).find((ad) => ad.id === id)?.clicks;

  it('redirects 30 clicks of one phone on one ad to its link and counts them once', async () => {
    const id = await seedAd(api, 'web');
    for (let i = 0; i < 30; i += 1) {
      const response = await clickFrom(id, '203.0.113.40', 'Mozilla/5.0 (iPhone)');
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('https://cafe.example.com/menu');
    }
    expect(await clicksOf(id)).toBe(1);
  });

  it('still redirects the 31st click from one address in 10 minutes to the ad’s link, uncounted', async () => {
    const id = await seedAd(api, 'web');
    // Each User-Agent is another phone behind the address: 30 count, the 31st is over the limit.
    for (let i = 0; i < 31; i += 1) {
      const response = await clickFrom(id, '203.0.113.41', `phone/${i}`);
      expect(response.status, `click ${i + 1}`).toBe(302);
      expect(response.headers.get('Location')).toBe('https://cafe.example.com/menu');
    }
    expect(await clicksOf(id)).toBe(30);
  });
});
