/**
 * An admin at work on a phone (docs/product.md §2.2 Admin routes and pages, §4.5 Admin request detail
 * and Ad edit card, §8): signs in, approves and rejects applications with JavaScript on and off, edits,
 * re-images, reorders and deletes the ads the home banner shows, reads the bus information status,
 * and finds it all in the activity log (the service notice's page: admin-notice.spec.ts).
 * Applications are sent through the api as shops send them, each test from its own address (the api
 * limits submits per IP) and with titles of its own; what the pages did is read back through the api
 * with the service token.
 */
import { expect, test, type Locator, type Page } from './test';
import { AD_EDIT_HEADINGS, ADMIN_MESSAGES } from '../../contract/admin';
import {
  ADMIN_CREDENTIALS,
  approvedAd,
  deleteAdsTagged,
  IMAGE_FILES,
  signIn,
  submitAdApplication,
} from './admin-deployment';
import { ADS_WEB_URL, approve, managedAds, phoneIp, applicationDetail } from './ads-deployment';

/** In every title this spec makes, so what it approved is taken down again after each test. */
const TAG = '관리e2e';
const WRONG_CREDENTIALS = '아이디 또는 비밀번호가 올바르지 않습니다.';
const DECIDED_ALREADY = '이미 승인 또는 거절된 요청입니다.';
const ORDER_SAVED = '순서를 저장했습니다.';

test.use({ baseURL: ADS_WEB_URL });

test.afterEach(async ({ request }) => {
  await deleteAdsTagged(request, 'web', TAG);
});

const titleOf = (what: string) => `${TAG} ${what} ${Date.now()}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The card of the ad titled `title` on the ad edit page, viewing or editing. */
function adCard(page: Page, title: string): Locator {
  return page
    .getByRole('list', { name: `${AD_EDIT_HEADINGS.web} 목록` })
    .getByRole('listitem', { name: new RegExp(`^${escape(title)}( 수정 중)?$`) });
}

/** The titles of the managed web ads in the api's order. */
async function webAdOrder(page: Page) {
  return (await managedAds(page.request, 'web')).map((ad) => ad.title);
}

test('an admin must sign in: the page asked for comes back after it, and signing out closes the admin pages', async ({
  page,
}) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(101) });
  await page.goto('/admin-only/ads/web');
  await expect(page).toHaveURL('/admin-only/login?redirectTo=%2Fadmin-only%2Fads%2Fweb');
  await expect(page.getByRole('heading', { name: '관리자 로그인' })).toBeVisible();

  await page.getByLabel('아이디', { exact: true }).fill(ADMIN_CREDENTIALS.username);
  await page.getByLabel('비밀번호', { exact: true }).fill(`${ADMIN_CREDENTIALS.password}-wrong`);
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page.getByRole('alert').getByText(WRONG_CREDENTIALS)).toBeVisible();

  await page.getByLabel('비밀번호', { exact: true }).fill(ADMIN_CREDENTIALS.password);
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page).toHaveURL('/admin-only/ads/web');
  await expect(page.getByRole('heading', { name: '웹 배너 광고 요청 목록' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: '관리자 메뉴' })).toContainText(ADMIN_CREDENTIALS.username);

  await page.getByRole('button', { name: '로그아웃' }).click();
  await expect(page).toHaveURL('/admin-only/login');
  await page.goto('/admin-only/ads/web');
  await expect(page).toHaveURL('/admin-only/login?redirectTo=%2Fadmin-only%2Fads%2Fweb');
  await expect(page.getByRole('heading', { name: '웹 배너 광고 요청 목록' })).toHaveCount(0);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });
    const seed = javaScriptEnabled ? 110 : 120;

    test('an admin approves one application and rejects another through the confirm and completion dialogs', async ({
      page,
      request,
    }) => {
      const ip = phoneIp(seed);
      const approved = titleOf(`승인 ${javaScriptEnabled ? 'js' : 'nojs'}`);
      const rejected = titleOf(`거절 ${javaScriptEnabled ? 'js' : 'nojs'}`);
      const approvedId = await submitAdApplication(request, { type: 'web', title: approved, ip });
      const rejectedId = await submitAdApplication(request, { type: 'web', title: rejected, ip });
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
      await signIn(page, '/admin-only/ads/web');

      // Approve: the list marks it for review; the detail's approve asks first, then says it is done.
      const listed = page.getByRole('link', { name: new RegExp(escape(approved)) });
      await expect(listed).toContainText('검토 대기');
      await listed.click();
      await expect(page).toHaveURL(`/admin-only/ads/web/confirm/${approvedId}`);
      await expect(page.getByRole('heading', { name: approved })).toBeVisible();
      await page.getByRole('link', { name: '승인', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: '광고 승인' });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: '승인' }).click();
      const done = page.getByRole('alertdialog', { name: '완료' });
      await expect(done.getByText(ADMIN_MESSAGES.approved, { exact: true })).toBeVisible();
      await done.getByRole('link', { name: '확인' }).click();
      await expect(page).toHaveURL('/admin-only/ads/web');
      await expect(page.getByRole('link', { name: new RegExp(escape(approved)) })).toContainText('승인됨');
      expect((await webAdOrder(page)).at(-1)).toBe(approved);
      expect(await applicationDetail(request, 'web', approvedId)).toMatchObject({ status: 'approved' });

      // Reject: the same steps; the ad is not shown anywhere.
      await page.getByRole('link', { name: new RegExp(escape(rejected)) }).click();
      await page.getByRole('link', { name: '거절', exact: true }).click();
      await page.getByRole('alertdialog', { name: '광고 거절' }).getByRole('button', { name: '거절' }).click();
      const rejectedDone = page.getByRole('alertdialog', { name: '완료' });
      await expect(rejectedDone.getByText(ADMIN_MESSAGES.rejected, { exact: true })).toBeVisible();
      await rejectedDone.getByRole('link', { name: '확인' }).click();
      await expect(page).toHaveURL('/admin-only/ads/web');
      await expect(page.getByRole('link', { name: new RegExp(escape(rejected)) })).toContainText('거절됨');
      expect(await applicationDetail(request, 'web', rejectedId)).toMatchObject({ status: 'rejected' });
      expect(await webAdOrder(page)).not.toContain(rejected);

      // A decided application offers no decision any more.
      await page.goto(`/admin-only/ads/web/confirm/${rejectedId}`);
      await expect(page.getByText('이미 처리한 요청입니다.')).toBeVisible();
      await expect(page.getByRole('link', { name: '승인', exact: true })).toHaveCount(0);
      await expect(page.getByRole('link', { name: '거절', exact: true })).toHaveCount(0);
    });

    test('an application another admin decided meanwhile is not approved twice: the failure names why', async ({
      page,
      request,
    }) => {
      const ip = phoneIp(seed + 1);
      const title = titleOf(`두번 ${javaScriptEnabled ? 'js' : 'nojs'}`);
      const id = await submitAdApplication(request, { type: 'web', title, ip });
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
      await signIn(page, `/admin-only/ads/web/confirm/${id}`);
      await page.getByRole('link', { name: '승인', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: '광고 승인' });
      await expect(confirm).toBeVisible();

      await approve(request, 'web', id); // another admin, faster
      await confirm.getByRole('button', { name: '승인' }).click();
      const failed = page.getByRole('alertdialog', { name: '처리하지 못했습니다' });
      await expect(
        failed.getByText(`${ADMIN_MESSAGES.approveFailed}: ${DECIDED_ALREADY}`, { exact: true }),
      ).toBeVisible();
      expect((await webAdOrder(page)).filter((ad) => ad === title)).toHaveLength(1);
      await failed.getByRole('link', { name: '확인' }).click();
      await expect(page).toHaveURL('/admin-only/ads/web');
    });
  });
}

test('a type other than web or kakao is refused with the spec’s words', async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(130) });
  await signIn(page, '/admin-only/ads/foo');
  await expect(page.getByRole('alert')).toHaveText(ADMIN_MESSAGES.invalidType);

  const edit = await page.goto('/admin-only/ads/edit/foo');
  expect(edit?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: AD_EDIT_HEADINGS.other })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(ADMIN_MESSAGES.invalidTypeEdit);

  // The valid type still works (its empty list: app/routes/admin-only.ads.pages.test.ts).
  await page.goto('/admin-only/ads/kakao');
  await expect(page.getByRole('heading', { name: '챗봇 광고 요청 목록' })).toBeVisible();
});

test('done on an unchanged card sends nothing; a changed title is saved and shown', async ({ page, request }) => {
  const ip = phoneIp(140);
  const title = titleOf('수정');
  await approvedAd(request, { type: 'web', title, ip });
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  await signIn(page, '/admin-only/ads/edit/web');
  await expect(page.getByRole('heading', { name: AD_EDIT_HEADINGS.web })).toBeVisible();

  const card = adCard(page, title);
  await expect(card.getByText('https://shop.example/menu')).toBeVisible();
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST') posts.push(sent.url());
  });
  await card.getByRole('link', { name: /^edit/ }).click();
  await expect(card.getByLabel('제목', { exact: true })).toHaveValue(title);
  await card.getByRole('button', { name: 'done' }).click();
  await expect(card.getByRole('link', { name: /^edit/ })).toBeVisible();
  await expect(page).toHaveURL('/admin-only/ads/edit/web');
  await expect(page.getByText(ADMIN_MESSAGES.modified)).toHaveCount(0);
  expect(posts).toEqual([]);

  const renamed = `${title} 새`;
  await card.getByRole('link', { name: /^edit/ }).click();
  await card.getByLabel('제목', { exact: true }).fill(renamed);
  await card.getByRole('button', { name: 'done' }).click();
  await expect(page.getByRole('status').getByText(ADMIN_MESSAGES.modified, { exact: true })).toBeVisible();
  await expect(adCard(page, renamed).getByRole('link', { name: /^edit/ })).toBeVisible();
  expect(posts).toHaveLength(1);
  expect(await webAdOrder(page)).toContain(renamed);
  expect(await webAdOrder(page)).not.toContain(title);
});

test('an admin replaces an ad’s image while editing its card', async ({ page, request }) => {
  const ip = phoneIp(150);
  const title = titleOf('이미지');
  const id = await approvedAd(request, { type: 'web', title, ip });
  const other = titleOf('다른 카드');
  await approvedAd(request, { type: 'web', title: other, ip });
  const before = (await managedAds(request, 'web')).find((ad) => ad.id === id)!.imageUrl;
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  await signIn(page, '/admin-only/ads/edit/web');

  const card = adCard(page, title);
  const thumbnail = card.locator('.ad-card__thumb img');
  await expect(thumbnail).toHaveAttribute('src', before!);
  await expect(card.getByLabel(/이미지 선택/)).toBeDisabled(); // docs/product.md §2: only while editing
  await card.getByRole('link', { name: /^edit/ }).click();
  // One card at a time: while this one is edited, the other cannot be deleted (nor edited).
  await expect(adCard(page, other).getByRole('button', { name: `삭제 ${other}` })).toBeDisabled();
  await expect(adCard(page, other).getByRole('button', { name: `edit ${other}` })).toBeDisabled();
  await expect(page.getByRole('link', { name: /^(삭제|edit) / })).toHaveCount(0);

  // The chosen file shows in the card before done, from the browser's own copy of it.
  await card.getByLabel(/이미지 바꾸기/).setInputFiles(IMAGE_FILES.kakao);
  const preview = card.getByRole('img', { name: `${title}의 새 이미지 미리보기` });
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(175);
  await card.getByRole('button', { name: 'done' }).click();
  await expect(page.getByRole('status').getByText(ADMIN_MESSAGES.modified, { exact: true })).toBeVisible();

  const after = (await managedAds(request, 'web')).find((ad) => ad.id === id)!.imageUrl;
  expect(after).toMatch(/^\/images\//);
  expect(after).not.toBe(before);
  await expect(thumbnail).toHaveAttribute('src', after!);
  // The card's image box is drawn anew on leaving edit mode: its image loads after it is there.
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(175);
});

test('an admin drags an ad above another, the order is saved, and the home banner follows it after a reload', async ({
  page,
  context,
  request,
}) => {
  const ip = phoneIp(160);
  const first = titleOf('첫째');
  const second = titleOf('둘째');
  await approvedAd(request, { type: 'web', title: first, ip });
  await approvedAd(request, { type: 'web', title: second, ip });

  const home = await context.newPage();
  await home.clock.install(); // the banner stays on its first ad
  await home.goto('/');
  const banner = home.getByRole('region', { name: '광고', exact: true });
  await expect(banner.getByRole('img', { name: `광고: ${first}` })).toBeVisible();
  await expect(banner.getByRole('img', { name: `광고: ${second}` })).toBeHidden();
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  await signIn(page, '/admin-only/ads/edit/web');
  const from = adCard(page, second).locator('.ad-card__handle');
  const to = adCard(page, first).locator('.ad-card__handle');
  await expect(from).toBeVisible(); // after hydration: the handle is drawn by the browser only
  const saved = page.waitForResponse((response) => response.request().method() === 'POST');
  await dragAbove(page, from, to);
  expect((await saved).ok()).toBe(true);
  await expect(page.getByRole('status').getByText(ORDER_SAVED, { exact: true })).toBeVisible();
  const order = (await webAdOrder(page)).filter((title) => title === first || title === second);
  expect(order).toEqual([second, first]);
  const cards = page.getByRole('list', { name: `${AD_EDIT_HEADINGS.web} 목록` }).getByRole('listitem');
  await expect(cards.filter({ hasText: TAG })).toHaveText([new RegExp(escape(second)), new RegExp(escape(first))]);

  await home.reload();
  await expect(banner.getByRole('img', { name: `광고: ${second}` })).toBeVisible();
  await expect(banner.getByRole('img', { name: `광고: ${first}` })).toBeHidden();
});

/**
 * Drags `handle` with real pointer moves until it is over the top of `target` (sortablejs uses the
 * browser's native drag and drop; NOTE: each move during a drag takes Chromium about 0.7 s here).
 */
async function dragAbove(page: Page, handle: Locator, target: Locator) {
  // Both handles on screen: the mouse cannot reach what is scrolled away.
  await target.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  const start = (await handle.boundingBox())!;
  const end = (await target.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2 - 5, { steps: 2 });
  await page.mouse.move(end.x + end.width / 2, end.y + 2, { steps: 4 });
  await page.mouse.up();
}

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the up and down buttons reorder the ads without JavaScript', async ({ page, request }) => {
    const ip = phoneIp(170);
    const first = titleOf('위');
    const second = titleOf('아래');
    await approvedAd(request, { type: 'web', title: first, ip });
    await approvedAd(request, { type: 'web', title: second, ip });
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
    await signIn(page, '/admin-only/ads/edit/web');

    await adCard(page, first)
      .getByRole('button', { name: `아래로 ${first}` })
      .click();
    await expect(page.getByRole('status').getByText(ORDER_SAVED, { exact: true })).toBeVisible();
    expect((await webAdOrder(page)).filter((title) => title === first || title === second)).toEqual([second, first]);

    await adCard(page, first)
      .getByRole('button', { name: `위로 ${first}` })
      .click();
    await expect(page.getByRole('status').getByText(ORDER_SAVED, { exact: true })).toBeVisible();
    expect((await webAdOrder(page)).filter((title) => title === first || title === second)).toEqual([first, second]);
  });
});

test('an admin deletes an ad only after confirming, and is told it is deleted', async ({ page, request }) => {
  const ip = phoneIp(180);
  const title = titleOf('삭제');
  await approvedAd(request, { type: 'web', title, ip });
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  await signIn(page, '/admin-only/ads/edit/web');

  const card = adCard(page, title);
  await card.getByRole('link', { name: `삭제 ${title}` }).click();
  const confirm = page.getByRole('alertdialog', { name: ADMIN_MESSAGES.deleteConfirm });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: '삭제' })).toBeVisible();
  await confirm.getByRole('link', { name: '취소' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(card).toBeVisible();
  expect(await webAdOrder(page)).toContain(title);

  await card.getByRole('link', { name: `삭제 ${title}` }).click();
  await confirm.getByRole('button', { name: '삭제' }).click();
  const completed = page.getByRole('alertdialog', { name: ADMIN_MESSAGES.deletedTitle });
  await expect(completed.getByText(ADMIN_MESSAGES.deletedText, { exact: true })).toBeVisible();
  await completed.getByRole('link', { name: '확인' }).click();
  await expect(completed).toHaveCount(0);
  await expect(card).toHaveCount(0);
  expect(await webAdOrder(page)).not.toContain(title);
});

test('the menu leads to the feed health and the 14-day backtest with and without live evidence', async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(195) });
  await signIn(page, '/admin-only');
  await page.getByRole('navigation', { name: '관리자 메뉴' }).getByRole('link', { name: '버스 정보 상태' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '버스 정보 상태' })).toBeVisible();
  await expect(page.getByRole('region', { name: '수집 상태' })).toContainText('데모 시뮬레이터');
  const section = page.getByRole('region', { name: /백테스트/ });
  const overall = section.getByRole('table', { name: /^전체/ });
  await expect(overall.getByRole('row', { name: /^예측\(실시간 반영\)/ })).toContainText('%');
  await expect(overall.getByRole('row', { name: /^과거 기록만/ })).toContainText('%');
  // The demo's back-filled weekdays: every route has learnt slots, each with its spread.
  const slots = section.getByRole('table', { name: /^학습한 출발 시간표/ });
  for (const routeNo of ['1150', '1117', '1303', '1005']) {
    await expect(slots.getByRole('row', { name: new RegExp(`^${routeNo}번 평일 \\d+ \\d+`) })).toHaveCount(1);
  }
});

test('the activity log shows what the admin did, by name', async ({ page, request }) => {
  const ip = phoneIp(200);
  const title = titleOf('기록');
  const id = await submitAdApplication(request, { type: 'web', title, ip });
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  await signIn(page, `/admin-only/ads/web/confirm/${id}?confirm=approve`);
  await page.getByRole('alertdialog', { name: '광고 승인' }).getByRole('button', { name: '승인' }).click();
  await expect(page.getByRole('alertdialog', { name: '완료' })).toBeVisible();

  await page.goto('/admin-only/audit');
  await expect(page.getByRole('heading', { name: '활동 기록' })).toBeVisible();
  const rows = page.getByRole('row');
  const approval = rows.filter({ hasText: `ad-request:web:${id}` });
  await expect(approval).toHaveCount(1);
  // Each entry is a row headed by its time.
  await expect(approval.getByRole('rowheader')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  // The target in an admin's words, its name in the log beside it.
  await expect(approval.getByRole('cell')).toHaveText([
    ADMIN_CREDENTIALS.username,
    '승인',
    `웹 배너 광고 신청 ${id}번 ad-request:web:${id}`,
    /보기/,
  ]);
  await expect(
    rows.filter({ hasText: ADMIN_CREDENTIALS.username }).filter({ hasText: '로그인' }).first(),
  ).toBeVisible();
});
