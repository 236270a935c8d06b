/**
 * /admin-only/inquiries against the real api in-process: the list, and the deletion of one inquiry
 * on its sender's request (privacy policy 제7조, the right to erasure): the confirm dialog
 * (?delete=id), the action's call, the completion dialog, the audit entry. Inquiries arrive through POST
 * /api/inquiries as /contact sends them; what the api holds is read back with the service token.
 */
import type { AppLoadContext } from '@remix-run/node';
import { AuditListResponseSchema } from '../../contract/admin';
import { InquiryListResponseSchema } from '../../contract/inquiries';
import Inquiries, { action, loader } from '~/routes/admin-only.inquiries';
import { action as loginAction } from '~/routes/admin-only_.login';
import { formatKstDateTime } from '~/utils/kst';
import { adminContext, cookieOf, interceptingContext, signInAdmin, WEB_ORIGIN } from '../../tests/setup/admin-web';
import { renderRoute } from '../../tests/setup/render-route';
import { IN_PROCESS_API_URL, startWebApi, type WebApi } from '../../tests/setup/web-api';

const TOKEN = 'test-service-token-for-admin-inquiries';
const PAGE = '/admin-only/inquiries';

let api: WebApi;
let context: AppLoadContext;
let cookie: string;
let sender = 0;

beforeAll(async () => {
  api = await startWebApi({ serviceToken: TOKEN });
  context = adminContext(api, TOKEN);
  cookie = await signInAdmin(api, context, loginAction);
});
afterAll(() => api.close());
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** Reads `path` of the api with the service token, parsed with `schema`'s data. */
async function readApi<T>(path: string, schema: { parse(value: unknown): { data: T } }): Promise<T> {
  const response = await api.app.request(`${IN_PROCESS_API_URL}${path}`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return schema.parse(await response.json()).data;
}
const storedInquiries = () => readApi('/api/admin/inquiries', InquiryListResponseSchema);

/** Sends an inquiry as /contact does, from a phone of its own. @returns its id. */
async function sendInquiry(content: string, email?: string): Promise<number> {
  const response = await api.app.request(`${IN_PROCESS_API_URL}/api/inquiries`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${++sender}` },
    body: JSON.stringify({ content, ...(email ? { email } : {}) }),
  });
  expect(response.status).toBe(201);
  const found = (await storedInquiries()).find((inquiry) => inquiry.content === content);
  expect(found).toBeTruthy();
  return found!.id;
}

/** The page at `search`, loaded with `withCookie`: the loader's answer and the page rendered from it. */
async function page({ search = '', withCookie = cookie, on = context } = {}) {
  const request = new Request(`${WEB_ORIGIN}${PAGE}${search}`, { headers: { Cookie: withCookie } });
  const response = await loader({ request, context: on, params: {} });
  const data = await response.json();
  const document = await renderRoute(Inquiries, { path: PAGE, url: `${PAGE}${search}`, loaderData: data });
  const dialog = document.querySelector('[role="alertdialog"]');
  return {
    response,
    data,
    document,
    dialog,
    dialogTitle: dialog?.querySelector('h2')?.textContent,
    dialogMessage: dialog?.querySelector('p')?.textContent,
  };
}

/** Posts `fields` to the action as the dialog's form does (same origin, the admin's cookie). */
function post(fields: Record<string, string>, { on = context, origin = WEB_ORIGIN } = {}) {
  return action({
    request: new Request(`${WEB_ORIGIN}${PAGE}`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { Cookie: cookie, Origin: origin },
    }),
    context: on,
    params: {},
  });
}

/** Deletes inquiry `id` through the action, follows its redirect, and answers the page then shown. */
async function deleteThroughPage(id: number, on: AppLoadContext = context) {
  const response = await post({ intent: 'delete', id: String(id) }, { on });
  expect(response.status).toBe(303);
  expect(response.headers.get('Location')).toBe(PAGE);
  return page({ withCookie: cookieOf(response) });
}

describe('/admin-only/inquiries', () => {
  it('offers a delete link on each inquiry, named with its time for a screen reader', async () => {
    const id = await sendInquiry('지도에서 1117번이 안 보여요.', 'rider@example.com');
    const { document } = await page();
    const inquiry = (await storedInquiries()).find((row) => row.id === id)!;
    const link = document.querySelector(`a[href="${PAGE}?delete=${id}"]`);
    expect(link?.textContent).toBe(`삭제 ${formatKstDateTime(inquiry.createdAt)} 문의`);
    expect(link?.querySelector('.sr-only')?.textContent).toBe(` ${formatKstDateTime(inquiry.createdAt)} 문의`);
  });

  it('?delete=id asks first: 이 문의를 삭제할까요?, with cancel and a form that posts the id; an unknown id asks nothing', async () => {
    const id = await sendInquiry('광고 문의드립니다.');
    const inquiry = (await storedInquiries()).find((row) => row.id === id)!;
    const asked = await page({ search: `?delete=${id}` });
    expect(asked.data.remove).toBe(id);
    expect(asked.dialogTitle).toBe('이 문의를 삭제할까요?');
    expect(asked.dialogMessage).toBe(
      `${formatKstDateTime(inquiry.createdAt)}에 받은 문의입니다. 삭제한 문의는 되돌릴 수 없습니다.`,
    );
    expect(asked.dialog?.querySelector('a')?.getAttribute('href')).toBe(PAGE);
    const form = asked.dialog?.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.querySelector('input[name="id"]')?.getAttribute('value')).toBe(String(id));
    expect(form?.querySelector('button[name="intent"]')?.getAttribute('value')).toBe('delete');
    expect(form?.querySelector('button')?.textContent).toBe('삭제');

    for (const search of ['?delete=999999', '?delete=abc', '']) {
      const none = await page({ search });
      expect(none.data.remove, search).toBeNull();
      expect(none.dialog, search).toBeNull();
    }
  });

  it('deletes the inquiry, says 문의를 삭제했습니다. once, and the api audits it under the admin’s name', async () => {
    const id = await sendInquiry('제 문의를 지워주세요.', 'erase@example.com');
    const kept = await sendInquiry('남겨둘 문의');

    const done = await deleteThroughPage(id);
    expect(done.data.flash).toEqual({ tone: 'success', message: '문의를 삭제했습니다.' });
    expect(done.dialogTitle).toBe('완료');
    expect(done.dialogMessage).toBe('문의를 삭제했습니다.');
    expect(done.dialog?.querySelector('a')?.getAttribute('href')).toBe(PAGE);
    expect(done.document.body.textContent).not.toContain('제 문의를 지워주세요.');
    expect((await storedInquiries()).map((row) => row.id)).toContain(kept);
    expect((await storedInquiries()).map((row) => row.id)).not.toContain(id);

    const [latest] = await readApi('/api/admin/audit', AuditListResponseSchema);
    expect(latest).toMatchObject({ actor: 'reviewer', action: 'delete', target: `inquiry:${id}`, after: null });
    expect(JSON.stringify(latest)).not.toMatch(/erase@example\.com|지워주세요/);

    // The flash is spent: the page loaded again with the cookie the loader set shows no dialog.
    const again = await page({ withCookie: cookieOf(done.response) });
    expect(again.dialog).toBeNull();
  });

  it('an inquiry deleted meanwhile (by another admin): 이미 삭제된 문의입니다.', async () => {
    const id = await sendInquiry('두 번 지워지는 문의');
    await deleteThroughPage(id);
    const twice = await deleteThroughPage(id);
    expect(twice.dialogTitle).toBe('처리하지 못했습니다');
    expect(twice.dialogMessage).toBe('이미 삭제된 문의입니다.');
  });

  it('when the api cannot be reached: 문의를 삭제하지 못했습니다. and the inquiry stays', async () => {
    const id = await sendInquiry('지워지지 않을 문의');
    const down = interceptingContext(context, (request, url) => {
      if (request.method === 'DELETE' && url.pathname.startsWith('/api/admin/inquiries/')) {
        throw new TypeError('fetch failed');
      }
      return undefined;
    });
    const failed = await deleteThroughPage(id, down);
    expect(failed.dialogTitle).toBe('처리하지 못했습니다');
    expect(failed.dialogMessage).toBe('문의를 삭제하지 못했습니다. 잠시 후 다시 시도해주세요.');
    expect((await storedInquiries()).map((row) => row.id)).toContain(id);
  });

  it('refuses a post without an inquiry id (400), a cross-site post (403) and one without a session (login)', async () => {
    const id = await sendInquiry('보호되는 문의');
    const bad = await post({ intent: 'delete' }).catch((error: unknown) => error);
    expect((bad as Response).status).toBe(400);
    const crossSite = await post({ intent: 'delete', id: String(id) }, { origin: 'https://evil.example' }).catch(
      (error: unknown) => error,
    );
    expect((crossSite as Response).status).toBe(403);
    const anonymous = await action({
      request: new Request(`${WEB_ORIGIN}${PAGE}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'delete', id: String(id) }),
        headers: { Origin: WEB_ORIGIN },
      }),
      context,
      params: {},
    }).catch((error: unknown) => error);
    expect((anonymous as Response).status).toBe(302);
    expect((anonymous as Response).headers.get('Location')).toMatch(/^\/admin-only\/login/);
    expect((await storedInquiries()).map((row) => row.id)).toContain(id);
  });
});
