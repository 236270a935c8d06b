import { DEFAULT_SERVICE_NOTICE } from '../../contract/admin';
import Home, { loader, shouldRevalidate } from '~/routes/_index';
import { http, HttpResponse } from 'msw';
import {
  ACCURACY_URL,
  accuracyBody,
  accuracyHandler,
  API_BASE_URL,
  apiContext,
  noticeHandler,
  predictedAllBody,
  predictedFailureHandler,
  predictedHandlers,
  timeLeftBody,
  timeLeftFailureHandler,
  timeLeftHandler,
  setupApiServer,
  webAdsHandler,
} from '../../tests/mocks/api';
import { groupRoutes } from '../../contract/time-left-groups';
import { renderRoute } from '../../tests/setup/render-route';

const server = setupApiServer(
  timeLeftHandler(),
  ...predictedHandlers(),
  webAdsHandler(),
  noticeHandler(),
  accuracyHandler(),
);

const load = (query = '') =>
  loader({ request: new Request(`http://web.test/${query}`), context: apiContext(), params: {} });

describe('home loader', () => {
  it('passes the service notice only while the admins have it on (docs/product.md §4)', async () => {
    expect((await (await load()).json()).notice).toBeNull();
    server.use(noticeHandler(true));
    expect((await (await load()).json()).notice).toEqual(DEFAULT_SERVICE_NOTICE);
  });

  it('shows the bus information when the notice cannot be read, and only logs it', async () => {
    server.use(http.get(`${API_BASE_URL}/api/notice`, () => HttpResponse.json({ message: 'down' }, { status: 500 })));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { notice, timeLeft } = await (await load()).json();
    expect(notice).toBeNull();
    expect(timeLeft).toEqual(timeLeftBody);
    expect(log).toHaveBeenCalledWith('[home] service notice unavailable:', 'GET /api/notice: HTTP 500');
  });

  it("passes the down tab's accuracy sentence, none without a figure, and only logs a failure", async () => {
    expect((await (await load()).json()).accuracy).toBe('지난 2주 동안 예상 출발 시각의 평균 오차는 약 2분입니다.');

    const pending = { ...accuracyBody, computedAt: null, estimate: { etaScore: null, maeSec: null, queries: 0 } };
    server.use(accuracyHandler(pending));
    expect((await (await load()).json()).accuracy).toBeNull();

    server.use(http.get(ACCURACY_URL, () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { accuracy, timeLeft } = await (await load()).json();
    expect(accuracy).toBeNull();
    expect(timeLeft).toEqual(timeLeftBody);
    expect(log).toHaveBeenCalledWith('[home] prediction accuracy unavailable:', 'GET /api/bus/accuracy: HTTP 503');
  });

  it('loads the bus data from the api for the server-rendered page', async () => {
    const response = await load();
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-cache');
    const { timeLeft } = await response.json();
    expect(timeLeft).toEqual(timeLeftBody);
    expect(groupRoutes(timeLeftBody, 'up').map((route) => route.routeNo)).toEqual(['1150', '1117', '1303']);
  });

  it('renders the page without data when the api fails, and only logs the failure (docs/product.md §7)', async () => {
    server.use(timeLeftFailureHandler);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await load();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ timeLeft: null, departureTimes: null });
    expect(log).toHaveBeenCalledWith('[bus/time-left] the api fails:', 'GET /api/bus/timeLeft: HTTP 503');
  });

  it("passes the banner list in the admins' order, and the default banner (none) when it fails (docs/product.md §7)", async () => {
    const ads = [
      { id: 2, src: '/images/web-b.png', url: 'https://shop.example/b', title: '둘' },
      { id: 1, src: '/images/web-a.png', url: '', title: '하나' },
    ];
    server.use(webAdsHandler(ads));
    expect((await (await load()).json()).banners).toEqual(ads);
    server.use(http.get(`${API_BASE_URL}/api/web/ads`, () => HttpResponse.json({ message: 'down' }, { status: 500 })));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await load();
    expect(response.status).toBe(200);
    expect((await response.json()).banners).toEqual([]);
    expect(log).toHaveBeenCalledWith('[home] banner list unavailable:', 'GET /api/web/ads: HTTP 500');
  });
});

describe('home loader with the departure times modal open (the no-JavaScript path)', () => {
  it('loads nothing for the modal while it is closed', async () => {
    const { departureTimes } = await (await load('?dir=down')).json();
    expect(departureTimes).toBeNull();
    // `times` belongs to the down tab only.
    expect((await (await load('?times=all')).json()).departureTimes).toBeNull();
  });

  it('loads every route for times=all, next to the bus data', async () => {
    const { timeLeft, departureTimes } = await (await load('?dir=down&times=all&sort=time')).json();
    expect(timeLeft).toEqual(timeLeftBody);
    expect(departureTimes).toEqual({
      route: 'all',
      routes: ['1150', '1117', '1303', '1005'].map((routeNo) => ({
        routeNo,
        times: predictedAllBody.predictedDownTimes[routeNo],
        ranges: predictedAllBody.ranges?.[routeNo],
        timetableOnly: routeNo === '1005',
      })),
    });
  });

  it('loads one route for times=1150', async () => {
    const { departureTimes } = await (await load('?dir=down&times=1150')).json();
    expect(departureTimes).toEqual({
      route: '1150',
      routes: [
        {
          routeNo: '1150',
          times: predictedAllBody.predictedDownTimes['1150'],
          ranges: predictedAllBody.ranges?.['1150'],
          timetableOnly: false,
        },
      ],
    });
  });

  it('renders the failure text in the modal when the api fails (404 or 5xx), and still the page', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(...predictedHandlers({ predictedDownTimes: {} }));
    const notFound = await load('?dir=down&times=1303');
    expect(notFound.status).toBe(200);
    expect((await notFound.json()).departureTimes).toEqual({
      route: '1303',
      message: '데이터를 불러오는데 실패했습니다.',
    });

    server.use(predictedFailureHandler);
    const failed = await (await load('?dir=down&times=all')).json();
    expect(failed.timeLeft).toEqual(timeLeftBody);
    expect(failed.departureTimes).toEqual({ route: 'all', message: '데이터를 불러오는데 실패했습니다.' });
    expect(log).toHaveBeenCalledWith('[departure times] upstream failed:', 'GET /api/bus/predicted/all: HTTP 503');
  });
});

describe('the page a phone without JavaScript gets', () => {
  it("shows the down card's range and marks the modal's times with theirs, from the loader's data", async () => {
    const url = '/?dir=down&times=1150';
    const loaderData = await (await load('?dir=down&times=1150')).json();
    const document = await renderRoute(Home, { path: '/', url, loaderData });
    const estimate = document.querySelector('.card__estimate');
    expect(estimate?.textContent).toBe('08:10 (08:09~08:13)');
    expect(estimate?.getAttribute('aria-hidden')).toBe('true');
    expect(estimate?.nextElementSibling?.textContent).toBe('8시 10분. 대개 8시 9분에서 8시 13분 사이에 출발합니다.');
    const dialog = document.querySelector('dialog[open]');
    expect([...(dialog?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
      '07:45(07:44~07:48), 대개 7시 44분에서 7시 48분 사이',
      '08:05(08:04~08:08), 대개 8시 4분에서 8시 8분 사이다음 출발',
      '08:25',
    ]);
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

  it('keeps the data when the departure times modal opens, filters, sorts or closes (the dialog loads its own)', () => {
    expect(decide('/?dir=down', '/?dir=down&times=all')).toBe(false);
    expect(decide('/?dir=down&times=all', '/?dir=down&times=1150')).toBe(false);
    expect(decide('/?dir=down&times=all', '/?dir=down&times=all&sort=time')).toBe(false);
    expect(decide('/?dir=down&times=all&sort=time', '/?dir=down')).toBe(false);
  });

  it('leaves any other navigation to Remix', () => {
    expect(decide('/', '/?dir=down&x=1')).toBe(true);
    expect(decide('/?dir=down', '/faq')).toBe(true);
    expect(decide('/', '/', 'POST')).toBe(true);
  });
});
