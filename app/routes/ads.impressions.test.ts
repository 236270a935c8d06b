/**
 * POST /ads/impressions (the banner's same-origin beacon) against an msw stand-in for the api:
 * beacons that show they are same-origin are counted by the api (with the phone's User-Agent
 * passed on); posts that do not, cross-site posts and bad ids never reach it.
 */
import { http, HttpResponse } from 'msw';
import { action } from '~/routes/ads.impressions';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';

const server = setupApiServer();

/** The User-Agent of each request the last impressionsHandler answered. */
const userAgents: (string | null)[] = [];

/** The api answering POST /api/ads/:id/impressions with `answer`, recording the ids it was asked about. */
function impressionsHandler(answer: () => Response = () => new HttpResponse(null, { status: 204 })) {
  const ids: string[] = [];
  userAgents.length = 0;
  server.use(
    http.post(`${API_BASE_URL}/api/ads/:id/impressions`, ({ params, request }) => {
      ids.push(String(params.id));
      userAgents.push(request.headers.get('User-Agent'));
      return answer();
    }),
  );
  return ids;
}

/** What a browser sends with the banner's beacon: its own Origin and Sec-Fetch-Site. */
const SAME_ORIGIN = { Origin: 'http://web.test', 'Sec-Fetch-Site': 'same-origin' };

/** The answer to a beacon: what the action returns, or the Response it throws (as Remix answers it). */
function beacon(body: BodyInit | null, headers: Record<string, string> = SAME_ORIGIN): Promise<Response> {
  const request = new Request('http://web.test/ads/impressions', { method: 'POST', body, headers });
  return action({ request, context: apiContext(), params: {} }).catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });
}
const form = (id: string) => new URLSearchParams({ id });

describe('POST /ads/impressions', () => {
  it.each([
    ['its own Origin alone (no Sec-Fetch-Site over plain http)', { Origin: 'http://web.test' }],
    ['Sec-Fetch-Site same-origin alone', { 'Sec-Fetch-Site': 'same-origin' }],
    ['both', SAME_ORIGIN],
  ])('counts a same-origin beacon with %s in the api: 204 without a body', async (_, headers) => {
    const ids = impressionsHandler();
    const response = await beacon(form('3'), headers);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(ids).toEqual(['3']);
  });

  it('reads a multipart beacon body too', async () => {
    const ids = impressionsHandler();
    const data = new FormData();
    data.append('id', '3');
    expect((await beacon(data)).status).toBe(204);
    expect(ids).toEqual(['3']);
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
    const ids = impressionsHandler();
    const response = await beacon(form('3'), headers);
    expect(response.status).toBe(403);
    expect(ids).toEqual([]);
  });

  it.each(['', 'abc', '0', '-3', '1.5', '1e3', '0x3', ' 3', '3.0', '99999999999999999999'])(
    'answers 400 for the id %j without calling the api',
    async (id) => {
      const ids = impressionsHandler();
      expect((await beacon(form(id))).status).toBe(400);
      expect(ids).toEqual([]);
    },
  );

  it('answers 400 for a body without an id or that is not a form', async () => {
    const ids = impressionsHandler();
    expect((await beacon(null)).status).toBe(400);
    expect((await beacon('{"id":3}', { ...SAME_ORIGIN, 'Content-Type': 'application/json' })).status).toBe(400);
    expect(ids).toEqual([]);
  });

  it('passes the phone’s User-Agent on to the api, which tells phones behind one address apart by it', async () => {
    impressionsHandler();
    const userAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';
    expect((await beacon(form('3'), { ...SAME_ORIGIN, 'User-Agent': userAgent })).status).toBe(204);
    expect(userAgents).toEqual([userAgent]);
  });

  it('answers 429 without logging when the api says the address is over its limit', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    impressionsHandler(() => HttpResponse.json({ message: 'Too many requests; try again later' }, { status: 429 }));
    expect((await beacon(form('3'))).status).toBe(429);
    expect(log).not.toHaveBeenCalled();
  });

  it('answers 404 when the api serves no such ad', async () => {
    impressionsHandler(() => HttpResponse.json({ message: 'No such ad in its period' }, { status: 404 }));
    expect((await beacon(form('3'))).status).toBe(404);
  });

  it('answers 502 (and logs) when the api is down', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    impressionsHandler(() => HttpResponse.error());
    expect((await beacon(form('3'))).status).toBe(502);
    expect(log).toHaveBeenCalledWith(
      '[ads/impressions] api failed:',
      expect.stringContaining('/api/ads/3/impressions'),
    );
  });
});
