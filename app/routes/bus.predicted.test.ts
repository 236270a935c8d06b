import { clientLoader, loader } from '~/routes/bus.predicted';
import type { RouteTimes } from '~/utils/departure-times';
import {
  apiContext,
  predictedAllBody,
  predictedFailureHandler,
  predictedHandlers,
  setupApiServer,
} from '../../tests/mocks/api';

const server = setupApiServer(...predictedHandlers());

const times = (routeNo: string) => predictedAllBody.predictedDownTimes[routeNo];
const ranges = (routeNo: string) => predictedAllBody.ranges?.[routeNo];

const call = (query: string) =>
  loader({ request: new Request(`http://web.test/bus/predicted${query}`), context: apiContext(), params: {} });

describe('GET /bus/predicted', () => {
  it('answers every route in the spec order for route=all, never cached', async () => {
    const response = await call('?route=all');
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({
      route: 'all',
      routes: [
        { routeNo: '1150', times: times('1150'), ranges: ranges('1150'), timetableOnly: false },
        { routeNo: '1117', times: times('1117'), ranges: ranges('1117'), timetableOnly: false },
        { routeNo: '1303', times: [], ranges: [], timetableOnly: false },
        // Too little history: its times are the timetable's, with no range, and the modal says so.
        { routeNo: '1005', times: times('1005'), ranges: [null, null], timetableOnly: true },
      ],
    });
  });

  it('answers one route through /api/bus/predicted/{routeNo}', async () => {
    const response = await call('?route=1117');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      route: '1117',
      routes: [{ routeNo: '1117', times: times('1117'), ranges: ranges('1117'), timetableOnly: false }],
    });
  });

  it('gives every time a range, null where the api states none (an api without ranges: none at all)', async () => {
    const { ranges: _dropped, ...withoutRanges } = predictedAllBody;
    server.use(...predictedHandlers(withoutRanges));
    for (const query of ['?route=all', '?route=1150']) {
      const answer = await (await call(query)).json();
      const routes: RouteTimes[] = 'routes' in answer ? answer.routes : [];
      expect(routes.length).toBeGreaterThan(0);
      for (const route of routes) expect(route.ranges).toEqual(route.times.map(() => null));
    }
  });

  it('answers 404 with the docs/product.md §8 message when the api does not know the route', async () => {
    const { '1005': _dropped, ...without1005 } = predictedAllBody.predictedDownTimes;
    server.use(...predictedHandlers({ predictedDownTimes: without1005 }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await call('?route=1005');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ route: '1005', message: '데이터를 불러오는데 실패했습니다.' });
    expect(log).toHaveBeenCalledWith('[departure times] upstream failed:', 'GET /api/bus/predicted/1005: HTTP 404');
  });

  it('answers 502 with the docs/product.md §8 message when the api fails or breaks the contract', async () => {
    server.use(predictedFailureHandler);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failed = await call('?route=all');
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ route: 'all', message: '데이터를 불러오는데 실패했습니다.' });

    server.use(...predictedHandlers({ predictedDownTimes: { '1150': ['08:05'] } }));
    const offContract = await call('?route=all');
    expect(offContract.status).toBe(502);
  });

  it('answers 400 without calling the api for anything but a filter option', async () => {
    for (const query of ['', '?route=9999', '?route=../timeLeft']) {
      const response = await call(query);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ route: null, message: '데이터를 불러오는데 실패했습니다.' });
    }
  });
});

describe('clientLoader', () => {
  const args = (serverLoader: () => Promise<unknown>) =>
    ({ request: new Request('http://web.test/bus/predicted?route=1150'), params: {}, serverLoader }) as Parameters<
      typeof clientLoader
    >[0];

  it('passes the server answer through', async () => {
    const answer = { route: '1150', routes: [] };
    await expect(clientLoader(args(async () => answer))).resolves.toBe(answer);
  });

  it('turns a failed call (offline, a thrown 5xx) into the failure answer for its route, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const offline = new TypeError('Failed to fetch');
    await expect(clientLoader(args(() => Promise.reject(offline)))).resolves.toEqual({
      route: '1150',
      message: '데이터를 불러오는데 실패했습니다.',
    });
    expect(log).toHaveBeenCalledWith('[bus/predicted] load failed:', offline);
  });
});
