/**
 * An admin switches the service notice on and off again through its page, on a phone
 * (docs/product.md §2.2, §4.1); two admins editing it at once never overwrite each other unseen.
 * (The ads' pages: admin.spec.ts.)
 */
import { expect, test } from './test';
import { publicNotice, saveNotice, signIn } from './admin-deployment';
import { ADS_WEB_URL, phoneIp } from './ads-deployment';

test.use({ baseURL: ADS_WEB_URL });

test('an admin turns the service notice on and off again through the page', async ({ page, request }) => {
  const original = await publicNotice(request);
  try {
    expect(original.enabled).toBe(false);
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(190) });
    await signIn(page, '/admin-only/notice');
    const enabled = page.getByRole('checkbox', { name: '홈 화면에 서비스 중단 안내 표시' });
    const saved = page.getByRole('status').getByText('서비스 공지 설정을 저장했습니다.');
    await expect(page.getByText('현재: 꺼짐')).toBeVisible();
    await expect(enabled).not.toBeChecked();

    await enabled.check();
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(saved).toBeVisible();
    await expect(page.getByText('현재: 표시 중')).toBeVisible();
    await expect(enabled).toBeChecked();
    expect(await publicNotice(request)).toEqual({ ...original, enabled: true });

    await enabled.uncheck();
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('현재: 꺼짐')).toBeVisible();
    await expect(enabled).not.toBeChecked();
    expect(await publicNotice(request)).toEqual({ ...original, enabled: false });
  } finally {
    await saveNotice(request, original);
  }
});

test('of two admins editing the notice at once, the later save is refused and shows what the first saved', async ({
  browser,
  request,
}) => {
  const original = await publicNotice(request);
  const [alice, bob] = await Promise.all([browser.newPage(), browser.newPage()]);
  try {
    await alice.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(191) });
    await bob.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(192) });
    await signIn(alice, '/admin-only/notice');
    await signIn(bob, '/admin-only/notice');
    // Both have the page open; Alice saves first.
    await alice.getByLabel('제목').fill('앨리스가 고친 제목');
    await alice.getByRole('button', { name: '저장', exact: true }).click();
    await expect(alice.getByRole('status').getByText('서비스 공지 설정을 저장했습니다.')).toBeVisible();
    // Bob's save, made on what he opened, is refused; his form now holds Alice's title.
    await bob.getByLabel('제목').fill('밥이 고친 제목');
    await bob.getByRole('button', { name: '저장', exact: true }).click();
    await expect(bob.getByText(/^다른 관리자가 먼저 바꿨습니다\./)).toBeVisible();
    await expect(bob.getByLabel('제목')).toHaveValue('앨리스가 고친 제목');
    expect((await publicNotice(request)).title).toBe('앨리스가 고친 제목');
    // Saved again on what he sees now, Bob's change is taken.
    await bob.getByLabel('제목').fill('밥이 고친 제목');
    await bob.getByRole('button', { name: '저장', exact: true }).click();
    await expect(bob.getByRole('status').getByText('서비스 공지 설정을 저장했습니다.')).toBeVisible();
    expect((await publicNotice(request)).title).toBe('밥이 고친 제목');
  } finally {
    await Promise.all([alice.close(), bob.close()]);
    await saveNotice(request, original);
  }
});

test('an admin gives the notice its English, together or not at all, and an English phone reads it', async ({
  page,
  browser,
  request,
}) => {
  const original = await publicNotice(request);
  const english = await browser.newPage({ locale: 'en-US' });
  try {
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(193) });
    await signIn(page, '/admin-only/notice');
    await page.getByLabel('English title').fill('Maintenance tonight');
    await page.getByLabel('English text').fill('');
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByText('English title과 English text를 함께 입력해주세요.')).toBeVisible();
    expect(await publicNotice(request)).toEqual(original);

    await page.getByLabel('English text').fill('Live bus information is off until 06:00.');
    await page.getByRole('checkbox', { name: '홈 화면에 서비스 중단 안내 표시' }).check();
    await page.getByRole('button', { name: '저장', exact: true }).click();
    await expect(page.getByRole('status').getByText('서비스 공지 설정을 저장했습니다.')).toBeVisible();

    await english.setExtraHTTPHeaders({ 'X-Forwarded-For': phoneIp(194) });
    await english.goto(`${ADS_WEB_URL}/`);
    const dialog = english.getByRole('alertdialog', { name: 'Maintenance tonight' });
    await expect(dialog).toContainText('Live bus information is off until 06:00.');
    await expect(dialog).toContainText('Questions? Contact us.');
  } finally {
    await english.close();
    await saveNotice(request, original);
  }
});
