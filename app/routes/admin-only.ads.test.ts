/**
 * The ad request list and detail pages (docs/product.md §2.10 Admin pages, §4.5 Admin request detail, §5, §8)
 * against the real api in-process: a signed-in admin, requests stored by the api's own model, the
 * route loaders and actions called as Remix calls them, and the pages server-rendered from what
 * the loaders answered. Every message is the spec's text, written out here.
 */
import type { AppLoadContext } from '@remix-run/node';
import RequestDetail, {
  action as detailAction,
  loader as detailLoader,
} from '~/routes/admin-only.ads.$type.confirm.$id';
import RequestList, { loader as listLoader } from '~/routes/admin-only.ads.$type._index';
import { action as loginAction } from '~/routes/admin-only_.login';
import {
  cookieOf,
  interceptingContext,
  resetAds,
  seedAdRequest,
  startSignedInAdmin,
  WEB_ORIGIN,
} from '../../tests/setup/admin-web';
import { renderRoute } from '../../tests/setup/render-route';
import { type WebApi } from '../../tests/setup/web-api';

const SERVICE_TOKEN = 'test-service-token-for-admin-pages';
const LIST_PATH = '/admin-only/ads/:type';
const DETAIL_PATH = '/admin-only/ads/:type/confirm/:id';

let api: WebApi;
let context: AppLoadContext;
let cookie: string;

beforeAll(async () => {
  ({ api, context, cookie } = await startSignedInAdmin(SERVICE_TOKEN, loginAction));
});
afterAll(() => api.close());
beforeEach(async () => {
  await resetAds(api);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** A GET of `path` with the admin's cookie (or `withCookie`). */
const get = (path: string, withCookie = cookie) =>
  new Request(`${WEB_ORIGIN}${path}`, { headers: { Cookie: withCookie } });

/** The api calls made while `run` ran, as "METHOD /path". */
async function callsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const before = api.calls.length;
  await run();
  return api.calls.slice(before).map((request) => `${request.method} ${new URL(request.url).pathname}`);
}

/** The session check every admin request makes (requireAdmin). */
const SESSION_CHECK = 'GET /api/admin/session';

async function listPage(type: string) {
  const response = await listLoader({ request: get(`/admin-only/ads/${type}`), context, params: { type } });
  const data = await response.json();
  const page = await renderRoute(RequestList, { path: LIST_PATH, url: `/admin-only/ads/${type}`, loaderData: data });
  return { response, data, page };
}

/** The detail page of request `id` at `search`, loaded with `withCookie` (on `on`); answers its loader's Set-Cookie too. */
async function detailPage(type: string, id: number, { search = '', withCookie = cookie, on = context } = {}) {
  const path = `/admin-only/ads/${type}/confirm/${id}${search}`;
  const response = await detailLoader({
    request: get(path, withCookie),
    context: on,
    params: { type, id: String(id) },
  });
  const data = await response.json();
  const page = await renderRoute(RequestDetail, { path: DETAIL_PATH, url: path, loaderData: data });
  return { response, data, page };
}

/**
 * Posts `intent` (approve or reject) to the detail page's action, then follows the redirect: the
 * page as the admin sees it next, with the completion dialog's title and message.
 */
async function decide(
  type: string,
  id: number,
  intent: string,
  on: AppLoadContext = context,
  fields: Record<string, string> = {},
) {
  const here = `/admin-only/ads/${type}/confirm/${id}`;
  const response = await detailAction({
    request: new Request(`${WEB_ORIGIN}${here}`, {
      method: 'POST',
      body: new URLSearchParams({ intent, ...fields }),
      headers: { Cookie: cookie, Origin: WEB_ORIGIN },
    }),
    context: on,
    params: { type, id: String(id) },
  });
  expect(response.status).toBe(303);
  expect(response.headers.get('Location')).toBe(here);
  const flashCookie = cookieOf(response);
  const next = await detailPage(type, id, { withCookie: flashCookie });
  const dialog = next.page.querySelector('[role="alertdialog"]');
  return {
    ...next,
    flashCookie,
    dialogTitle: dialog?.querySelector('h2')?.textContent,
    dialogMessage: dialog?.querySelector('p')?.textContent,
    okHref: dialog?.querySelector('a')?.getAttribute('href'),
  };
}

const statusOf = async (id: number) => (await api.adRequests()).find((row) => row.id === id)?.status;

describe('request list (/admin-only/ads/{type})', () => {
  it('shows 요청받은 광고가 없습니다. for an empty kakao list', async () => {
    await seedAdRequest(api, 'web'); // another type's request is not in the kakao list
    const { response, data, page } = await listPage('kakao');
    expect(response.status).toBe(200);
    expect(data).toEqual({ type: 'kakao', requests: [], failed: false });
    expect(page.querySelector('.empty')?.textContent).toBe('요청받은 광고가 없습니다.');
  });

  it("lists each request's title, linking to its detail", async () => {
    const id = await seedAdRequest(api, 'kakao', { title: '학생식당 할인' });
    const { page } = await listPage('kakao');
    expect(page.body.textContent).not.toContain('요청받은 광고가 없습니다.');
    const link = page.querySelector(`a[href="/admin-only/ads/kakao/confirm/${id}"]`);
    expect(link?.querySelector('.request-list__title')?.textContent).toBe('학생식당 할인');
  });

  it("shows 'invalid ad type' for type foo and calls nothing but the session check", async () => {
    let answer: Awaited<ReturnType<typeof listPage>> | undefined;
    const calls = await callsDuring(async () => {
      answer = await listPage('foo');
    });
    expect(calls).toEqual([SESSION_CHECK]);
    expect(answer!.response.status).toBe(404);
    expect(answer!.page.querySelector('[role="alert"]')?.textContent).toBe('invalid ad type');
    expect(answer!.page.body.textContent).not.toContain('요청받은 광고가 없습니다.');
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('invalid ad type "foo"'));
  });
});

describe('request detail (/admin-only/ads/{type}/confirm/{id})', () => {
  it("shows 'invalid ad type' for type foo and calls nothing but the session check", async () => {
    let answer: Awaited<ReturnType<typeof detailPage>> | undefined;
    const calls = await callsDuring(async () => {
      answer = await detailPage('foo', 1);
    });
    expect(calls).toEqual([SESSION_CHECK]);
    expect(answer!.response.status).toBe(404);
    expect(answer!.page.querySelector('[role="alert"]')?.textContent).toBe('invalid ad type');
  });

  it('shows the request: id, title, applicant, phone, e-mail, duration, link, note and image', async () => {
    const id = await seedAdRequest(api, 'web', { title: '캠퍼스 카페', contentForManager: '입금자명: 홍길동' });
    const { page } = await detailPage('web', id);
    const rows = Object.fromEntries(
      [...page.querySelectorAll('.detail-list__row')].map((row) => [
        row.querySelector('dt')?.textContent,
        row.querySelector('dd')?.textContent,
      ]),
    );
    expect(rows).toMatchObject({
      번호: String(id),
      제목: '캠퍼스 카페',
      '신청자 이름': '홍길동',
      전화번호: '010-1234-5678',
      이메일: 'owner@example.com',
      '게재 기간': '1개월',
      '결제 금액': '26,000원',
      '검토자에게 남긴 말': '입금자명: 홍길동',
    });
    expect(page.querySelector('.detail-list__url')?.textContent).toBe('https://cafe.example.com/menu');
    expect(page.querySelector('img.detail-list__image')?.getAttribute('src')).toMatch(/^\/images\/web-.+\.png$/);
  });

  it('asks to find the deposit before approving; without AD_BANK_* also to e-mail the account, as the form promised', async () => {
    const id = await seedAdRequest(api, 'web');
    const hint = (page: Document) =>
      [...page.querySelectorAll('.field__hint')].map((p) => p.textContent).find((text) => text?.includes('입금'));
    const unset = await detailPage('web', id);
    expect(hint(unset.page)).toBe(
      '승인하기 전에 신청자 이름(홍길동)으로 26,000원이 입금되었는지 확인해주세요. 입금 계좌가 설정되어 있지 ' +
        '않으므로(AD_BANK_*) 신청자 이메일로 입금 계좌와 금액을 알려주세요. 신청 화면에서 담당자가 이메일로 알려준다고 ' +
        '안내했습니다.',
    );
    const bankAccount = { bank: '농협', number: '351-1234-5678-90', holder: '캠퍼스버스' };
    const publicConfig = {
      bankAccount,
      adSlots: { adfitUnit: null, adsense: null },
      privacyOfficer: null,
      analyticsId: null,
    };
    const set = await detailPage('web', id, { on: { ...context, publicConfig } });
    expect(hint(set.page)).toBe('승인하기 전에 신청자 이름(홍길동)으로 26,000원이 입금되었는지 확인해주세요.');
    const approve = await detailPage('web', id, { search: '?confirm=approve' });
    expect(approve.page.querySelector('[role="alertdialog"] p')?.textContent).toBe(
      '이 광고 요청을 승인할까요? 입금을 확인한 뒤에 승인해주세요. 승인하면 지금부터 게재 기간이 시작되고 광고 목록 맨 뒤에 추가됩니다.',
    );
  });

  it('approve: confirm dialog, the call, then 광고가 승인되었습니다. whose OK returns to the list (shown once)', async () => {
    const id = await seedAdRequest(api, 'web');
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
    const id = await seedAdRequest(api, 'kakao');
    const done = await decide('kakao', id, 'reject');
    expect(done.data.flash).toEqual({ tone: 'success', message: '광고가 거절되었습니다.' });
    expect(done.dialogTitle).toBe('완료');
    expect(done.dialogMessage).toBe('광고가 거절되었습니다.');
    expect(done.okHref).toBe('/admin-only/ads/kakao');
    expect(await statusOf(id)).toBe('rejected');
  });

  it('reject with a reason: stored with the decision and shown on the request', async () => {
    const id = await seedAdRequest(api, 'web');
    const done = await decide('web', id, 'reject', context, {
      reason: '  이미지에 가게 이름이 없습니다.\r\n다시 신청해주세요.  ',
    });
    expect(done.data.flash).toEqual({ tone: 'success', message: '광고가 거절되었습니다.' });
    const row = (await api.adRequests()).find((request) => request.id === id);
    expect(row).toMatchObject({
      status: 'rejected',
      rejectReason: '이미지에 가게 이름이 없습니다.\n다시 신청해주세요.',
    });
    const { page } = await detailPage('web', id);
    expect(page.body.textContent).toContain('거절 사유이미지에 가게 이름이 없습니다.');
  });

  it('a reason over 500 characters comes back to the open dialog as typed, and nothing is decided', async () => {
    const id = await seedAdRequest(api, 'web');
    const reason = '가'.repeat(501);
    const here = `/admin-only/ads/web/confirm/${id}?confirm=reject`;
    const response = await detailAction({
      request: new Request(`${WEB_ORIGIN}${here}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'reject', reason }),
        headers: { Cookie: cookie, Origin: WEB_ORIGIN },
      }),
      context,
      params: { type: 'web', id: String(id) },
    });
    expect(response.status).toBe(400);
    const actionData = await response.json();
    expect(actionData.result.error).toEqual({ reason: ['거절 사유는 500자까지 적을 수 있습니다.'] });
    expect(await statusOf(id)).toBe('pending');
    const { data } = await detailPage('web', id, { search: '?confirm=reject' });
    const page = await renderRoute(RequestDetail, { path: DETAIL_PATH, url: here, loaderData: data, actionData });
    const dialog = page.querySelector('[role="alertdialog"]')!;
    expect(dialog.querySelector('textarea')?.value).toHaveLength(500); // echoed up to its limit, nothing more
    expect(dialog.textContent).toContain('거절 사유는 500자까지 적을 수 있습니다.');
  });

  it("approving a decided request: '광고 승인에 실패했습니다: ' and the api's message", async () => {
    const id = await seedAdRequest(api, 'web');
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
    const id = await seedAdRequest(api, 'web');
    const down = interceptingContext(context, (_request, url) => {
      if (url.pathname.endsWith('/approve')) throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await decide('web', id, 'approve', down);
    expect(failed.dialogMessage).toBe('광고 승인에 실패했습니다');
    expect(await statusOf(id)).toBe('pending');
  });

  it('rejecting a decided request: 광고 거절에 실패했습니다. (without the server message)', async () => {
    const id = await seedAdRequest(api, 'kakao');
    await decide('kakao', id, 'approve');
    const failed = await decide('kakao', id, 'reject');
    expect(failed.data.flash).toEqual({ tone: 'error', message: '광고 거절에 실패했습니다.' });
    expect(failed.dialogMessage).toBe('광고 거절에 실패했습니다.');
    expect(await statusOf(id)).toBe('approved');
  });

  it('a reject when the api cannot be reached: 광고 거절에 실패했습니다.', async () => {
    const id = await seedAdRequest(api, 'web');
    const down = interceptingContext(context, (_request, url) => {
      if (url.pathname.endsWith('/reject')) throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await decide('web', id, 'reject', down);
    expect(failed.dialogTitle).toBe('처리하지 못했습니다');
    expect(failed.dialogMessage).toBe('광고 거절에 실패했습니다.');
    expect(await statusOf(id)).toBe('pending');
  });

  it('a decided request offers no approve or reject, and ?confirm= opens no dialog', async () => {
    const id = await seedAdRequest(api, 'web');
    await decide('web', id, 'approve');
    const { data, page } = await detailPage('web', id, { search: '?confirm=reject' });
    expect(data.confirm).toBeNull();
    expect(page.querySelector('[role="alertdialog"]')).toBeNull();
    expect(page.querySelector('a[href$="?confirm=reject"]')).toBeNull();
  });

  it('delete: asks first, deletes the request and its image, then 광고 요청을 삭제했습니다. over a page that says it is gone', async () => {
    const id = await seedAdRequest(api, 'web', { title: '지워달라는 신청' });
    const { imageUrl } = (await api.adRequests()).find((row) => row.id === id)!;
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
      request: null,
      flash: { tone: 'success', message: '광고 요청을 삭제했습니다.' },
    });
    expect(done.dialogTitle).toBe('완료');
    expect(done.dialogMessage).toBe('광고 요청을 삭제했습니다.');
    expect(done.okHref).toBe('/admin-only/ads/web');
    expect(done.page.querySelector('h1')?.textContent).toBe('광고 요청');
    expect(done.page.body.textContent).toContain('이 요청은 삭제되어 더 이상 볼 수 없습니다.');
    expect(await statusOf(id)).toBeUndefined();
    expect(await api.imageUpload(imageUrl)).toBeUndefined();

    // Afterwards (the flash spent) the request is simply not found.
    const gone = await detailLoader({
      request: get(`/admin-only/ads/web/confirm/${id}`, cookieOf(done.response)),
      context,
      params: { type: 'web', id: String(id) },
    }).catch((error: unknown) => error);
    expect((gone as Response).status).toBe(404);
  });

  it('a decided request can be deleted too; one deleted meanwhile: 이미 삭제된 요청입니다.', async () => {
    const id = await seedAdRequest(api, 'kakao');
    await decide('kakao', id, 'reject');
    const { data, page } = await detailPage('kakao', id, { search: '?confirm=delete' });
    expect(data.confirm).toBe('delete');
    expect(page.querySelector('[role="alertdialog"] h2')?.textContent).toBe('광고 요청 삭제');

    expect((await decide('kakao', id, 'delete')).dialogMessage).toBe('광고 요청을 삭제했습니다.');
    const twice = await decide('kakao', id, 'delete');
    expect(twice.dialogTitle).toBe('처리하지 못했습니다');
    expect(twice.dialogMessage).toBe('이미 삭제된 요청입니다.');
  });

  it('a delete when the api cannot be reached: 광고 요청을 삭제하지 못했습니다. and the request stays', async () => {
    const id = await seedAdRequest(api, 'web');
    const down = interceptingContext(context, (request) => {
      if (request.method === 'DELETE') throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await decide('web', id, 'delete', down);
    expect(failed.dialogTitle).toBe('처리하지 못했습니다');
    expect(failed.dialogMessage).toBe('광고 요청을 삭제하지 못했습니다. 잠시 후 다시 시도해주세요.');
    expect(await statusOf(id)).toBe('pending');
  });

  it('an https link renders as a link opening in a new tab with noopener', async () => {
    const id = await seedAdRequest(api, 'web', { redirectUrl: 'https://cafe.example.com/menu' });
    const { page } = await detailPage('web', id);
    const link = page.querySelector('a[href="https://cafe.example.com/menu"]');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')?.split(' ')).toContain('noopener');
  });

  it('refuses a cross-site POST (403) before any decision', async () => {
    const id = await seedAdRequest(api, 'web');
    const thrown = await detailAction({
      request: new Request(`${WEB_ORIGIN}/admin-only/ads/web/confirm/${id}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'approve' }),
        headers: { Cookie: cookie, Origin: 'https://evil.example' },
      }),
      context,
      params: { type: 'web', id: String(id) },
    }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(403);
    expect(await statusOf(id)).toBe('pending');
  });
});
