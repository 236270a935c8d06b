/**
 * The pages a first-time visitor reads, in Debian's Chromium against the
 * built app (demo feed with its back-filled history, api clock on Monday 2026-11-23), once with
 * JavaScript and once without: the usage guide with the real 4-second refresh, the FAQ's six native
 * items opened and closed from the keyboard with the last 14 days' accuracy, and the privacy policy
 * with its effective date. Every page leads to /contact.
 */
import { expect, test, type Page } from './test';

const FAQ_QUESTIONS = [
  '버스 정보는 어디에서 가져오나요?',
  '정보는 얼마나 자주 새로고침되나요?',
  '하행 출발 예상 시간은 어떻게 계산하나요? 얼마나 정확한가요?',
  '광고는 어떻게 신청하나요?',
  '오류를 발견했거나 건의하고 싶은 게 있어요.',
  '제 개인정보는 어떻게 처리되나요?',
];

/** The main content's links to /contact. */
const contactLinks = (page: Page) => page.getByRole('main').locator('a[href="/contact"]');

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });

    test('the usage guide gives the five steps, the real 4-second refresh and sample cards', async ({ page }) => {
      await page.goto('/howtouse');
      await expect(page).toHaveTitle('이용 방법 — 외대 버스');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('이용 방법');
      const steps = page.getByRole('main').getByRole('list').first().getByRole('listitem');
      await expect(steps).toHaveCount(5);
      await expect(steps.getByRole('heading', { level: 2 })).toHaveText([
        '사이트에 접속하세요',
        '버스 노선을 확인하세요',
        '실시간 도착 정보를 보세요',
        '하행 출발 예상 시간을 확인하세요',
        '궁금한 점은 FAQ와 문의하기로',
      ]);
      await expect(steps.nth(2).locator('strong')).toHaveText('4초');
      await expect(page.getByRole('main')).not.toContainText('5초');
      await expect(page.getByRole('note')).toContainText('교통 상황이나 행사');
      const sample = page.getByRole('region', { name: '버스 정보 예시' });
      await expect(sample.getByRole('listitem').first()).toContainText('1150번, 3분 후 도착, 2정거장 전, 곧 도착');
      await expect(sample.getByRole('table')).toContainText('routeNo');

      await steps.nth(4).getByRole('link', { name: 'FAQ' }).click();
      await expect(page).toHaveURL(/\/faq$/);
      await page.goBack();
      await expect(contactLinks(page)).toHaveCount(1);
    });

    test('the FAQ’s six items open and close from the keyboard, and one states the last 14 days’ accuracy', async ({
      page,
    }) => {
      // A first start computes the accuracy figure seconds after the demo back-fill: reload until it is in.
      await expect(async () => {
        await page.goto('/faq');
        await expect(page.locator('.faq__accuracy p').first()).toContainText('지난 2주 동안', { timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      await expect(page).toHaveTitle('자주 묻는 질문 — 외대 버스');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('자주 묻는 질문');
      const items = page.getByRole('main').locator('details');
      await expect(items.locator('summary')).toHaveText(FAQ_QUESTIONS);

      for (let i = 0; i < FAQ_QUESTIONS.length; i++) {
        const item = items.nth(i);
        const summary = item.locator('summary');
        const answer = item.locator('.faq__answer');
        await expect(answer).toBeHidden();
        await summary.focus();
        await expect(summary).toBeFocused();
        await page.keyboard.press(i % 2 ? 'Space' : 'Enter');
        await expect(item).toHaveAttribute('open', '');
        await expect(answer).toBeVisible();
        await page.keyboard.press(i % 2 ? 'Enter' : 'Space');
        await expect(item).not.toHaveAttribute('open');
        await expect(answer).toBeHidden();
      }

      // Tab reaches the items in order after the header's link.
      await items.first().locator('summary').focus();
      await page.keyboard.press('Tab');
      await expect(items.nth(1).locator('summary')).toBeFocused();

      await items.nth(1).locator('summary').click();
      await expect(items.nth(1)).toContainText('홈 화면은 4초마다');
      await expect(items.nth(1).getByText('4초', { exact: true })).toBeVisible();

      // The demo deployment has 28 back-filled days: the backtest of the 14 before the api's today,
      // led by the down tab's sentence.
      await items.nth(2).locator('summary').click();
      const accuracy = items.nth(2).locator('.faq__accuracy');
      await expect(accuracy).toContainText(
        /^지난 2주 동안 예상 출발 시각의 평균 오차는 (약 [1-9]\d*분|1분 미만)입니다\./,
      );
      await expect(accuracy).toContainText(
        /11월 9일부터 11월 22일까지 14일 동안의 실제 출발 기록으로 되짚어 보니, ‘예상’ 시간의 정확도는 \d+%였습니다\./,
      );
      await expect(accuracy).toContainText('같은 기간 ‘어제’ 시간을 그대로 썼다면 정확도는');
      await expect(accuracy).toContainText('30초 이르거나 1분 30초 늦은 범위');
      await expect(accuracy).toContainText('시뮬레이터가 만든 가상의 운행 기록');

      const inquiry = page.getByRole('region', { name: '찾는 답이 없나요?' });
      await inquiry.getByRole('link', { name: '문의하기' }).click();
      await expect(page).toHaveURL(/\/contact$/);
    });

    test('the privacy policy lists its articles, the retention, the officer contact and the effective date', async ({
      page,
    }) => {
      await page.goto('/privacypolicy');
      await expect(page).toHaveTitle('개인정보 처리방침 — 외대 버스');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('개인정보 처리방침');
      const articles = page.getByRole('heading', { level: 2 });
      await expect(articles).toHaveCount(12);
      await expect(articles.first()).toHaveText('제1조 (처리하는 개인정보 항목)');
      await expect(articles.last()).toHaveText('제12조 (개인정보 처리방침의 변경)');
      const retention = page.getByRole('region', { name: '제3조 (개인정보의 보유 및 이용 기간)' });
      await expect(retention).toContainText('광고 신청 정보: 신청한 날부터 3년');
      await expect(retention).toContainText('문의: 접수한 날부터 1년');
      await expect(page.getByRole('main')).toContainText('시행하기 7일 전부터');
      // No PRIVACY_OFFICER_* in this deployment: the officer is reached through /contact.
      const officer = page.getByRole('region', { name: '제10조 (개인정보 보호책임자)' });
      await expect(officer.getByRole('link', { name: '문의하기' })).toHaveAttribute('href', '/contact');
      await expect(page.locator('time[datetime="2024-06-04"]')).toHaveText('2024년 6월 4일');
      await expect(page.getByText('시행일: 2024년 6월 4일')).toBeVisible();
      await expect(contactLinks(page)).toHaveCount(2);
      // No ANALYTICS_ID here: no analytics script, and the policy says so.
      await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(0);
      await expect(page.getByRole('main')).toContainText('현재 분석 도구를 쓰지 않으므로 분석용 쿠키도 없습니다.');
    });
  });
}
