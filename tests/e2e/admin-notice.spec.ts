/**
 * An admin switches the service notice on and off again through its page, on a phone
 * (docs/product.md §2.2, §4.1). (The ads' pages: admin.spec.ts.)
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
