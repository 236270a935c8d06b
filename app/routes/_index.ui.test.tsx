// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
// NOTE: react-router-dom is Remix's own router (a dependency of @remix-run/react); its memory router
// runs the route module in a test without a Remix server.
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { TimeLeftResponseSchema, type TimeLeftResponse } from '../../contract/bus';
import Home, { shouldRevalidate } from '~/routes/_index';
import { DEFAULT_SERVICE_NOTICE } from '../../contract/admin';
import { homeData, timeLeftBody } from '../../tests/mocks/api';
import { groupRoutes } from '../../contract/time-left-groups';

const withFirstUpTime = (time: number): TimeLeftResponse => ({
  ...timeLeftBody,
  data: [
    { type: 'up', routes: [{ ...groupRoutes(timeLeftBody, 'up')[0], time }] },
    { type: 'down', routes: [] },
  ],
});

/**
 * Renders the home with `initial` as its loader data; `busAnswer` stands in for the network behind
 * the refresh's fetch of /bus/time-left (the phone's side of it is what is tested here).
 */
function renderHome(
  initial: TimeLeftResponse | null,
  busAnswer: (init?: RequestInit) => Promise<Response>,
  url = '/',
  notice: Parameters<typeof homeData>[2] = null,
  accuracy: string | null = null,
) {
  const homeLoader = vi.fn(() => homeData(initial, null, notice, accuracy));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      if (input !== '/bus/time-left') throw new Error(`unexpected fetch of ${input}`);
      return busAnswer(init);
    }),
  );
  const router = createMemoryRouter(
    [{ id: 'home', path: '/', Component: Home, loader: homeLoader, shouldRevalidate }],
    { initialEntries: [url], hydrationData: { loaderData: { home: homeData(initial, null, notice, accuracy) } } },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
  return { homeLoader, router };
}

const tab = (name: string) => screen.getByRole('tab', { name });

beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
const answer =
  (body: unknown, status = 200) =>
  async () =>
    Response.json(body, { status });

describe('Home', () => {
  it('links every shortcut of docs/product.md §2, the inquiry to the real /contact', () => {
    renderHome(timeLeftBody, vi.fn());
    const shortcuts = within(screen.getByRole('navigation', { name: '바로가기' })).getAllByRole('link');
    expect(shortcuts.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['이용 방법', '/howtouse'],
      ['광고 신청', '/ads/apply'],
      ['자주 묻는 질문', '/faq'],
      ['개인정보 처리방침', '/privacypolicy'],
      ['문의하기', '/contact'],
    ]);
  });

  it('covers the page with the blocking service notice while it is on (docs/product.md §4)', async () => {
    const busAnswer = vi.fn<() => Promise<Response>>();
    renderHome(timeLeftBody, busAnswer, '/', DEFAULT_SERVICE_NOTICE);
    const dialog = screen.getByRole('alertdialog', { name: DEFAULT_SERVICE_NOTICE.title }) as HTMLDialogElement;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe(
      DEFAULT_SERVICE_NOTICE.text,
    );
    expect(dialog.open).toBe(true);
    const page = document.querySelector('.home')!;
    expect(page.hasAttribute('inert')).toBe(true);
    expect(page.contains(dialog)).toBe(false);
    // Esc does not close it; closed anyway, it opens again.
    const cancel = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    act(() => dialog.close());
    expect(dialog.open).toBe(true);
    // Nothing refreshes behind it.
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(busAnswer).not.toHaveBeenCalled();
  });

  it('shows no notice and leaves the page usable while it is off', () => {
    renderHome(timeLeftBody, vi.fn());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.querySelector('.home')!.hasAttribute('inert')).toBe(false);
  });

  it('shows the up tab by default: stops, chips, cards and the demo label', () => {
    renderHome(timeLeftBody, vi.fn());
    expect(tab('상행').getAttribute('aria-selected')).toBe('true');
    expect(tab('하행').getAttribute('aria-selected')).toBe('false');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tab('상행').id);
    expect(screen.getByText('외대 도서관')).toBeTruthy();
    expect(screen.getByText('모현사거리').closest('li')?.classList.contains('stop--active')).toBe(true);
    expect(
      screen.getByText('1150번, 3분 후 도착, 2정거장 전, 곧 도착, 잔여 12석, 저상버스, 차량 경기70아1234'),
    ).toBeTruthy();
    expect(screen.getByText('1303번, 도착 정보 없음')).toBeTruthy();
    expect(within(screen.getByRole('status')).getByText('데모 데이터')).toBeTruthy();
    expect(screen.getByText('00:04')).toBeTruthy();
  });

  it('switches to the down tab without calling the loader', async () => {
    const { homeLoader, router } = renderHome(timeLeftBody, vi.fn());
    await act(async () => fireEvent.click(tab('하행')));
    expect(router.state.location.search).toBe('?dir=down');
    expect(tab('하행').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('기숙사')).toBeTruthy();
    expect(screen.queryByText('외대 도서관')).toBeNull();
    expect(screen.getByText('출발 예상 시간')).toBeTruthy();
    expect(document.querySelector('.stop--active .chip')?.textContent).toBe('1005번 버스');
    expect(homeLoader).not.toHaveBeenCalled();
  });

  it("states the last 2 weeks' accuracy on the down tab only, linking to how it is worked out", async () => {
    const sentence = '지난 2주 동안 예상 출발 시각의 평균 오차는 약 2분입니다.';
    renderHome(timeLeftBody, vi.fn(), '/', null, sentence);
    expect(screen.queryByText(sentence, { exact: false })).toBeNull();
    await act(async () => fireEvent.click(tab('하행')));
    const paragraph = screen.getByText(sentence, { exact: false });
    expect(paragraph.textContent).toBe(`${sentence} 계산 방법과 자세한 수치`);
    expect(within(paragraph).getByRole('link', { name: '계산 방법과 자세한 수치' }).getAttribute('href')).toBe(
      '/faq#accuracy',
    );
  });

  it('has no accuracy line on the down tab without a figure', () => {
    renderHome(timeLeftBody, vi.fn(), '/?dir=down');
    expect(document.querySelector('.home__accuracy')).toBeNull();
  });

  it('moves between the tabs with the arrow keys', async () => {
    const { router } = renderHome(timeLeftBody, vi.fn());
    await act(async () => fireEvent.keyDown(tab('상행'), { key: 'ArrowRight' }));
    expect(router.state.location.search).toBe('?dir=down');
    expect(document.activeElement).toBe(tab('하행'));
  });

  it('renders an answer of another §7 server: the spec fields only, down group first, no extras', () => {
    const specOnly = TimeLeftResponseSchema.parse({
      data: [
        { type: 'down', routes: [{ routeNo: '1117', data: { dayBefore: null, weekBefore: null, estimate: null } }] },
        { type: 'up', routes: [{ routeNo: '1150', time: 7, location: 4 }] },
      ],
    });
    renderHome(specOnly, vi.fn());
    expect(screen.getByText('1150번, 7분 후 도착, 4정거장 전')).toBeTruthy();
    expect(screen.queryByText('버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.')).toBeNull();
    expect(screen.queryByText('현재 이 구간에 버스가 없습니다.')).toBeNull(); // no vehicles: no claim
  });

  it('says plainly that the live feed is not set up yet (its GBIS ids unknown), not that it is late', () => {
    const notSetUp = TimeLeftResponseSchema.parse({
      ...timeLeftBody,
      data: [
        { type: 'up', routes: [] },
        { type: 'down', routes: [] },
      ],
      vehicles: [],
      feed: { source: 'gbis', takenAt: null, ageSec: null, stale: false, inService: true, idsUnknown: true },
    });
    renderHome(notSetUp, vi.fn());
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(
      '실시간 버스 정보를 준비하고 있습니다. 관리자가 버스 노선 설정을 마치면 도착 정보가 표시됩니다.',
    );
    expect(within(status).queryByText('실시간 정보가 지연되고 있습니다', { exact: false })).toBeNull();
    // Knowing no bus, it claims neither an empty road nor no bus running (docs/product.md §2.3).
    expect(screen.queryByText('현재 이 구간에 버스가 없습니다.')).toBeNull();
    expect(screen.queryByText('현재 운행 중인 버스가 없습니다.')).toBeNull();
  });

  it('shows the load failure instead of cards when the first load failed', () => {
    renderHome(null, vi.fn());
    expect(screen.getByText('버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.')).toBeTruthy();
    expect(screen.queryByText('현재 운행 중인 버스가 없습니다.')).toBeNull();
  });

  it('refreshes every 4 seconds through /bus/time-left', async () => {
    const busAnswer = vi.fn(answer(withFirstUpTime(8)));
    renderHome(timeLeftBody, busAnswer);
    expect(screen.getByText('3분')).toBeTruthy();

    await act(async () => vi.advanceTimersByTime(4000));
    expect(busAnswer).toHaveBeenCalledTimes(1);
    expect(screen.getByText('8분')).toBeTruthy();
    expect(screen.getByText('00:04')).toBeTruthy();
  });

  it('keeps the last data when a refresh fails and logs it; two failures in a row say how old it is', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const busAnswer = vi
      .fn<() => Promise<Response>>()
      .mockImplementationOnce(answer(withFirstUpTime(8)))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockImplementationOnce(answer({ message: '버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.' }, 502));
    renderHome(timeLeftBody, busAnswer);

    await act(async () => vi.advanceTimersByTime(4000));
    expect(screen.getByText('8분')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(4000));
    await act(async () => vi.advanceTimersByTime(4000));
    expect(busAnswer).toHaveBeenCalledTimes(3);
    expect(screen.getByText('8분')).toBeTruthy();
    expect(screen.queryByText('버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('연결이 끊겨 1분 전 정보입니다');
    expect(log.mock.calls).toEqual([
      ['[home] bus refresh failed:', new TypeError('Failed to fetch')],
      ['[home] bus refresh failed:', new Error('버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.')],
    ]);
  });

  it('counts a refresh unanswered after 5 s as failed, and one good answer clears the notice', async () => {
    vi.useRealTimers(); // beforeEach's fake only the countdown's interval; this test needs the timeout's too
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const hanging = (init?: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const busAnswer = vi
      .fn<(init?: RequestInit) => Promise<Response>>()
      .mockImplementationOnce(hanging)
      .mockImplementationOnce(hanging)
      .mockImplementationOnce(answer(withFirstUpTime(8)));
    renderHome(timeLeftBody, busAnswer);
    const status = screen.getByRole('status');
    /** `seconds` of the phone's time, a second per act, so the countdown restarts as it would. */
    const run = async (seconds: number) => {
      for (let second = 0; second < seconds; second += 1) await act(async () => vi.advanceTimersByTimeAsync(1000));
    };

    await run(4 + 4);
    expect(busAnswer).toHaveBeenCalledTimes(1);
    await run(1); // 5 s unanswered: the first failure, maybe a blip
    expect(status.textContent).not.toContain('연결이 끊겨');
    await run(4 + 5); // the second in a row
    expect(busAnswer).toHaveBeenCalledTimes(2);
    expect(status.textContent).toContain('연결이 끊겨 1분 전 정보입니다');
    expect(screen.getByText('3분').classList.contains('card__time--soon')).toBe(false);

    await run(4);
    expect(screen.getByText('8분')).toBeTruthy();
    expect(status.textContent).not.toContain('연결이 끊겨');
  });
});
