/**
 * POST /ads/impressions (the banner's same-origin beacon, docs/product.md §4.3) against the real api
 * in-process: a same-origin beacon counts a served ad's impression once per phone (address and
 * User-Agent, passed on) per day; an ad the api does not serve answers 404, and an address over its
 * limit 429; posts that do not show they are same-origin, cross-site posts and bad ids never reach
 * the api. Then against an msw stand-in, what the real api does not answer: a 5xx, and being down.
 */
import type { AppLoadContext } from '@remix-run/node';
import { http, HttpResponse } from 'msw';
import { action } from '~/routes/ads.impressions';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';
import { adCountsOf, seedAd, visitFromFourPhones } from '../../tests/setup/admin-web';
import { webApiFor } from '../../tests/setup/web-api';

/** What a browser sends with the banner's beacon: its own Origin and Sec-Fetch-Site. */
const SAME_ORIGIN = { Origin: 'http://web.test', 'Sec-Fetch-Site': 'same-origin' };

/** The answer to a beacon: what the action returns, or the Response it throws (as Remix answers it). */
function beacon(body: BodyInit | null, headers: Record<string, string>, context: AppLoadContext): Promise<Response> {
  const request = new Request('http://web.test/ads/impressions', { method: 'POST', body, headers });
  return action({ request, context, params: {} }).catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });
}
const form = (id: number | string) => new URLSearchParams({ id: String(id) });

/** The msw stand-in for the last describe; it also restores the console spies after every test. */
const server = setupApiServer();

describe('POST /ads/impressions through the real api', () => {
  const TOKEN = 's'.repeat(40);
  const api = webApiFor({ serviceToken: TOKEN });
  beforeEach(() => {
    api().calls.length = 0;
  });

  /** A beacon from the phone at `ip` (each test its own, so none spends another's limit). */
  const beaconFrom = (ip: string, body: BodyInit | null, headers: Record<string, string> = SAME_ORIGIN) =>
    beacon(body, headers, api().context({ clientIp: ip }));
  /** The api paths of the impressions the web sent since the test began. */
  const impressionsSent = () =>
    api()
      .calls.map((request) => new URL(request.url).pathname)
      .filter((path) => path.endsWith('/impressions'));
  const impressionsOf = async (id: number) => (await adCountsOf(api(), TOKEN, id)).impressions;

  it.each([
    ['its own Origin alone (no Sec-Fetch-Site over plain http)', { Origin: 'http://web.test' }],
    ['Sec-Fetch-Site same-origin alone', { 'Sec-Fetch-Site': 'same-origin' }],
    ['both', SAME_ORIGIN],
  ])('counts a same-origin beacon with %s in the api: 204 without a body', async (_, headers) => {
    const id = await seedAd(api(), 'web');
    const response = await beaconFrom('203.0.113.60', form(id), headers);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(impressionsSent()).toEqual([`/api/ads/${id}/impressions`]);
    expect(await impressionsOf(id)).toBe(1);
  });

  it('reads a multipart beacon body too', async () => {
    const id = await seedAd(api(), 'web');
    const data = new FormData();
    data.append('id', String(id));
    expect((await beaconFrom('203.0.113.61', data)).status).toBe(204);
    expect(await impressionsOf(id)).toBe(1);
  });

  it.each([
    ['neither Origin nor Sec-Fetch-Site', {}],
    [
      'Sec-Fetch-Site same-origin with another site’s Origin',
      { 'Sec-Fetch-Site': 'same-origin', Origin: 'https://evil.example' },
    ],
    ['Origin of another site', { Origin: 'https://evil.example' }],
    ['Origin of another port', { Origin: 'http://web.test:8080' }],
    ['Origin null', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'Sec-Fetch-Site': 'same-site' }],
    [
      'Sec-Fetch-Site cross-site with a forged same Origin',
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://web.test' },
    ],
  ])('refuses a post that does not show it is same-origin (%s) with 403 and no api call', async (_, headers) => {
    const response = await beaconFrom('203.0.113.62', form(3), headers);
    expect(response.status).toBe(403);
    expect(api().calls).toEqual([]);
  });

  it.each(['', 'abc', '0', '-3', '1.5', '1e3', '0x3', ' 3', '3.0', '99999999999999999999'])(
    'answers 400 for the id %j without calling the api',
    async (id) => {
      expect((await beaconFrom('203.0.113.62', form(id))).status).toBe(400);
      expect(api().calls).toEqual([]);
    },
  );

  it('answers 400 for a body without an id or that is not a form', async () => {
    expect((await beaconFrom('203.0.113.62', null)).status).toBe(400);
    const json = { ...SAME_ORIGIN, 'Content-Type': 'application/json' };
    expect((await beaconFrom('203.0.113.62', '{"id":3}', json)).status).toBe(400);
    expect(api().calls).toEqual([]);
  });

  it('passes the phone’s address and User-Agent on: the api counts one impression per address and User-Agent', async () => {
    const id = await seedAd(api(), 'web');
    const statuses = await visitFromFourPhones(
      (ip, userAgent) => beaconFrom(ip, form(id), { ...SAME_ORIGIN, 'User-Agent': userAgent }),
      ['203.0.113.63', '203.0.113.64'],
    );
    expect(statuses).toEqual([204, 204, 204, 204]); // every beacon answered, counted or not
    expect(await impressionsOf(id)).toBe(3);
  });

  it('answers 404 for an ad the api does not serve', async () => {
    const id = await seedAd(api(), 'web');
    expect((await beaconFrom('203.0.113.65', form(id + 1000))).status).toBe(404);
    expect(impressionsSent()).toEqual([`/api/ads/${id + 1000}/impressions`]);
    expect(await impressionsOf(id)).toBe(0);
  });

  it('answers the 61st beacon from one address in 10 minutes 429, uncounted and without logging', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const id = await seedAd(api(), 'web');
    // Each User-Agent is another phone behind the address: 60 count, the 61st is over the limit.
    for (let i = 0; i < 61; i += 1) {
      const response = await beaconFrom('203.0.113.66', form(id), { ...SAME_ORIGIN, 'User-Agent': `phone/${i}` });
      expect(response.status, `beacon ${i + 1}`).toBe(i < 60 ? 204 : 429);
    }
    expect(await impressionsOf(id)).toBe(60);
    expect(log).not.toHaveBeenCalled();
  });
});

describe('POST /ads/impressions when the api fails (msw)', () => {
  const impressionsAnswer = (answer: () => Response) =>
    server.use(http.post(`${API_BASE_URL}/api/ads/:id/impressions`, answer));

  it('answers 502 (and logs) when the api fails with 500', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    impressionsAnswer(() => HttpResponse.json({ message: 'Internal server error' }, { status: 500 }));
    expect((await beacon(form(3), SAME_ORIGIN, apiContext())).status).toBe(502);
    expect(log).toHaveBeenCalledWith('[ads/impressions] api failed:', expect.stringContaining('500'));
  });

  it('answers 502 (and logs) when the api is down', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    impressionsAnswer(() => HttpResponse.error());
    expect((await beacon(form(3), SAME_ORIGIN, apiContext())).status).toBe(502);
    expect(log).toHaveBeenCalledWith(
      '[ads/impressions] api failed:',
      expect.stringContaining('/api/ads/3/impressions'),
    );
  });
});
