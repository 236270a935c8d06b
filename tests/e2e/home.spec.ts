/**
 * The home screen as a phone sees it, in Debian's Chromium against the built app (demo feed, api
 * clock on a weekday morning): arrival cards, the tabs, and the 4-second refresh. The browser's
 * timers run on Playwright's fake clock, so the countdown is driven, not waited for. The down
 * cards show an estimate's 80 % range wider than 2 minutes after its time, with and without
 * JavaScript, and keep their height whether or not one shows.
 */
import { expect, test, type Locator, type Page } from './test';
import { TimeLeftResponseSchema, type DownRoute } from '../../contract/bus';
import { groupRoutes } from '../../contract/time-left-groups';
import { hhmm, isShown, shownText, spoken } from './ranges';

test('a phone sees live arrival cards, switches tabs instantly, and watches the countdown refresh the data', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');

  const upTab = page.getByRole('tab', { name: '상행' });
  const downTab = page.getByRole('tab', { name: '하행' });
  await expect(upTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('데모 데이터')).toBeVisible();

  const cards = page.getByRole('region', { name: '도착 정보' }).getByRole('listitem');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThan(0);
  await expect(cards.first()).toContainText(/\d+번, (\d+분 후 도착, \d+정거장 전|도착 정보 없음)/);
  const stops = page.getByRole('region', { name: '버스 위치' }).getByRole('listitem');
  await expect(stops.first()).toContainText('외대사거리');

  // Tabs switch without a loader call.
  let loaderCalls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.data')) loaderCalls += 1; // single fetch's loader calls
  });
  await downTab.click();
  await expect(page).toHaveURL(/\?dir=down$/);
  await expect(downTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: '출발 예상 시간' })).toBeVisible();
  await expect(stops.first()).toContainText('파란지붕');
  await upTab.click();
  await expect(upTab).toHaveAttribute('aria-selected', 'true');
  expect(loaderCalls).toBe(0);

  // The countdown runs 00:04 → 00:01, then refreshes through /bus/time-left and starts again.
  // The refresh answer is the server's own, with the first bus moved to 3 minutes / 2 stops away
  // so the test can see that what is on screen is the new answer (red at ≤ 4 minutes, docs/product.md §9).
  let refreshes = 0;
  await page.route('**/bus/time-left*', async (route) => {
    const real = TimeLeftResponseSchema.parse(await (await route.fetch()).json());
    refreshes += 1;
    real.data[0].routes[0] = { ...real.data[0].routes[0], time: 3, location: 2, predictTimeSec: 170 };
    await route.fulfill({ json: real });
  });
  const countdown = page.locator('.countdown');
  await expect(countdown).toContainText('00:04');
  await page.clock.runFor(1000);
  await expect(countdown).toContainText('00:03');
  await page.clock.runFor(3000);
  await expect.poll(() => refreshes).toBe(1);
  await expect(countdown).toContainText('00:04');
  await expect(cards.first()).toContainText('3분 후 도착, 2정거장 전');
  await expect(cards.first().locator('.card__time--soon')).toHaveText('3분');
  await expect(page.getByRole('status')).toContainText('데모 데이터');
});

test('a phone that loses its connection is told within seconds how old its data is, and no minute looks current', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');
  const status = page.getByRole('status');
  const countdown = page.locator('.countdown');
  /** Runs the phone's clock to the next refresh and waits until it is through (the count starts again). */
  const refreshed = async () => {
    await page.clock.runFor(4000);
    await expect(countdown).toContainText('00:04');
  };
  const cards = page.getByRole('region', { name: '도착 정보' }).locator('.cards');
  await expect(cards.getByRole('listitem').first()).toBeVisible();
  // Every card soon (red), so the test sees the red go.
  await page.route('**/bus/time-left*', async (route) => {
    const real = TimeLeftResponseSchema.parse(await (await route.fetch()).json());
    const up = real.data.find((group) => group.type === 'up')!;
    up.routes = up.routes.map((route) => ({ ...route, time: 3, location: 2 }));
    await route.fulfill({ json: real });
  });
  await refreshed();
  await expect(cards.locator('.card__time--soon').first()).toBeVisible();

  await page.unroute('**/bus/time-left*');
  await page.route('**/bus/time-left*', (route) => route.abort('internetdisconnected'));
  await refreshed(); // one failure: maybe a blip
  await expect(status).not.toContainText('연결이 끊겨');
  await refreshed(); // the second in a row: within 8 s
  await expect(status).toContainText('연결이 끊겨 1분 전 정보입니다');
  await expect(cards).toHaveClass(/cards--lost/);
  await expect(cards.locator('.card__time--soon')).toHaveCount(0);
  await expect(cards.getByRole('listitem').first()).toContainText('연결이 끊기기 전 정보');
  // Where the buses were is not claimed either.
  await expect(page.locator('.progress__caption')).toHaveText('');
  await expect(page.locator('.chip')).toHaveCount(0);
  // The age keeps counting while nothing comes.
  await page.clock.runFor(120_000);
  await expect(status).toContainText(/연결이 끊겨 [23]분 전 정보입니다/);
  await expect(countdown).toContainText('00:04');

  // Back online: the next refresh clears it.
  await page.unroute('**/bus/time-left*');
  await refreshed();
  await expect(status).not.toContainText('연결이 끊겨');
  await expect(cards).not.toHaveClass(/cards--lost/);
});

test('the up line tells its buses by plate and says they have passed the crossroads, so the cards read beside it', async ({
  page,
}) => {
  // Every refresh answers one bus, from the first: a refresh between the page's load and the
  // route's setting would otherwise show the demo's own buses for another 4 s.
  await page.route('**/bus/time-left*', async (route) => {
    const real = TimeLeftResponseSchema.parse(await (await route.fetch()).json());
    const vehicles = [
      { routeNo: '1150', plateNo: '경기70아5678', section: { direction: 'up' as const, stopIndex: 1 } },
    ];
    await route.fulfill({ json: { ...real, vehicles } });
  });
  await page.clock.install();
  await page.goto('/');
  await expect(page.locator('.countdown')).toContainText('00:04'); // counting: hydrated
  await page.clock.runFor(4000);
  const line = page.getByRole('region', { name: '버스 위치' });
  const chip = line.locator('.stop--active .chip');
  await expect(chip).toHaveText('1150번 버스, 차량 경기70아56785678');
  await expect(chip.locator('.chip__plate')).toHaveText('5678');
  await expect(line).toContainText(
    '노선도의 버스는 외대사거리를 지나 캠퍼스 안에 있는 버스이고, 도착 정보는 외대사거리로 오는 버스입니다.',
  );
});

test('before the live feed is set up, the home says so and claims no empty road and no missing bus', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');
  // The refresh answers as a live feed whose GBIS ids are not set up yet (api/bus/time-left-view.ts):
  // no arrivals, no vehicles, idsUnknown.
  await page.route('**/bus/time-left*', async (route) => {
    const real = TimeLeftResponseSchema.parse(await (await route.fetch()).json());
    const data = real.data.map((group) => (group.type === 'up' ? { type: 'up' as const, routes: [] } : group));
    const feed = {
      source: 'gbis' as const,
      takenAt: null,
      ageSec: null,
      stale: false,
      inService: true,
      idsUnknown: true,
    };
    await route.fulfill({ json: { data, vehicles: [], feed } });
  });
  await page.clock.runFor(4000);
  await expect(page.getByRole('status')).toContainText('실시간 버스 정보를 준비하고 있습니다.');
  await expect(page.getByText('현재 이 구간에 버스가 없습니다.')).toHaveCount(0);
  await expect(page.getByText('현재 운행 중인 버스가 없습니다.')).toHaveCount(0);
  await expect(page.getByRole('region', { name: '도착 정보' }).getByRole('listitem')).toHaveCount(0);
  // The stops are still drawn, without a claim about buses on them.
  await expect(page.getByRole('region', { name: '버스 위치' }).getByRole('listitem').first()).toContainText(
    '외대사거리',
  );
});

test('a phone with JavaScript off still sees the arrivals and both tabs as links', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('region', { name: '도착 정보' }).getByRole('listitem').first()).toContainText(/\d+번, /);
  await page.getByRole('tab', { name: '하행' }).click();
  await expect(page).toHaveURL(/\?dir=down$/);
  await expect(page.getByRole('tab', { name: '하행' })).toHaveAttribute('aria-selected', 'true');
  await context.close();
});

/** The down cards: route number, the estimate with its range as shown, and what screen readers hear of them. */
function downCards(page: Page) {
  return page.locator('.cards > li').evaluateAll((cards) =>
    cards.map((card) => {
      const estimate = card.querySelector('.card__time-item:last-child dd');
      return {
        routeNo: card.querySelector('.card__route')?.firstChild?.textContent ?? '',
        shown: estimate?.querySelector('.card__estimate')?.textContent ?? null,
        hidden: estimate?.querySelector('.card__estimate')?.getAttribute('aria-hidden') ?? null,
        said: estimate?.querySelector('.sr-only')?.textContent ?? null,
      };
    }),
  );
}

/** What a down card shows and says of `route`'s estimate: its range only when wider than 2 minutes. */
function expectedCard({ routeNo, data: { estimate }, range }: DownRoute) {
  if (estimate === null) return { routeNo, shown: null, hidden: null, said: '정보 없음' };
  if (!isShown(range)) return { routeNo, shown: null, hidden: null, said: null };
  return {
    routeNo,
    shown: `${hhmm(estimate)} ${shownText(range)}`,
    hidden: 'true',
    said: `${spoken(estimate)}. 대개 ${spoken(range.lowerAt)}에서 ${spoken(range.upperAt)} 사이에 출발합니다.`,
  };
}

/** Each card's height, whole pixels. */
const heightsOf = (cards: Locator) =>
  cards.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().height)));

test("a phone sees the estimate's range on the down card, hears it as a sentence, and the card keeps its height", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/?dir=down');
  const cards = page.locator('.cards > li');
  await expect(cards.first()).toBeVisible();
  await expect(page.locator('.countdown')).toContainText('00:04'); // hydrated: the refresh is on the fake clock
  const heights = await heightsOf(cards);
  expect(new Set(heights).size).toBe(1);

  // The next refresh answers the server's own data, with the first route's estimate at 22:41 with
  // a range of 22:40:10 to 22:44:50 (shown), and the second's range exactly 2 minutes (not shown).
  let routeNos: string[] = [];
  await page.route('**/bus/time-left*', async (route) => {
    const real = TimeLeftResponseSchema.parse(await (await route.fetch()).json());
    const down = groupRoutes(real, 'down');
    routeNos = down.map((entry) => entry.routeNo);
    const at = (time: string) => `2026-11-23T${time}+09:00`;
    down[0].data.estimate = at('22:41:00');
    down[0].range = { lowerAt: at('22:40:10'), upperAt: at('22:44:50') };
    down[1].data.estimate = at('22:47:00');
    down[1].range = { lowerAt: at('22:46:00'), upperAt: at('22:48:00') };
    await route.fulfill({ json: real });
  });
  await page.clock.runFor(4000);
  await expect.poll(() => routeNos.length).toBeGreaterThan(1);
  const [first, second] = routeNos;
  await expect
    .poll(() => downCards(page).then((shown) => shown.find((card) => card.routeNo === first)))
    .toEqual({
      routeNo: first,
      shown: '22:41 (22:40~22:44)',
      hidden: 'true',
      said: '22시 41분. 대개 22시 40분에서 22시 44분 사이에 출발합니다.',
    });
  const card = cards.filter({ hasText: `${first}번 버스` });
  await expect(card.locator('.card__estimate')).toBeVisible();
  await expect(card.getByText('22시 41분. 대개', { exact: false })).toHaveClass('sr-only');
  expect((await downCards(page)).find((entry) => entry.routeNo === second)).toEqual({
    routeNo: second,
    shown: null,
    hidden: null,
    said: null,
  });
  await expect(
    cards
      .filter({ hasText: `${second}번 버스` })
      .locator('dd')
      .last(),
  ).toContainText('22:47');
  // No layout shift: every card as tall as before.
  expect(await heightsOf(cards)).toEqual(heights);
});

test("a phone with JavaScript off sees each estimate's range wider than 2 minutes on the down cards", async ({
  browser,
}) => {
  test.setTimeout(100_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  // The page against the server's answer of the same moment (GET /bus/time-left), again until a
  // card shows a range: right after a first start the estimates rest on the timetable, which
  // states none. Which next departure has a range wider than 2 minutes depends on the api's clock
  // (in the demo's first minutes one has; some later stretches of minutes have none), so
  // past 45 seconds a page that matches its answer is enough, noted; the server-rendered modal's
  // ranges are checked without fail in departures.spec.ts, and the card's in app/routes/_index.test.ts.
  let shown = false;
  const started = Date.now();
  await expect(async () => {
    await page.goto('/?dir=down');
    const answer = TimeLeftResponseSchema.parse(await (await page.request.get('/bus/time-left')).json());
    const expected = groupRoutes(answer, 'down').map(expectedCard);
    expect(await downCards(page)).toEqual(expected);
    shown = expected.some((card) => card.shown !== null);
    expect(shown || Date.now() - started > 45_000).toBe(true);
  }).toPass({ timeout: 75_000 });
  if (shown) {
    const estimate = page.locator('.card__estimate').first();
    await expect(estimate).toBeVisible();
    await expect(estimate).toHaveText(/^\d{2}:\d{2} \(\d{2}:\d{2}~\d{2}:\d{2}\)$/);
  } else {
    test.info().annotations.push({ type: 'note', description: 'no estimate had a range wider than 2 minutes' });
  }
  const heights = await heightsOf(page.locator('.cards > li'));
  expect(new Set(heights).size).toBe(1);
  await context.close();
});

test('an unknown address shows the 404 page with a way home', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByText('페이지를 찾을 수 없습니다.')).toBeVisible();
});

test('with no ad yet, the default banner invites shops to advertise, and nothing loads from a third party', async ({
  page,
}) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://localhost:')) foreign.push(request.url());
  });
  await page.goto('/');
  const invite = page.getByRole('region', { name: '광고', exact: true }).getByRole('link');
  await expect(invite).toContainText('이 자리에 가게를 알려보세요');
  await expect(page.getByRole('complementary', { name: '제휴 광고' })).toHaveCount(0);
  await invite.click();
  await expect(page).toHaveURL(/\/ads\/apply$/);
  await expect(page.getByRole('heading', { name: '광고 신청' })).toBeVisible();
  expect(foreign).toEqual([]);
});

test('the app stylesheet comes inline with the document, and stays through client-side navigation', async ({
  page,
}) => {
  const stylesheetRequests: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheetRequests.push(request.url());
  });
  await page.goto('/');
  const header = page.locator('header.site-header');
  await expect(header).toHaveCSS('background-color', 'rgb(255, 105, 180)');
  await expect(page.locator('.countdown')).toContainText('다음 새로고침'); // hydrated
  let dataRequests = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.data')) dataRequests += 1;
  });
  await page.getByRole('link', { name: '자주 묻는 질문' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '자주 묻는 질문' })).toBeVisible();
  expect(dataRequests).toBeGreaterThan(0); // a client-side navigation, not a new document
  await expect(header).toHaveCSS('background-color', 'rgb(255, 105, 180)');
  await expect(page.locator('head style')).toHaveCount(1);
  expect(stylesheetRequests).toEqual([]);
});
