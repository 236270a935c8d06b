/**
 * GET /ads/click/:id against an msw stand-in for the api: the click is counted by the api, and the
 * redirect goes only to the http(s) link the api answers (never to anything from the request).
 */
import { http, HttpResponse } from 'msw';
import { loader } from '~/routes/ads.click.$id';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';

const server = setupApiServer();
const clicksUrl = `${API_BASE_URL}/api/ads/:id/clicks`;

/** The api answering POST /api/ads/:id/clicks with `answer`, recording the ids it was asked about. */
function clicksHandler(answer: () => Response) {
  const ids: string[] = [];
  server.use(
    http.post(clicksUrl, ({ params }) => {
      ids.push(String(params.id));
      return answer();
    }),
  );
  return ids;
}

const click = (id: string, query = '') =>
  loader({ request: new Request(`http://web.test/ads/click/${id}${query}`), context: apiContext(), params: { id } });

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
});
