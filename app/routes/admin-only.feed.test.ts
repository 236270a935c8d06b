/**
 * /admin-only/feed against the real api in-process: the page needs an admin session like every
 * admin page, shows the bus feed's health and the last 14 days' backtest with a caption on every
 * table, and a part whose load fails says so on its own while the other part stays.
 */
import type { AppLoadContext } from '@remix-run/node';
import type { BacktestReport } from '../../contract/admin';
import FeedPage, { action, loader } from '~/routes/admin-only.feed';
import { action as loginAction } from '~/routes/admin-only_.login';
import { cookieOf, interceptingContext, startSignedInAdmin, WEB_ORIGIN } from '../../tests/setup/admin-web';
import { renderRoute } from '../../tests/setup/render-route';
import { type WebApi } from '../../tests/setup/web-api';

const TOKEN = 'test-service-token-for-admin-feed';
const PAGE = '/admin-only/feed';

/** The api in-process, a context on it, and a signed-in admin's cookie. */
let admin: { api: WebApi; context: AppLoadContext; cookie: string };

beforeAll(async () => {
  admin = await startSignedInAdmin(TOKEN, loginAction);
});
afterAll(() => admin.api.close());

/** A scope's scores: the estimate and history methods state 80 % ranges, the baselines none. */
const scores = (departures: number, maeSec: number | null, etaScore: number | null) => {
  const score = {
    queries: 40,
    answered: maeSec === null ? 0 : 36,
    maeSec,
    etaScore,
    coverage: null,
    meanRangeSec: null,
  };
  const ranged = { ...score, coverage: 78.94, meanRangeSec: 245.6 };
  return {
    departures,
    methods: { estimate: ranged, history: ranged, dayBefore: score, weekBefore: score, timetable: score },
  };
};

const REPORT: BacktestReport = {
  days: ['2026-09-01', '2026-09-14'],
  overall: scores(120, 192.4, 81.25),
  routes: [{ routeNo: '1150', ...scores(60, 45, 90) }],
  slots: [{ routeNo: '1150', dayType: 'weekday', serviceDate: '2026-09-14', count: 52, spreadSec: 75 }],
  rangeCalibration: null,
};

/** A context whose api answers the backtest with `report`, or cannot be reached for `down`'s path. */
function answering({ report, down }: { report?: BacktestReport; down?: string }): AppLoadContext {
  return interceptingContext(admin.context, (_request, url) => {
    if (url.pathname === down) throw new TypeError('fetch failed');
    if (report && url.pathname === '/api/admin/backtest') return Response.json(report);
    return undefined;
  });
}

/** The page loaded with `on` and the admin's cookie: the loader's answer and the page rendered from it. */
async function page(on: AppLoadContext = admin.context) {
  const request = new Request(`${WEB_ORIGIN}${PAGE}`, { headers: { Cookie: admin.cookie } });
  const data = await (await loader({ request, context: on, params: {} })).json();
  const document = await renderRoute(FeedPage, { path: PAGE, url: PAGE, loaderData: data });
  const section = (id: string) => document.querySelector(`section[aria-labelledby="${id}"]`);
  return { data, document, feed: section('feed-title'), backtest: section('backtest-title') };
}

describe('/admin-only/feed', () => {
  it('sends a visitor without a session to the login page, to come back here', async () => {
    const request = new Request(`${WEB_ORIGIN}${PAGE}`);
    const refused = await loader({ request, context: admin.context, params: {} }).catch((thrown: unknown) => thrown);
    expect((refused as Response).status).toBe(302);
    expect((refused as Response).headers.get('Location')).toBe(`/admin-only/login?redirectTo=%2Fadmin-only%2Ffeed`);
  });

  it('has one page heading and a named section for the feed health and for the backtest', async () => {
    const { document, feed, backtest } = await page();
    expect([...document.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['버스 정보 상태']);
    expect(feed?.querySelector('h2')?.textContent).toBe('수집 상태');
    expect(backtest?.querySelector('h2')?.textContent).toBe('예측 정확도 (최근 14일 백테스트)');
    const terms = [...(feed?.querySelectorAll('dt') ?? [])].map((term) => term.textContent);
    expect(terms).toContain('데이터 출처');
    expect(feed?.textContent).toContain('데모 시뮬레이터');
    // In an admin's words, the technical value beside (docs/product.md §Glossary: the lease holder).
    expect(feed?.textContent).toContain('버스 정보를 받아 오는 서버 leader');
    expect(feed?.textContent).not.toContain('수집 담당');
  });

  it('shows each scope of the backtest as a captioned table with row and column headers', async () => {
    const { backtest } = await page(answering({ report: REPORT }));
    const captions = [...(backtest?.querySelectorAll('caption') ?? [])].map((caption) => caption.textContent);
    expect(captions).toEqual([
      '전체 (출발 120회)',
      '1150번 (출발 60회)',
      '학습한 출발 시간표 (노선·요일 유형별 마지막 날 기준)',
    ]);
    const overall = backtest?.querySelector('table');
    expect([...(overall?.querySelectorAll('thead th[scope="col"]') ?? [])].map((th) => th.textContent)).toEqual([
      '방법',
      '평균 오차',
      'ETA 점수',
      '답한 조회',
      '범위 적중률',
      '평균 범위 폭',
    ]);
    const [estimate, , dayBefore] = overall?.querySelectorAll('tbody tr') ?? [];
    expect(estimate?.querySelector('th[scope="row"]')?.textContent).toBe('예측(실시간 반영)');
    expect([...(estimate?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent)).toEqual([
      '3분 12초',
      '81.3%',
      '36 / 40',
      '78.9%',
      '4분 6초',
    ]);
    // A method without ranges: a dash for the eyes, said as 범위 없음.
    expect(dayBefore?.querySelector('th[scope="row"]')?.textContent).toBe('어제');
    const noRange = [...(dayBefore?.querySelectorAll('td') ?? [])].slice(3);
    expect(noRange.map((cell) => cell.querySelector('[aria-hidden="true"]')?.textContent)).toEqual(['–', '–']);
    expect(noRange.map((cell) => cell.querySelector('.sr-only')?.textContent)).toEqual(['범위 없음', '범위 없음']);
    const slot = backtest?.querySelectorAll('table')[2]?.querySelector('tbody tr');
    expect(slot?.textContent).toBe('1150번평일521분 15초');
  });

  it("restarts a route's learning from the form: refusals by field, a saved restart listed with a flash", async () => {
    const post = (fields: Record<string, string>) =>
      action({
        request: new Request(`${WEB_ORIGIN}${PAGE}`, {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers: { Cookie: admin.cookie, Origin: WEB_ORIGIN },
        }),
        context: admin.context,
        params: {},
      });
    const errorsOf = async (response: Response) =>
      ((await response.json()) as { result: { error: unknown } }).result.error;

    const empty = await post({});
    expect(empty.status).toBe(400);
    expect(await errorsOf(empty)).toMatchObject({ routeNo: ['노선을 골라 주세요.'] });
    // The api's range check, under the date.
    const old = await post({ routeNo: '1303', since: '2020-01-01' });
    expect(old.status).toBe(400);
    expect(await errorsOf(old)).toEqual({ since: ['날짜는 최근 35일 안의 날이어야 합니다.'] });

    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    const saved = await post({ routeNo: '1303', since: today });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('Location')).toBe(PAGE);
    const request = new Request(`${WEB_ORIGIN}${PAGE}`, { headers: { Cookie: cookieOf(saved) } });
    const data = await (await loader({ request, context: admin.context, params: {} })).json();
    const document = await renderRoute(FeedPage, { path: PAGE, url: PAGE, loaderData: data });
    expect(document.querySelector('[role="status"]')?.textContent).toBe('저장했습니다. 10분 안에 예측에 반영됩니다.');
    expect(document.body.textContent).toContain(`1303번: ${today}부터`);
  });

  it('says when there is nothing to backtest yet', async () => {
    const { backtest } = await page(answering({ report: { ...REPORT, days: [] } }));
    expect(backtest?.textContent).toContain('백테스트할 기록이 아직 없습니다.');
    expect(backtest?.querySelector('table')).toBeNull();
  });

  it('a part that does not load says so as an alert, logs why, and leaves the other part on the page', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const feedDown = await page(answering({ report: REPORT, down: '/api/admin/feed' }));
    expect(feedDown.feed?.querySelector('[role="alert"]')?.textContent).toBe(
      '버스 정보 수집 상태를 불러오지 못했습니다.',
    );
    expect(feedDown.backtest?.querySelectorAll('table')).toHaveLength(3);

    const backtestDown = await page(answering({ down: '/api/admin/backtest' }));
    expect(backtestDown.backtest?.querySelector('[role="alert"]')?.textContent).toBe(
      '예측 정확도를 불러오지 못했습니다.',
    );
    expect(backtestDown.feed?.querySelector('dl')).not.toBeNull();
    expect(logged.mock.calls.map(([message]) => message)).toEqual([
      '[admin/feed] the feed status did not load:',
      '[admin/feed] the backtest did not load:',
    ]);
    logged.mockRestore();
  });
});
