/**
 * The admin's decisions on an ad application (docs/product.md §4.5, §8): approve, reject (with a reason),
 * delete, each confirmed, each failure's message, and a cross-site POST refused.
 */
import ApplicationDetail, {
  action as detailAction,
  loader as detailLoader,
} from '~/routes/admin-only.ads.$type.confirm.$id';
import { cookieOf, interceptingContext, seedAdApplication, WEB_ORIGIN } from '../../tests/setup/admin-web';
import { adApplicationPagesFor, DETAIL_PATH } from '../../tests/setup/admin-ad-applications';
import { renderRoute } from '../../tests/setup/render-route';

const { api, context, cookie, get, detailPage, decide, statusOf } = adApplicationPagesFor();

describe('application detail (/admin-only/ads/{type}/confirm/{id})', () => {
  it('approve: confirm dialog, the call, then 광고가 승인되었습니다. whose OK returns to the list (shown once)', async () => {
    const id = await seedAdApplication(api(), 'web');
    const confirm = await detailPage('web', id, { search: '?confirm=approve' });
    const confirmDialog = confirm.page.querySelector('[role="alertdialog"]');
    expect(confirmDialog?.querySelector('h2')?.textContent).toBe('광고 승인');
    expect(confirmDialog?.querySelector('button[name="intent"]')?.getAttribute('value')).toBe('approve');

    const done = await decide('web', id, 'approve');
    expect(done.data.flash).toEqual({ tone: 'success', message: '광고가 승인되었습니다.' });
    expect(done.dialogTitle).toBe('완료');
    expect(done.dialogMessage).toBe('광고가 승인되었습니다.');
    expect(done.okHref).toBe('/admin-only/ads/web');
    expect(await statusOf(id)).toBe('approved');

    // The flash is spent: the page loaded again with the cookie the loader set shows no dialog.
    const again = await detailPage('web', id, { withCookie: cookieOf(done.response) });
    expect(again.data.flash).toBeNull();
    expect(again.page.body.textContent).not.toContain('광고가 승인되었습니다.');
  });

  it('reject: 광고가 거절되었습니다.', async () => {
    const id = await seedAdApplication(api(), 'kakao');
    const done = await decide('kakao', id, 'reject');
    expect(done.data.flash).toEqual({ tone: 'success', message: '광고가 거절되었습니다.' });
    expect(done.dialogTitle).toBe('완료');
    expect(done.dialogMessage).toBe('광고가 거절되었습니다.');
    expect(done.okHref).toBe('/admin-only/ads/kakao');
    expect(await statusOf(id)).toBe('rejected');
  });

  it('reject with a reason: stored with the decision and shown on the application', async () => {
    const id = await seedAdApplication(api(), 'web');
    const done = await decide('web', id, 'reject', context(), {
      reason: '  이미지에 가게 이름이 없습니다.\r\n다시 신청해주세요.  ',
    });
    expect(done.data.flash).toEqual({ tone: 'success', message: '광고가 거절되었습니다.' });
    const row = (await api().adApplications()).find((application) => application.id === id);
    expect(row).toMatchObject({
      status: 'rejected',
      rejectReason: '이미지에 가게 이름이 없습니다.\n다시 신청해주세요.',
    });
    const { page } = await detailPage('web', id);
    expect(page.body.textContent).toContain('거절 사유이미지에 가게 이름이 없습니다.');
  });

  it('a reason over 500 characters comes back to the open dialog as typed, and nothing is decided', async () => {
    const id = await seedAdApplication(api(), 'web');
    const reason = '가'.repeat(501);
    const here = `/admin-only/ads/web/confirm/${id}?confirm=reject`;
    const response = await detailAction({
      request: new Request(`${WEB_ORIGIN}${here}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'reject', reason }),
        headers: { Cookie: cookie(), Origin: WEB_ORIGIN },
      }),
      context: context(),
      params: { type: 'web', id: String(id) },
    });
    expect(response.status).toBe(400);
    const actionData = await response.json();
    expect(actionData.result.error).toEqual({ reason: ['거절 사유는 500자까지 적을 수 있습니다.'] });
    expect(await statusOf(id)).toBe('pending');
    const { data } = await detailPage('web', id, { search: '?confirm=reject' });
    const page = await renderRoute(ApplicationDetail, { path: DETAIL_PATH, url: here, loaderData: data, actionData });
    const dialog = page.querySelector('[role="alertdialog"]')!;
    expect(dialog.querySelector('textarea')?.value).toHaveLength(500); // echoed up to its limit, nothing more
    expect(dialog.textContent).toContain('거절 사유는 500자까지 적을 수 있습니다.');
  });

  it("approving a decided application: '광고 승인에 실패했습니다: ' and the api's message", async () => {
    const id = await seedAdApplication(api(), 'web');
    await decide('web', id, 'reject');
    const failed = await decide('web', id, 'approve');
    expect(failed.data.flash).toEqual({
      tone: 'error',
      message: '광고 승인에 실패했습니다: 이미 승인 또는 거절된 요청입니다.',
    });
    expect(failed.dialogTitle).toBe('처리하지 못했습니다');
    expect(failed.dialogMessage).toBe('광고 승인에 실패했습니다: 이미 승인 또는 거절된 요청입니다.');
    expect(failed.okHref).toBe('/admin-only/ads/web');
    expect(await statusOf(id)).toBe('rejected');
  });

  it('an approve failure without a server message: 광고 승인에 실패했습니다 alone (docs/product.md §8)', async () => {
    const id = await seedAdApplication(api(), 'web');
    const down = interceptingContext(context(), (_request, url) => {
      if (url.pathname.endsWith('/approve')) throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await decide('web', id, 'approve', down);
    expect(failed.dialogMessage).toBe('광고 승인에 실패했습니다');
    expect(await statusOf(id)).toBe('pending');
  });

  it('rejecting a decided application: 광고 거절에 실패했습니다. (without the server message)', async () => {
    const id = await seedAdApplication(api(), 'kakao');
    await decide('kakao', id, 'approve');
    const failed = await decide('kakao', id, 'reject');
    expect(failed.data.flash).toEqual({ tone: 'error', message: '광고 거절에 실패했습니다.' });
    expect(failed.dialogMessage).toBe('광고 거절에 실패했습니다.');
    expect(await statusOf(id)).toBe('approved');
  });

  it('a reject when the api cannot be reached: 광고 거절에 실패했습니다.', async () => {
    const id = await seedAdApplication(api(), 'web');
    const down = interceptingContext(context(), (_request, url) => {
      if (url.pathname.endsWith('/reject')) throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await decide('web', id, 'reject', down);
    expect(failed.dialogTitle).toBe('처리하지 못했습니다');
    expect(failed.dialogMessage).toBe('광고 거절에 실패했습니다.');
    expect(await statusOf(id)).toBe('pending');
  });

  it('delete: asks first, deletes the application and its image, then 광고 요청을 삭제했습니다. over a page that says it is gone', async () => {
    const id = await seedAdApplication(api(), 'web', { title: '지워달라는 신청' });
    const { imageUrl } = (await api().adApplications()).find((row) => row.id === id)!;
    const detail = await detailPage('web', id);
    expect(detail.page.querySelector(`a[href="/admin-only/ads/web/confirm/${id}?confirm=delete"]`)?.textContent).toBe(
      '삭제',
    );
    const confirm = await detailPage('web', id, { search: '?confirm=delete' });
    const confirmDialog = confirm.page.querySelector('[role="alertdialog"]');
    expect(confirmDialog?.querySelector('h2')?.textContent).toBe('광고 요청 삭제');
    expect(confirmDialog?.querySelector('p')?.textContent).toBe(
      '이 광고 요청을 삭제할까요? 신청자 정보와 광고 이미지가 지워지며 되돌릴 수 없습니다. ' +
        '게재 중인 광고가 쓰는 이미지는 그 광고에 남습니다.',
    );
    expect(confirmDialog?.querySelector('button[name="intent"]')?.getAttribute('value')).toBe('delete');

    const done = await decide('web', id, 'delete');
    expect(done.response.status).toBe(200);
    expect(done.data).toMatchObject({
      application: null,
      flash: { tone: 'success', message: '광고 요청을 삭제했습니다.' },
    });
    expect(done.dialogTitle).toBe('완료');
    expect(done.dialogMessage).toBe('광고 요청을 삭제했습니다.');
    expect(done.okHref).toBe('/admin-only/ads/web');
    expect(done.page.querySelector('h1')?.textContent).toBe('광고 요청');
    expect(done.page.body.textContent).toContain('이 요청은 삭제되어 더 이상 볼 수 없습니다.');
    expect(await statusOf(id)).toBeUndefined();
    expect(await api().imageUpload(imageUrl)).toBeUndefined();

    // Afterwards (the flash spent) the application is simply not found.
    const gone = await detailLoader({
      request: get(`/admin-only/ads/web/confirm/${id}`, cookieOf(done.response)),
      context: context(),
      params: { type: 'web', id: String(id) },
    }).catch((error: unknown) => error);
    expect((gone as Response).status).toBe(404);
  });

  it('a decided application can be deleted too; one deleted meanwhile: 이미 삭제된 요청입니다.', async () => {
    const id = await seedAdApplication(api(), 'kakao');
    await decide('kakao', id, 'reject');
    const { data, page } = await detailPage('kakao', id, { search: '?confirm=delete' });
    expect(data.confirm).toBe('delete');
    expect(page.querySelector('[role="alertdialog"] h2')?.textContent).toBe('광고 요청 삭제');

    expect((await decide('kakao', id, 'delete')).dialogMessage).toBe('광고 요청을 삭제했습니다.');
    const twice = await decide('kakao', id, 'delete');
    expect(twice.dialogTitle).toBe('처리하지 못했습니다');
    expect(twice.dialogMessage).toBe('이미 삭제된 요청입니다.');
  });

  it('a delete when the api cannot be reached: 광고 요청을 삭제하지 못했습니다. and the application stays', async () => {
    const id = await seedAdApplication(api(), 'web');
    const down = interceptingContext(context(), (request) => {
      if (request.method === 'DELETE') throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await decide('web', id, 'delete', down);
    expect(failed.dialogTitle).toBe('처리하지 못했습니다');
    expect(failed.dialogMessage).toBe('광고 요청을 삭제하지 못했습니다. 잠시 후 다시 시도해주세요.');
    expect(await statusOf(id)).toBe('pending');
  });

  it('refuses a cross-site POST (403) before any decision', async () => {
    const id = await seedAdApplication(api(), 'web');
    const thrown = await detailAction({
      request: new Request(`${WEB_ORIGIN}/admin-only/ads/web/confirm/${id}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'approve' }),
        headers: { Cookie: cookie(), Origin: 'https://evil.example' },
      }),
      context: context(),
      params: { type: 'web', id: String(id) },
    }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(403);
    expect(await statusOf(id)).toBe('pending');
  });
});
