// @vitest-environment happy-dom
/**
 * The expected departure times modal on the home route, in a memory router: opening from the down
 * tab, loading through /bus/predicted with the docs/product.md §8 texts, filtering and sorting in the URL
 * without re-running the home loader, and closing back to the opener.
 */
import type { ClientLoaderFunctionArgs } from '@remix-run/react';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
// NOTE: react-router-dom is Remix's own router (a dependency of @remix-run/react); its memory router
// runs the route module in a test without a Remix server.
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import Home, { shouldRevalidate } from '~/routes/_index';
import { clientLoader } from '~/routes/bus.predicted';
import { orderRoutes, type TimesAnswer } from '~/utils/departure-times';
import { homeData, predictedAllBody, timeLeftBody } from '../../tests/mocks/api';

const { predictedDownTimes, timetableOnly, ranges } = predictedAllBody;
/** As the server loader answers: with the 80 % ranges (1150's 07:45 and 08:05 wider than 2 minutes). */
const allRoutes = orderRoutes(predictedDownTimes, timetableOnly, ranges);
/** 1150's 08:05 with its range shown, and said, after it. */
const AT_0805 = '08:05(08:04~08:08), 대개 8시 4분에서 8시 8분 사이';

/** What GET /bus/predicted answers for `route`, as the server loader would. */
function answerFor(route: string): TimesAnswer {
  if (route === 'all') return { route, routes: allRoutes };
  return { route: route as TimesAnswer['route'] & string, routes: allRoutes.filter((r) => r.routeNo === route) };
}

/** A server loader held until the test resolves or fails it, to see the loading state. */
function deferredServer() {
  const calls: { route: string; resolve: () => void; reject: (error: Error) => void }[] = [];
  const serverLoader = vi.fn(
    (route: string) =>
      new Promise<TimesAnswer>((resolve, reject) => {
        calls.push({ route, resolve: () => resolve(answerFor(route)), reject });
      }),
  );
  return { calls, serverLoader };
}

function renderHome(
  url: string,
  serverLoader: (route: string) => Promise<TimesAnswer>,
  departureTimes: TimesAnswer | null = null,
) {
  const data = homeData(timeLeftBody, departureTimes);
  const homeLoader = vi.fn(() => data);
  const router = createMemoryRouter(
    [
      { id: 'home', path: '/', Component: Home, loader: homeLoader, shouldRevalidate },
      {
        path: '/bus/predicted',
        loader: ({ request, params }) =>
          clientLoader({
            request,
            params,
            serverLoader: (() =>
              serverLoader(
                new URL(request.url).searchParams.get('route') ?? '',
              )) as ClientLoaderFunctionArgs['serverLoader'],
          }),
      },
    ],
    { initialEntries: ['/?dir=down', url], initialIndex: 1, hydrationData: { loaderData: { home: data } } },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
  return { homeLoader, router };
}

const dialog = () => screen.getByRole('dialog', { name: '출발 예상 시간' });
const opener = () => screen.getByRole('link', { name: '출발 예상 시간 전체 보기' });
const radio = (name: string) => within(dialog()).getByRole('radio', { name });
const settle = () => act(async () => {});

beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('expected departure times modal', () => {
  it('opens from the down tab, shows 로딩중... and then every route grouped, without the home loader', async () => {
    const { calls, serverLoader } = deferredServer();
    const { homeLoader, router } = renderHome('/?dir=down', serverLoader);
    expect(screen.queryByRole('dialog')).toBeNull();
    // The fragment opens the list at its next departure without JavaScript too.
    expect(opener().getAttribute('href')).toBe('/?dir=down&times=all#times-next');

    await act(async () => fireEvent.click(opener()));
    expect(router.state.location.search).toBe('?dir=down&times=all');
    expect(dialog().hasAttribute('open')).toBe(true);
    expect(within(dialog()).getByRole('status').textContent).toBe('로딩중...');
    expect(serverLoader).toHaveBeenCalledWith('all');

    await act(async () => calls[0].resolve());
    expect(within(dialog()).queryByText('로딩중...')).toBeNull();
    expect(
      within(dialog())
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['1150번', '1117번', '1303번', '1005번']);
    // The api's clock (the feed's takenAt + age) is 08:00:02 KST: 1150's next time is 08:05.
    const next = within(dialog()).getByRole('list', { name: '1150번' }).querySelector('[aria-current="time"]');
    expect(next?.textContent).toBe(`${AT_0805}다음 출발`);
    expect(radio('전체')).toHaveProperty('checked', true);
    expect(within(dialog()).getByRole('checkbox', { name: '노선 구분 없이 시간순 정렬' })).toHaveProperty(
      'checked',
      false,
    );
    expect(homeLoader).not.toHaveBeenCalled();
  });

  it('applies a filter on change, loading that route, and sorts all routes without another load', async () => {
    const serverLoader = vi.fn(async (route: string) => answerFor(route));
    const { homeLoader, router } = renderHome('/?dir=down&times=all', serverLoader);
    await settle();

    await act(async () => fireEvent.click(radio('1117')));
    expect(router.state.location.search).toBe('?dir=down&times=1117');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(serverLoader).toHaveBeenLastCalledWith('1117');
    expect(
      within(dialog())
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['1117번']);
    expect(within(dialog()).queryByRole('checkbox')).toBeNull();

    await act(async () => fireEvent.click(radio('전체')));
    expect(router.state.location.search).toBe('?dir=down&times=all');
    await act(async () =>
      fireEvent.click(within(dialog()).getByRole('checkbox', { name: '노선 구분 없이 시간순 정렬' })),
    );
    expect(router.state.location.search).toBe('?dir=down&times=all&sort=time');
    const items = within(within(dialog()).getByRole('list', { name: '전체 노선 시간순' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent).slice(0, 4)).toEqual([
      '07:45(07:44~07:48), 대개 7시 44분에서 7시 48분 사이1150번',
      '07:501005번',
      '08:001117번',
      `${AT_0805}1150번다음 출발`,
    ]);
    expect(items[3].getAttribute('aria-current')).toBe('time');
    expect(serverLoader.mock.calls.map(([route]) => route)).toEqual(['all', '1117', 'all']);
    expect(homeLoader).not.toHaveBeenCalled();
  });

  it('shows 데이터를 불러오는데 실패했습니다. when the load fails, and loads again on the next filter', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls, serverLoader } = deferredServer();
    renderHome('/?dir=down&times=all', serverLoader);
    await settle();
    await act(async () => calls[0].reject(new TypeError('Failed to fetch')));
    expect(within(dialog()).getByRole('alert').textContent).toBe('데이터를 불러오는데 실패했습니다.');

    await act(async () => fireEvent.click(radio('1150')));
    expect(within(dialog()).getByText('로딩중...')).toBeTruthy();
    await act(async () => calls[1].resolve());
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(within(dialog()).getByRole('list', { name: '1150번' })).toBeTruthy();
  });

  it('shows the failure answered by the server (404, 502) the same way', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderHome('/?dir=down&times=1303', async () => ({ route: '1303', message: '데이터를 불러오는데 실패했습니다.' }));
    await settle();
    expect(within(dialog()).getByRole('alert').textContent).toBe('데이터를 불러오는데 실패했습니다.');
  });

  it('closes with 닫기 (as Esc does): back over the entry it pushed, focus on the opener', async () => {
    const serverLoader = vi.fn(async (route: string) => answerFor(route));
    const { router } = renderHome('/?dir=down', serverLoader);
    await act(async () => fireEvent.click(opener()));
    await act(async () => fireEvent.click(radio('1150')));
    expect(router.state.location.search).toBe('?dir=down&times=1150');

    await act(async () => fireEvent.click(within(dialog()).getByRole('link', { name: '닫기' })));
    expect(router.state.location.search).toBe('?dir=down');
    expect(router.state.historyAction).toBe('POP');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener());
  });

  it('shows the loader answer of a page loaded with the modal open, and closes to ?dir=down in place', async () => {
    const serverLoader = vi.fn(async (route: string) => answerFor(route));
    const { router, homeLoader } = renderHome('/?dir=down&times=1150', serverLoader, answerFor('1150'));
    await settle();
    // The loader's answer (the no-JavaScript path) marks the ranges as the resource route's does.
    const times = within(within(dialog()).getByRole('list', { name: '1150번' })).getAllByRole('listitem');
    expect(times.map((item) => item.querySelector('.times-range')?.textContent ?? '')).toEqual([
      '(07:44~07:48)',
      '(08:04~08:08)',
      '',
    ]);
    expect(serverLoader).not.toHaveBeenCalled();

    // What the browser does on Esc: the dialog closes itself.
    await act(async () => (dialog() as HTMLDialogElement).close());
    expect(router.state.location.search).toBe('?dir=down');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener());

    // Opening again loads afresh (docs/product.md §4: the data loads on open).
    await act(async () => fireEvent.click(opener()));
    expect(serverLoader).toHaveBeenCalledWith('all');
    expect(homeLoader).not.toHaveBeenCalled();
  });

  it('closes when Back leaves the open URL', async () => {
    const serverLoader = vi.fn(async (route: string) => answerFor(route));
    const { router } = renderHome('/?dir=down', serverLoader);
    await act(async () => fireEvent.click(opener()));
    expect(screen.getByRole('dialog')).toBeTruthy();
    // As the browser does on showModal(): the focus is in the dialog.
    within(dialog()).getByRole('radio', { name: '전체' }).focus();
    await act(async () => router.navigate(-1));
    expect(router.state.location.search).toBe('?dir=down');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener());
  });
});
