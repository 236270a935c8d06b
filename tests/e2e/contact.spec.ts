/**
 * A student writes to the service (docs/product.md §2.7 Inquiry screen, §5, §8) on a phone, with
 * JavaScript on and off: an inquiry is taken and the form starts afresh (the success message takes
 * the focus, and goes when a new inquiry is typed), empty content is refused with the spec's
 * message, a text over 2,000 characters is capped by the browser and refused by the server, a form
 * whose honeypot token no longer passes is refused with its text kept and then taken, and the admin
 * finds the inquiry in the admin inquiry list. Everything runs on the
 * split deployment (tests/e2e/ads-deployment.ts), so what was stored is read back through the api;
 * each test is its own phone (the api limits inquiries per IP).
 */
import { expect, test, type Page } from './test';
import { signIn, storedInquiries } from './admin-deployment';
import { ADS_WEB_URL, phoneIp } from './ads-deployment';
import { axeViolations } from './axe';

const SENT = '문의가 접수되었습니다.';
const EMPTY = '문의 내용을 입력해주세요';
const TOO_LONG = '문의 내용은 2,000자까지 쓸 수 있습니다. 조금 줄여주세요.';
const FAILED = '문의 전송에 실패했습니다.';
const SEND_AGAIN = '페이지가 오래되어 새로 불러왔습니다. 한 번 더 보내주세요.';

test.use({ baseURL: ADS_WEB_URL });

const content = (page: Page) => page.getByRole('textbox', { name: '문의 내용' });
const send = (page: Page) => page.getByRole('button', { name: '문의 보내기' }).click();

test('a student reports a wrong arrival, sees it taken with an empty form, and the admin reads it', async ({
  page,
  request,
}) => {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(240) });
  const report = `1150번이 3분 후 도착이라고 나왔는데 10분 넘게 안 왔어요. (e2e ${Date.now()})`;
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: '문의하기' })).toBeVisible();
  await expect(page.getByRole('link', { name: '개인정보 처리방침' })).toHaveAttribute('href', '/privacypolicy');

  await content(page).fill(report);
  await expect(content(page)).toHaveAccessibleDescription(`2,000자까지 쓸 수 있습니다. 지금 ${report.length}자`);
  await page.getByRole('textbox', { name: '이메일 (선택)' }).fill('student@example.com');
  await send(page);

  await expect(page.getByRole('status')).toHaveText(SENT);
  // The send button went with the old form: the focus is on the message, not lost to the page.
  await expect(page.getByText(SENT)).toBeFocused();
  expect(await axeViolations(page, { javaScriptEnabled: true })).toEqual([]);
  await expect(page).toHaveURL('/contact?sent=1');
  await expect(content(page)).toHaveValue('');
  await expect(page.getByRole('textbox', { name: '이메일 (선택)' })).toHaveValue('');
  expect((await storedInquiries(request))[0]).toEqual(
    expect.objectContaining({ content: report, email: 'student@example.com' }),
  );
  // A reload shows the message again but leaves the focus alone: only a send moves it.
  await page.reload();
  await expect(page.getByRole('status')).toHaveText(SENT);
  await expect(page.getByText(SENT)).not.toBeFocused();
  // A second inquiry begun: the message about the first one goes away.
  await content(page).fill('두 번째 문의');
  await expect(page.getByRole('status')).toHaveText('');

  // The admin signs in on the same deployment and finds it in the inquiry list.
  await signIn(page, '/admin-only/inquiries');
  await expect(page.getByRole('heading', { level: 1, name: '문의 목록' })).toBeVisible();
  const inquiry = page.getByRole('article').filter({ hasText: report });
  await expect(inquiry).toHaveCount(1);
  await expect(inquiry.getByRole('link', { name: 'student@example.com' })).toHaveAttribute(
    'href',
    'mailto:student@example.com',
  );
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test("empty or blank content is refused with the spec's message, and nothing is stored", async ({
      page,
      request,
    }) => {
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(javaScriptEnabled ? 241 : 242) });
      const before = (await storedInquiries(request)).length;
      await page.goto('/contact');
      await send(page);
      await expect(page.getByRole('alert').getByRole('link', { name: EMPTY })).toBeVisible();
      await expect(content(page)).toHaveAttribute('aria-invalid', 'true');
      await expect(content(page)).toHaveAccessibleDescription(new RegExp(EMPTY));

      await content(page).fill('   \n  ');
      await page.getByRole('textbox', { name: '이메일 (선택)' }).fill('student@example.com');
      await send(page);
      await expect(page.getByRole('alert').getByRole('link', { name: EMPTY })).toBeVisible();
      await expect(page.getByRole('textbox', { name: '이메일 (선택)' })).toHaveValue('student@example.com');
      await expect(page.getByRole('status')).toHaveText('');
      expect(await storedInquiries(request)).toHaveLength(before);
    });

    test.describe('a form left open', () => {
      // NOTE: page.route sees the page's requests only while no service worker handles them.
      test.use({ serviceWorkers: 'block' });

      test('its honeypot token no longer passes: refused with the text kept, then taken', async ({ page, request }) => {
        await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(javaScriptEnabled ? 245 : 246) });
        const before = (await storedInquiries(request)).length;
        const text = `오래 열어 둔 화면에서 쓴 문의 (e2e ${Date.now()})`;
        await page.goto('/contact');
        await content(page).fill(text);
        // As after 2 hours or a SESSION_SECRET change: the post's hidden token is one this deployment does
        // not take (rewritten on the way, once; the page's own controlled input would not keep an edit).
        let rewritten = false;
        await page.route('**/contact**', (route) => {
          const body = route.request().postData();
          if (rewritten || route.request().method() !== 'POST' || !body) return route.fallback();
          rewritten = true;
          return route.continue({
            postData: body.replace(
              /from__confirm=[^&]*/,
              'from__confirm=inquiry.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
            ),
          });
        });
        await send(page);
        const alert = page.getByRole('alert');
        await expect(alert).toContainText(FAILED);
        await expect(alert).toContainText(`${SEND_AGAIN} 입력하신 내용은 그대로 남아 있습니다.`);
        await expect(content(page)).toHaveValue(text);
        await expect(page.getByRole('status')).toHaveText('');
        expect(rewritten).toBe(true);
        expect(await axeViolations(page, { javaScriptEnabled })).toEqual([]);
        expect(await storedInquiries(request)).toHaveLength(before);

        // The answer carries a fresh form: sent again as it is, the inquiry is taken.
        await send(page);
        await expect(page.getByRole('status')).toHaveText(SENT);
        await expect(content(page)).toHaveValue('');
        expect((await storedInquiries(request))[0].content).toBe(text);
      });
    });
  });
}

test.describe('2,000 characters at most', () => {
  test('the browser stops at 2,000 characters, says so, and 2,000 are taken', async ({ page, request }) => {
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(243) });
    await page.goto('/contact');
    await expect(content(page)).toHaveAttribute('maxlength', '2000');
    await content(page).fill('가'.repeat(1995));
    await content(page).pressSequentially('나다라마바사');
    await expect(content(page)).toHaveValue(`${'가'.repeat(1995)}나다라마바`);
    await expect(content(page)).toHaveAccessibleDescription('2,000자까지 쓸 수 있습니다. 지금 2,000자');
    await expect(page.getByText('2,000자를 모두 썼습니다. 더 입력되지 않습니다.')).toBeVisible();
    await send(page);
    await expect(page.getByRole('status')).toHaveText(SENT);
    expect((await storedInquiries(request))[0].content).toBe(`${'가'.repeat(1995)}나다라마바`);
  });

  test.describe('JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test('a 2,001-character text (the cap removed) is refused by the server, its first 2,000 kept in the form', async ({
      page,
      request,
    }) => {
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(244) });
      const before = (await storedInquiries(request)).length;
      await page.goto('/contact');
      // A browser that ignores maxlength (or a hand-made post): the server's own check.
      await content(page).evaluate((element) => element.removeAttribute('maxlength'));
      const text = 'a'.repeat(2001);
      await content(page).fill(text);
      await send(page);
      await expect(page.getByRole('alert').getByRole('link', { name: TOO_LONG })).toBeVisible();
      // What comes back is never longer than the field holds (a flood is not echoed).
      await expect(content(page)).toHaveValue(text.slice(0, 2000));
      expect(await storedInquiries(request)).toHaveLength(before);
    });
  });
});
