/**
 * GET /ads/click/:id (a banner click, docs/product.md §4.3) against the real api in-process: the
 * click is counted once per phone (address and User-Agent, passed on) per day and within its
 * address's limit, and redirected to the ad's stored link, counted or not; never to anything from
 * the request. Then against an msw stand-in, what the real api would never answer: a link that is
 * not http(s), an off-contract body, a 500, and being down.
 */
import { http, HttpResponse } from 'msw';
import { loader } from '~/routes/ads.click.$id';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';
import { adCountsOf, seedAd, visitFromFourPhones } from '../../tests/setup/admin-web';
import { webApiFor } from '../../tests/setup/web-api';

/** The msw stand-in for the last describe; it also restores the console spies after every test. */
const server = setupApiServer();

describe('GET /ads/click/:id through the real api', () => {
  const TOKEN = 's'.repeat(40);
  const api = webApiFor({ serviceToken: TOKEN });
  beforeEach(() => {
    api().calls.length = 0;
  });

  /** A click on ad `id` (with `query`) from the phone at `ip` with `userAgent`. */
  const clickFrom = (id: number | string, ip: string, userAgent: string, query = '') =>
    loader({
      request: new Request(`http://web.test/ads/click/${id}${query}`, { headers: { 'User-Agent': userAgent } }),
      context: api().context({ clientIp: ip }),
      params: { id: String(id) },
    });
  const clicksOf = async (id: number) => (await adCountsOf(api(), TOKEN, id)).clicks;

  it('redirects 30 clicks of one phone on one ad to its link (302, no-store) and counts them once', async () => {
    const id = await seedAd(api(), 'web');
    for (let i = 0; i < 30; i += 1) {
      const response = await clickFrom(id, '203.0.113.40', 'Mozilla/5.0 (iPhone)');
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('https://cafe.example.com/menu');
      expect(response.headers.get('Cache-Control')).toBe('no-store');
    }
    expect(await clicksOf(id)).toBe(1);
  });

  it('still redirects the 31st click from one address in 10 minutes to the ad’s link, uncounted', async () => {
    const id = await seedAd(api(), 'web');
    // Each User-Agent is another phone behind the address: 30 count, the 31st is over the limit.
    for (let i = 0; i < 31; i += 1) {
      const response = await clickFrom(id, '203.0.113.41', `phone/${i}`);
      expect(response.status, `click ${i + 1}`).toBe(302);
      expect(response.headers.get('Location')).toBe('https://cafe.example.com/menu');
    }
    expect(await clicksOf(id)).toBe(30);
  });

  it('passes the phone’s address and User-Agent on: the api counts one click per address and User-Agent', async () => {
    const id = await seedAd(api(), 'web');
    const statuses = await visitFromFourPhones(
      (ip, userAgent) => clickFrom(id, ip, userAgent),
      ['203.0.113.42', '203.0.113.43'],
    );
    expect(statuses).toEqual([302, 302, 302, 302]); // every click redirects, counted or not
    expect(await clicksOf(id)).toBe(3);
  });

  it('answers 404 (no-store, no Location) for an ad the api does not serve', async () => {
    const id = await seedAd(api(), 'web');
    const response = await clickFrom(id + 1000, '203.0.113.44', 'Mozilla/5.0 (iPhone)');
    expect(response.status).toBe(404);
    expect(response.headers.get('Location')).toBeNull();
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(api().calls.map((request) => new URL(request.url).pathname)).toEqual([`/api/ads/${id + 1000}/clicks`]);
  });

  it.each(['abc', '1e3', '-1', '0x7', '7.0', ' 7', '', '99999999999999999999', '9007199254740993'])(
    'answers 404 for the id %j without calling the api',
    async (id) => {
      const response = await clickFrom(id, '203.0.113.45', 'Mozilla/5.0 (iPhone)');
      expect(response.status).toBe(404);
      expect(response.headers.get('Location')).toBeNull();
      expect(api().calls).toEqual([]);
    },
  );

  it('ignores a target in the query: only the ad’s stored link is followed', async () => {
    const id = await seedAd(api(), 'web');
    const query = '?url=https://evil.example&redirectUrl=https://evil.example';
    const response = await clickFrom(id, '203.0.113.46', 'Mozilla/5.0 (iPhone)', query);
    expect(response.headers.get('Location')).toBe('https://cafe.example.com/menu');
  });
});

/** The api answering POST /api/ads/:id/clicks with `answer` (msw). */
const clicksAnswer = (answer: () => Response) => server.use(http.post(`${API_BASE_URL}/api/ads/:id/clicks`, answer));
const click = (id: string) =>
  loader({ request: new Request(`http://web.test/ads/click/${id}`), context: apiContext(), params: { id } });

describe('GET /ads/click/:id when the api answers oddly or not at all (msw)', () => {
  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example',
    '/relative/path',
    '',
  ])('never redirects to a link that is not http(s) (%j): 404', async (redirectUrl) => {
    clicksAnswer(() => HttpResponse.json({ redirectUrl }));
    const response = await click('7');
    expect(response.status).toBe(404);
    expect(response.headers.get('Location')).toBeNull();
  });

  it('answers 502 when the api answers off-contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    clicksAnswer(() => HttpResponse.json({ url: 'https://shop.example/menu' }));
    const response = await click('7');
    expect(response.status).toBe(502);
    expect(response.headers.get('Location')).toBeNull();
  });

  it('answers 502 (and logs) when the api is down', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    clicksAnswer(() => HttpResponse.error());
    const response = await click('7');
    expect(response.status).toBe(502);
    expect(response.headers.get('Location')).toBeNull();
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(log).toHaveBeenCalledWith('[ads/click] api failed:', expect.stringContaining('POST /api/ads/7/clicks'));
  });

  it('answers 502 when the api fails with 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    clicksAnswer(() => HttpResponse.json({ message: 'Internal server error' }, { status: 500 }));
    expect((await click('7')).status).toBe(502);
  });
});
