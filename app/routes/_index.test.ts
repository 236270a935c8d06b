import { setupServer } from 'msw/node';
import { loader, shouldRevalidate } from '~/routes/_index';
import { apiContext, timeLeftBody, timeLeftFailureHandler, timeLeftHandler } from '../../tests/mocks/api';

const server = setupServer(timeLeftHandler());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const load = () => loader({ request: new Request('http://web.test/'), context: apiContext(), params: {} });

describe('home loader', () => {
  it('loads the bus data from the api for the server-rendered page', async () => {
    const response = await load();
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const { timeLeft } = await response.json();
    expect(timeLeft).toEqual(timeLeftBody);
    expect(timeLeft?.data[0].routes.map((route) => route.routeNo)).toEqual(['1150', '1117', '1303']);
  });

  it('renders the page without data when the api fails, and only logs the failure (spec §7)', async () => {
    server.use(timeLeftFailureHandler);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await load();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ timeLeft: null });
    expect(log).toHaveBeenCalledWith('[home] bus data unavailable:', 'GET /api/bus/timeLeft: HTTP 503');
  });
});

describe('shouldRevalidate', () => {
  const decide = (from: string, to: string, formMethod?: 'POST') =>
    shouldRevalidate({
      currentUrl: new URL(from, 'http://web.test'),
      nextUrl: new URL(to, 'http://web.test'),
      currentParams: {},
      nextParams: {},
      formMethod,
      defaultShouldRevalidate: true,
    });

  it('keeps the data when only the tab changes', () => {
    expect(decide('/', '/?dir=down')).toBe(false);
    expect(decide('/?dir=down', '/?dir=up')).toBe(false);
    expect(decide('/?dir=down', '/')).toBe(false);
  });

  it('leaves any other navigation to Remix', () => {
    expect(decide('/', '/?dir=down&x=1')).toBe(true);
    expect(decide('/?dir=down', '/faq')).toBe(true);
    expect(decide('/', '/', 'POST')).toBe(true);
  });
});
