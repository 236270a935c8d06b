/**
 * An admin honours a deletion request (privacy policy 제7조) on a phone, with JavaScript on
 * and off: a student asked for their inquiry to be erased, so the admin deletes it from the inquiry
 * list after a confirm dialog (a first "취소" changes nothing), is told it is deleted, and finds the
 * deletion in the activity log; a shop's ad application is deleted from its detail page the same
 * way. Inquiries and applications are sent through the api as /contact and shops send them, each
 * test from its own address; what the pages did is read back through the api with the service token.
 */
import { expect, test } from './test';
import { ADMIN_CREDENTIALS, sendInquiry, signIn, storedInquiries, submitAdApplication } from './admin-deployment';
import { ADS_WEB_URL, listedApplications, phoneIp } from './ads-deployment';
import { axeViolations } from './axe';

test.use({ baseURL: ADS_WEB_URL });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });
    const seed = javaScriptEnabled ? 230 : 233;

    test('an admin deletes an inquiry on its sender’s request, after saying yes, and the log records it', async ({
      page,
      request,
    }) => {
      const ip = phoneIp(seed);
      const text = `제 문의와 이메일을 지워주세요. (e2e ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()})`;
      const id = await sendInquiry(request, { content: text, email: 'erase-me@example.com' }, ip);
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
      await signIn(page, '/admin-only/inquiries');

      const inquiry = page.getByRole('article').filter({ hasText: text });
      await inquiry.getByRole('link', { name: /^삭제/ }).click();
      const confirm = page.getByRole('alertdialog', { name: '이 문의를 삭제할까요?' });
      await expect(confirm).toContainText('삭제한 문의는 되돌릴 수 없습니다.');
      expect(await axeViolations(page, { javaScriptEnabled })).toEqual([]);
      await confirm.getByRole('link', { name: '취소' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(inquiry).toHaveCount(1);
      expect((await storedInquiries(request)).map((row) => row.id)).toContain(id);

      await inquiry.getByRole('link', { name: /^삭제/ }).click();
      await confirm.getByRole('button', { name: '삭제' }).click();
      const done = page.getByRole('alertdialog', { name: '완료' });
      await expect(done.getByText('문의를 삭제했습니다.', { exact: true })).toBeVisible();
      await done.getByRole('link', { name: '확인' }).click();
      await expect(done).toHaveCount(0);
      await expect(page.getByRole('article').filter({ hasText: text })).toHaveCount(0);
      expect((await storedInquiries(request)).map((row) => row.id)).not.toContain(id);

      await page.goto('/admin-only/audit');
      const deletion = page.getByRole('row').filter({ hasText: `inquiry:${id}` });
      await expect(deletion.getByRole('rowheader')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await expect(deletion.getByRole('cell')).toHaveText([
        ADMIN_CREDENTIALS.username,
        '삭제',
        `문의 ${id}번 inquiry:${id}`,
        /보기/,
      ]);
      await expect(page.getByText('erase-me@example.com')).toHaveCount(0);
    });
  });
}

test('an admin deletes an ad application from its detail page and is told it is deleted', async ({ page, request }) => {
  const ip = phoneIp(236);
  const title = `삭제 요청한 신청 e2e ${Date.now()}`;
  const id = await submitAdApplication(request, { type: 'web', title, ip });
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  await signIn(page, `/admin-only/ads/web/confirm/${id}`);

  await page.getByRole('link', { name: '삭제', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: '광고 요청 삭제' });
  await expect(confirm).toContainText('신청자 정보와 광고 이미지가 지워지며 되돌릴 수 없습니다.');
  await confirm.getByRole('button', { name: '삭제' }).click();
  const done = page.getByRole('alertdialog', { name: '완료' });
  await expect(done.getByText('광고 요청을 삭제했습니다.', { exact: true })).toBeVisible();
  await expect(page.getByText('이 요청은 삭제되어 더 이상 볼 수 없습니다.')).toBeAttached();
  await done.getByRole('link', { name: '확인' }).click();
  await expect(page).toHaveURL('/admin-only/ads/web');
  await expect(page.getByRole('link', { name: title })).toHaveCount(0);
  expect((await listedApplications(request, 'web')).map((row) => row.id)).not.toContain(id);
});
