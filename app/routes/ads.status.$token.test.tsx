/**
 * /ads/status/{token} against the real api in-process (PGlite): a token from a real application,
 * the page rendered as Remix renders a document (its loader, its component, its error boundary),
 * its private headers, and one 404 page for every token the api does not know.
 */
import type { AppLoadContext } from '@remix-run/node';
import AdStatusPage, { ErrorBoundary, headers, loader, meta } from '~/routes/ads.status.$token';
import { AdSubmitResponseSchema, type AdStatus } from '../../contract/ads';
import { validApplication } from '../../tests/setup/ads-api';
import { WEB_ORIGIN } from '../../tests/setup/admin-web';
import { renderRoute, runRoute } from '../../tests/setup/render-route';
import { webApiFor } from '../../tests/setup/web-api';

const api = webApiFor();
let ipCounter = 0;
const freshContext = () => api().context({ clientIp: `192.0.2.${++ipCounter}` });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** Applies for a web ad through the api as the web does; returns the status token. */
async function applied(): Promise<string> {
  const { imageUrl } = await api().uploadImage('web');
  const response = await api().app.request('http://api.internal/api/ads/web/submit', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.1' },
    body: JSON.stringify(validApplication('web', imageUrl, { title: '캠퍼스 카페' })),
  });
  expect(response.status).toBe(201);
  return AdSubmitResponseSchema.parse(await response.json()).statusToken!;
}

/** Runs the route for `token` as Remix would (loader, then the page or its boundary) and parses the HTML. */
async function open(token: string, context: AppLoadContext = freshContext()) {
  const { status, document } = await runRoute(
    {
      path: '/ads/status/:token',
      Component: AdStatusPage,
      ErrorBoundary,
      loader: ({ request, params }) => loader({ request, params, context }),
    },
    new Request(`${WEB_ORIGIN}/ads/status/${token}`),
  );
  return { status, document, text: document.body.textContent ?? '' };
}

/** The facts list as term → description. */
const facts = (document: Document) =>
  Object.fromEntries(
    [...document.querySelectorAll('.ad-status__facts div')].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('dd')?.textContent,
    ]),
  );

const NOT_FOUND = '신청 현황을 찾을 수 없습니다.';

describe('/ads/status/:token', () => {
  it('shows a pending application: type, title, applied date in KST, months and price, 검토 중, how much to pay, and no counts', async () => {
    const { status, document } = await open(await applied());
    expect(status).toBe(200);
    expect(document.querySelector('h1')?.textContent).toBe('광고 신청 현황');
    expect(facts(document)).toEqual({
      '광고 유형': '웹 배너 광고',
      '광고 제목': '캠퍼스 카페',
      신청일: new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(new Date()),
      '광고 기간': '1개월',
      광고비: '26,000원',
      상태: '검토 중',
    });
    expect(document.querySelector('.ad-status__counts')).toBeNull();
    expect(document.querySelector('svg')).toBeNull();
    expect([...document.querySelectorAll('.ad-status__note')].map((note) => note.textContent)).toEqual([
      '입금을 확인하면 광고를 승인하고, 승인한 날부터 게재 기간이 시작됩니다. 검토가 끝나면 이 페이지에서 결과를 확인할 수 있습니다.',
      '입금하실 금액은 26,000원(1개월)입니다. 신청서를 보낸 뒤 광고비를 계좌 이체로 입금해주세요. 입금 계좌는 신청을 받은 뒤 담당자가 입력하신 이메일로 ' +
        '알려드립니다. 입금자명은 신청자 이름과 같게 해주세요. 신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
    ]);
  });

  it('tells a pending application where to pay when the deployment has its bank account', async () => {
    const bankAccount = { bank: '농협', number: '351-1234-5678-90', holder: '캠퍼스버스' };
    const context = api().context({
      clientIp: `192.0.2.${++ipCounter}`,
      publicConfig: {
        bankAccount,
        adSlots: { adfitUnit: null, adsense: null },
        privacyOfficer: null,
        analyticsId: null,
      },
    });
    const { document } = await open(await applied(), context);
    expect(document.querySelectorAll('.ad-status__note')[1]?.textContent).toBe(
      '입금하실 금액은 26,000원(1개월)입니다. 신청서를 보낸 뒤 광고비를 계좌 이체로 입금해주세요. 입금 계좌는 농협 351-1234-5678-90 (예금주 캠퍼스버스)입니다. ' +
        '입금자명은 신청자 이름과 같게 해주세요. 신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
    );
  });

  it('declares itself private: no-store, noindex (header and meta) and no Referer (the e2e story reads them off the page and its 404)', () => {
    const sent = new Headers(headers({} as Parameters<typeof headers>[0]));
    expect(Object.fromEntries(sent)).toEqual({
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex',
      'referrer-policy': 'no-referrer',
    });
    expect(meta({} as Parameters<typeof meta>[0])).toContainEqual({ name: 'robots', content: 'noindex' });
  });

  it.each([
    ['unknown', 'A'.repeat(43)],
    ['malformed', 'not-a-token'],
    ['percent-encoded', encodeURIComponent('../../admin')],
  ])('answers the one 404 page to a token that is %s', async (_, token) => {
    const { status, document, text } = await open(token);
    expect(status).toBe(404);
    expect(document.querySelector('h1')?.textContent).toBe(NOT_FOUND);
    expect(text).toContain('링크 주소가 정확한지 확인해주세요.');
    expect(document.querySelector('a')?.getAttribute('href')).toBe('/');
  });

  it('asks to try again shortly once this phone opened it too often (the api’s 429)', async () => {
    const token = await applied();
    const context = freshContext();
    for (let look = 0; look < 30; look++) expect((await open(token, context)).status).toBe(200);
    const { status, document, text } = await open(token, context);
    expect(status).toBe(429);
    expect(document.querySelector('h1')?.textContent).toBe('잠시 후 다시 열어주세요.');
    expect(text).toContain('짧은 시간에 너무 자주 열어 잠시 조회가 제한되었습니다. 몇 분 뒤에 다시 열어주세요.');
  });

  describe('an approved or rejected application', () => {
    const days = Array.from({ length: 30 }, (_, index) => {
      const day = new Date(Date.UTC(2026, 9, 25 + index)).toISOString().slice(0, 10);
      return { day, impressions: index === 29 ? 40 : index, clicks: index % 10 === 0 ? 2 : 0 };
    });
    const approved: AdStatus = {
      type: 'kakao',
      title: '점심 할인',
      appliedAt: '2026-10-24T16:00:00.000Z',
      duration: 2,
      takenDownAt: null,
      status: 'approved',
      rejectReason: null,
      // 01:00 KST on 11-01 for 30 days: the last KST day it runs is 12-01.
      period: { startsAt: '2026-10-31T16:00:00.000Z', endsAt: '2026-11-30T16:00:00.000Z' },
      counts: { days, impressions: 446, clicks: 6 },
    };
    const render = (status: AdStatus) =>
      renderRoute(AdStatusPage, {
        path: '/ads/status/:token',
        url: '/ads/status/x',
        loaderData: { status, typeLabel: '챗봇 광고', bankAccount: null },
      });

    it('shows the paid period in KST days, end inclusive, and the last 30 days’ counters as text, two charts and a table', async () => {
      const document = await render(approved);
      expect(facts(document)).toMatchObject({
        신청일: '2026-10-25',
        상태: '승인',
        '게재 기간': '2026-11-01 ~ 2026-12-01',
      });
      const counts = document.querySelector('.ad-status__counts');
      expect(counts?.querySelector('p')?.textContent).toBe('노출 446회 · 클릭 6회 (한국 시간 날짜 기준, 오늘 포함)');
      const charts = [...document.querySelectorAll('svg[role="img"]')];
      expect(charts.map((chart) => chart.getAttribute('aria-label'))).toEqual([
        '10월 25일부터 11월 23일까지 날짜별 노출 수 막대그래프. 합계 446회, 가장 많은 날은 11월 23일 40회.',
        '10월 25일부터 11월 23일까지 날짜별 클릭 수 막대그래프. 합계 6회, 가장 많은 날은 10월 25일 2회.',
      ]);
      // A fixed drawing size: the page reserves its height before any paint.
      expect(charts.map((chart) => [chart.getAttribute('width'), chart.getAttribute('height')])).toEqual([
        ['300', '120'],
        ['300', '120'],
      ]);
      expect(charts[0].querySelectorAll('rect')).toHaveLength(30);
      const rows = [...document.querySelectorAll('details table tbody tr')];
      expect(rows).toHaveLength(30);
      expect(rows[29].textContent).toBe('11월 23일400');
      expect(document.querySelector('details')?.hasAttribute('open')).toBe(false);
    });

    it('draws an ad without a count yet as an empty chart, saying so', async () => {
      const empty = days.map(({ day }) => ({ day, impressions: 0, clicks: 0 }));
      const document = await render({ ...approved, counts: { days: empty, impressions: 0, clicks: 0 } });
      expect(document.querySelector('svg')?.getAttribute('aria-label')).toContain('합계 0회, 모든 날 0회.');
      expect([...document.querySelectorAll('svg rect')].every((bar) => bar.getAttribute('height') === '0')).toBe(true);
    });

    it('shows a rejection with its reason and a way to ask', async () => {
      const document = await render({
        ...approved,
        status: 'rejected',
        rejectReason: '이미지의 글씨가 너무 작습니다.',
        period: null,
        counts: null,
      });
      expect(facts(document)).toMatchObject({ 상태: '거절', '거절 사유': '이미지의 글씨가 너무 작습니다.' });
      expect(facts(document)).not.toHaveProperty('게재 기간');
      expect(document.querySelector('.ad-status__note a')?.getAttribute('href')).toBe('/contact');
      expect(document.querySelector('svg')).toBeNull();
      expect(document.querySelectorAll('.ad-status__note')).toHaveLength(1); // nothing to pay
    });
  });
});
