import { http, HttpResponse } from 'msw';
import type { BankAccount } from '../../contract/ad-payment';
import type { PredictionAccuracy } from '../../contract/bus';
import type { PublicConfig } from '~/utils/public-config';
import Faq, { headers, loader } from '~/routes/faq';
import { ACCURACY_URL, accuracyBody, accuracyHandler, apiContext, setupApiServer } from '../../tests/mocks/api';
import { renderRoute } from '../../tests/setup/render-route';

/** The api's answer on a deployment without history yet. */
const noHistoryBody = {
  ...accuracyBody,
  window: { days: 0, firstDate: null, lastDate: null },
  estimate: { etaScore: null, maeSec: null, queries: 0 },
  dayBefore: { etaScore: null, maeSec: null, queries: 0 },
} satisfies PredictionAccuracy;

const server = setupApiServer(accuracyHandler());

/** A deployment's public configuration without any of the optional settings. */
const PUBLIC_CONFIG: PublicConfig = {
  bankAccount: null,
  adSlots: { adfitUnit: null, adsense: null },
  privacyOfficer: null,
  analyticsId: null,
};

/** The loader's answer, then the page rendered with it (the HTML a phone without JavaScript gets). */
async function page(bankAccount: BankAccount | null = null) {
  const response = await loader({
    request: new Request('http://web.test/faq'),
    context: { ...apiContext(), publicConfig: { ...PUBLIC_CONFIG, bankAccount } },
    params: {},
  });
  const loaderData = await response.json();
  const document = await renderRoute(Faq, { path: '/faq', url: '/faq', loaderData });
  return { response, loaderData, document, text: document.body.textContent ?? '' };
}

const accuracyText = (document: Document) => document.querySelector('.faq__accuracy')?.textContent ?? null;

describe('/faq', () => {
  it('has six native question items in order, the refresh interval, the price and an inquiry box to /contact', async () => {
    const { document, text } = await page();
    const headings = [...document.querySelectorAll('h1, h2')].map((h) => `${h.tagName} ${h.textContent}`);
    expect(headings).toEqual(['H1 자주 묻는 질문', 'H2 찾는 답이 없나요?']);
    const items = [...document.querySelectorAll('details')];
    expect(items.map((item) => item.querySelector(':scope > summary')?.textContent)).toEqual([
      '버스 정보는 어디에서 가져오나요?',
      '정보는 얼마나 자주 새로고침되나요?',
      '하행 출발 예상 시간은 어떻게 계산하나요? 얼마나 정확한가요?',
      '광고는 어떻게 신청하나요?',
      '오류를 발견했거나 건의하고 싶은 게 있어요.',
      '제 개인정보는 어떻게 처리되나요?',
    ]);
    expect(items.every((item) => !item.hasAttribute('open'))).toBe(true);
    expect(items[0].textContent).toContain('경기도 버스정보시스템(GBIS)이 공공데이터포털을 통해');
    expect(items[0].textContent).toContain('‘데모 데이터’');
    expect(items[1].textContent).toContain('홈 화면은 4초마다');
    expect(text).not.toContain('5초');
    expect(items[3].textContent).toContain('한 달(30일)에 26,000원이며, 기간은 1·2·3개월');
    expect(items[3].querySelector('a')?.getAttribute('href')).toBe('/ads/apply');
    // The result is seen on the status page; e-mail is promised only where the site sends it.
    expect(items[3].textContent).toContain('검토 결과와 게재 기간, 게재가 시작된 뒤의 노출·클릭 수를 그 링크에서');
    expect(items[3].textContent).not.toContain('결과는 이메일로 알려드립니다');
    expect(items[3].querySelectorAll('p')[1].textContent).toBe(
      '신청서를 보낸 뒤 광고비를 계좌 이체로 입금해주세요. 입금을 확인하면 광고를 승인하고, 승인한 날부터 게재 기간이 ' +
        '시작됩니다. 입금 계좌는 신청을 받은 뒤 담당자가 입력하신 이메일로 알려드립니다. ' +
        '신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
    );
    expect(items[4].querySelector('a')?.getAttribute('href')).toBe('/contact');
    expect(items[5].querySelector('a')?.getAttribute('href')).toBe('/privacypolicy');
    const box = document.querySelector('section[aria-labelledby="inquiry-title"]');
    expect(box?.querySelector('a')?.getAttribute('href')).toBe('/contact');
    expect(box?.querySelector('a')?.textContent).toBe('문의하기');
  });

  it('tells the payment order of the application page and its account when one is configured, never to pay first', async () => {
    const { document, text } = await page({ bank: '농협', number: '351-1234-5678-90', holder: '캠퍼스버스' });
    const answer = document.querySelectorAll('details')[3];
    expect(answer.querySelectorAll('p')[1].textContent).toBe(
      '신청서를 보낸 뒤 광고비를 계좌 이체로 입금해주세요. 입금을 확인하면 광고를 승인하고, 승인한 날부터 게재 기간이 ' +
        '시작됩니다. 입금 계좌는 농협 351-1234-5678-90 (예금주 캠퍼스버스)입니다. ' +
        '신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
    );
    expect(text).not.toContain('먼저 입금');
  });

  it('states the last 14 days’ accuracy of the estimate against the day before’s times (‘어제’), and what accurate means', async () => {
    const { response, loaderData, document } = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(loaderData).toEqual({ accuracy: accuracyBody, bankAccount: null });
    const [lead, figure, definition] = [...document.querySelectorAll('.faq__accuracy p')].map((p) => p.textContent);
    // The down tab's sentence: 104 s is about 2 minutes.
    expect(lead).toBe('지난 2주 동안 예상 출발 시각의 평균 오차는 약 2분입니다.');
    expect(figure).toBe(
      '11월 9일부터 11월 22일까지 14일 동안의 실제 출발 기록으로 되짚어 보니, ‘예상’ 시간의 정확도는 65%였습니다. ' +
        '실제 출발과의 차이는 평균 1분 44초였습니다. 같은 기간 ‘어제’ 시간을 그대로 썼다면 정확도는 41%, 평균 차이는 5분 28초였습니다.',
    );
    expect(definition).toContain('출발 3분 전 이내라면 예상보다 30초 이르거나 1분 30초 늦은 범위까지');
    expect(definition).toContain('10~15분 전이라면 1분 30초 이르거나 4분 30초 늦은 범위까지');
    expect(definition).toContain('(0~3분 전, 3~6분 전, 6~10분 전, 10~15분 전)');
    expect(definition).not.toContain('시뮬레이터');
  });

  it('explains the range after an expected time: 8 of 10 days, and why the time is a little early', async () => {
    const { document } = await page();
    const range = document.getElementById('range');
    expect(range?.closest('details')?.querySelector('summary')?.textContent).toBe(
      '하행 출발 예상 시간은 어떻게 계산하나요? 얼마나 정확한가요?',
    );
    expect(range?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '예상 시각 뒤 괄호 안의 시간은 출발 범위입니다. ‘22:41 (22:40~22:44)’는 예상 출발이 22시 41분이고, 비슷한 ' +
        '날 10번 중 8번쯤은 22시 40분에서 22시 44분 사이에 떠난다는 뜻입니다. 곧 떠날 버스의 예상 시각은 일부러 조금 ' +
        '이르게 잡습니다. 조금 늦게 오는 버스는 기다리면 타지만, 일찍 떠난 버스는 놓치기 때문입니다. 범위가 2분 ' +
        '이하로 좁거나 시간표로 계산한 시각은 시각만 보여줍니다.',
    );
  });

  it('says a demo figure comes from simulated history', async () => {
    server.use(http.get(ACCURACY_URL, () => HttpResponse.json({ ...accuracyBody, source: 'demo' })));
    expect(accuracyText((await page()).document)).toContain('시뮬레이터가 만든 가상의 운행 기록으로 계산한 것입니다.');
  });

  it('says the figure is not there yet when the api has no history, or has not computed it yet', async () => {
    for (const [body, cacheControl] of [
      [noHistoryBody, 'public, max-age=300'],
      [{ ...noHistoryBody, computedAt: null }, 'no-store'], // computed within the minute: not kept
    ] as const) {
      server.use(http.get(ACCURACY_URL, () => HttpResponse.json(body)));
      const { response, document } = await page();
      expect(response.headers.get('Cache-Control')).toBe(cacheControl);
      expect(accuracyText(document)).toBe(
        '정확도 수치는 아직 없습니다. 운행 기록이 쌓이면 최근 14일 기준으로 하루에 한 번 계산해 여기에 보여드리겠습니다.',
      );
    }
  });

  it('leaves the figure out, logged and not cached, when the api fails or answers off-contract; the page still renders', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const answer of [
      HttpResponse.json({ message: 'The prediction accuracy is unavailable right now' }, { status: 503 }),
      HttpResponse.json({ ...accuracyBody, estimate: { etaScore: 'high' } }),
    ]) {
      server.use(http.get(ACCURACY_URL, () => answer));
      const { response, loaderData, document } = await page();
      expect(response.status).toBe(200);
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(loaderData).toEqual({ accuracy: null, bankAccount: null });
      expect(accuracyText(document)).toBeNull();
      expect(document.querySelectorAll('details')).toHaveLength(6);
    }
    expect(log.mock.calls).toEqual([
      ['[faq] prediction accuracy unavailable:', 'GET /api/bus/accuracy: HTTP 503'],
      ['[faq] prediction accuracy unavailable:', 'GET /api/bus/accuracy: answer does not match the contract'],
    ]);
  });

  it('sends the loader’s Cache-Control with the document', async () => {
    const loaderHeaders = new Headers({ 'Cache-Control': 'public, max-age=300' });
    const empty = new Headers();
    const sent = headers({ loaderHeaders, parentHeaders: empty, actionHeaders: empty, errorHeaders: undefined });
    expect(new Headers(sent).get('Cache-Control')).toBe('public, max-age=300');
  });
});
