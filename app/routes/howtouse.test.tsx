import HowToUse, { headers } from '~/routes/howtouse';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';
import { renderRoute } from '../../tests/setup/render-route';

const page = async () => {
  const document = await renderRoute(HowToUse, { path: '/howtouse', url: '/howtouse', loaderData: {} });
  return { document, text: document.body.textContent ?? '' };
};

describe('/howtouse', () => {
  it('walks through the spec’s five steps in order under one h1', async () => {
    const { document } = await page();
    expect(document.querySelector('h1')?.textContent).toBe('이용 방법');
    const steps = [...document.querySelectorAll('ol > li')];
    expect(steps.map((step) => step.querySelector('h2')?.textContent)).toEqual([
      '사이트에 접속하세요',
      '버스 노선을 확인하세요',
      '실시간 도착 정보를 보세요',
      '하행 출발 예상 시간을 확인하세요',
      '궁금한 점은 FAQ와 문의하기로',
    ]);
    expect(steps[1].textContent).toContain('그 정류장이 밝게 표시되고 버스 번호가 함께 나타납니다');
    expect(steps[3].textContent).toContain('‘출발 예상 시간 전체 보기’');
    expect([...steps[4].querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/faq', '/contact']);
  });

  it('gives the refresh interval the countdown uses (4 s), never the reference’s 5 s', async () => {
    const { document, text } = await page();
    expect(REFRESH_INTERVAL_SEC).toBe(4);
    expect(document.querySelectorAll('ol > li')[2].querySelector('strong')?.textContent).toBe('4초');
    expect(text).toContain('정보는 4초마다 자동으로 새로고침되고');
    expect(text).not.toContain('5초');
  });

  it('notes that real times vary with traffic and events, and states about 200 daily users (docs/product.md §1)', async () => {
    const { document, text } = await page();
    expect(document.querySelector('[role="note"]')?.textContent).toContain(
      '실제 도착·출발 시간은 교통 상황이나 행사, 날씨 등에 따라 달라질 수 있습니다.',
    );
    expect(text).toContain('하루 약 200명의 학생과 교직원이');
  });

  it('shows the sample bus data as the home’s own cards, and explains routeNo, time and location', async () => {
    const { document } = await page();
    const sample = document.querySelector('section[aria-labelledby="sample-title"]')!;
    expect(sample.querySelector('figcaption')?.textContent).toBe('예시 화면 (실제 운행 정보가 아닙니다)');
    // ArrivalCards' own sentences: the close bus in red and in words, the one without information.
    expect([...sample.querySelectorAll('.card .sr-only')].map((s) => s.textContent)).toEqual([
      '1150번, 3분 후 도착, 2정거장 전, 곧 도착',
      '1117번, 12분 후 도착, 6정거장 전',
      '1303번, 도착 정보 없음',
    ]);
    expect(sample.querySelector('.card__time--soon')?.textContent).toBe('3분');
    const rows = [...sample.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    expect(rows.map(([field, , example]) => [field, example])).toEqual([
      ['routeNo', '1150번'],
      ['time', '3분'],
      ['location', '2정거장 전'],
    ]);
  });

  it('is cacheable', () => {
    const empty = new Headers();
    const sent = headers({ loaderHeaders: empty, parentHeaders: empty, actionHeaders: empty, errorHeaders: undefined });
    expect(new Headers(sent).get('Cache-Control')).toBe('public, max-age=300');
  });
});
