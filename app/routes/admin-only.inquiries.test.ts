/**
 * /admin-only/inquiries against the real api in-process: the list; the reply by e-mail (the form,
 * the queued e-mail, 답변함, a refused reply back as typed, no form without an e-mail or while e-mail
 * is off); and the deletion of one inquiry on its sender's request (privacy policy 제7조, the right
 * to erasure): the confirm dialog (?delete=id), the action's call, the completion dialog, the audit
 * entry. Inquiries arrive through POST /api/inquiries as /contact sends them; what the api holds is
 * read back with the service token. The api queues e-mail (tests/setup/mail-web.ts); a second one
 * sends none.
 */
import type { AppLoadContext } from '@remix-run/node';
import { AuditListResponseSchema } from '../../contract/admin';
import { INQUIRY_REPLY_MESSAGES, InquiryListResponseSchema } from '../../contract/inquiries';
import Inquiries, { action, loader } from '~/routes/admin-only.inquiries';
import { action as loginAction } from '~/routes/admin-only_.login';
import { formatKstDateTime } from '../../contract/kst';
import { cookieOf, interceptingContext, startSignedInAdmin, WEB_ORIGIN } from '../../tests/setup/admin-web';
import { outboxRows, queueingMailOutbox } from '../../tests/setup/mail-web';
import { renderRoute } from '../../tests/setup/render-route';
import { IN_PROCESS_API_URL, type WebApi } from '../../tests/setup/web-api';

const TOKEN = 'test-service-token-for-admin-inquiries';
const PAGE = '/admin-only/inquiries';

let api: WebApi;
let context: AppLoadContext;
let cookie: string;
/** An api that sends no e-mail (SMTP_URL unset), its context and an admin's cookie there. */
let off: { api: WebApi; context: AppLoadContext; cookie: string };
let sender = 0;

beforeAll(async () => {
  ({ api, context, cookie } = await startSignedInAdmin(TOKEN, loginAction, { mail: queueingMailOutbox() }));
  off = await startSignedInAdmin(TOKEN, loginAction);
});
afterAll(async () => {
  await api.close();
  await off.api.close();
});
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** Reads `path` of the api (`from`) with the service token, parsed with `schema`'s data. */
async function readApi<T>(path: string, schema: { parse(value: unknown): { data: T } }, from = api): Promise<T> {
  const response = await from.app.request(`${IN_PROCESS_API_URL}${path}`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return schema.parse(await response.json()).data;
}
const storedInquiries = (from = api) => readApi('/api/admin/inquiries', InquiryListResponseSchema, from);

/** Sends an inquiry as /contact does, from a phone of its own, to the api `to`. @returns its id. */
async function sendInquiry(content: string, email?: string, to = api): Promise<number> {
  const response = await to.app.request(`${IN_PROCESS_API_URL}/api/inquiries`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${++sender}` },
    body: JSON.stringify({ content, ...(email ? { email } : {}) }),
  });
  expect(response.status).toBe(201);
  const found = (await storedInquiries(to)).find((inquiry) => inquiry.content === content);
  expect(found).toBeTruthy();
  return found!.id;
}

/**
 * The page at `search`, loaded with `withCookie` (after a POST answered with `actionData`): the
 * loader's answer and the page rendered from it.
 */
async function page({
  search = '',
  withCookie = cookie,
  on = context,
  actionData = undefined as object | undefined,
} = {}) {
  const request = new Request(`${WEB_ORIGIN}${PAGE}${search}`, { headers: { Cookie: withCookie } });
  const response = await loader({ request, context: on, params: {} });
  const data = await response.json();
  const document = await renderRoute(Inquiries, { path: PAGE, url: `${PAGE}${search}`, loaderData: data, actionData });
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

/** Posts `fields` to the action as the page's forms do (same origin, the admin's cookie). */
function post(fields: Record<string, string>, { on = context, origin = WEB_ORIGIN, withCookie = cookie } = {}) {
  return action({
    request: new Request(`${WEB_ORIGIN}${PAGE}`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { Cookie: withCookie, Origin: origin },
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

/**
 * Posts `reply` to inquiry `id` as its reply form does, and answers the page then shown: after the
 * redirect (a flash), or with the action's answer (a refusal).
 */
async function replyThroughPage(id: number, reply: string, { on = context, withCookie = cookie } = {}) {
  const response = await post({ intent: 'reply', id: String(id), reply }, { on, withCookie });
  if (response.status === 303) return { status: 303, ...(await page({ on, withCookie: cookieOf(response) })) };
  return { status: response.status, ...(await page({ on, withCookie, actionData: await response.json() })) };
}

/** Inquiry `id`'s article on `document`, with its reply form and that form's textarea. */
function inquiryOn(document: Document, id: number) {
  const article = document.querySelector(`article[aria-labelledby="inquiry-${id}"]`);
  const form = article?.querySelector('form') ?? null;
  return { article, form, textarea: form?.querySelector('textarea') ?? null };
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

describe('/admin-only/inquiries: the reply by e-mail', () => {
  it('offers an inquiry with an e-mail a labelled reply form; sent, the e-mail is queued to the inquirer and the inquiry shows 답변함', async () => {
    const id = await sendInquiry('배차 간격이 궁금합니다.', 'asker@example.com');
    const before = await page();
    const { form, textarea } = inquiryOn(before.document, id);
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.querySelector('input[name="intent"]')?.getAttribute('value')).toBe('reply');
    expect(form?.querySelector('input[name="id"]')?.getAttribute('value')).toBe(String(id));
    expect(textarea?.getAttribute('name')).toBe('reply');
    expect(textarea?.getAttribute('maxlength')).toBe('2000');
    const label = before.document.querySelector(`label[for="${textarea?.id}"]`);
    expect(label?.textContent).toContain('답변');
    // The address is the inquirer's word only: the admin is told so beside the reply, which the textarea names.
    const hint = before.document.getElementById(textarea!.getAttribute('aria-describedby')!.split(' ')[0]);
    expect(hint?.textContent).toBe(
      '답변은 문의자가 적은 주소(asker@example.com)로 보내집니다. 이 주소가 문의자 본인의 것인지는 확인되지 ' +
        '않았으니 개인정보나 민감한 내용은 적지 마세요. 한 번만 보낼 수 있고, 2,000자까지 쓸 수 있습니다.',
    );
    const inquiry = (await storedInquiries()).find((row) => row.id === id)!;
    expect(form?.querySelector('button[type="submit"]')?.textContent).toBe(
      `답변 보내기 ${formatKstDateTime(inquiry.createdAt)} 문의`,
    );
    const queuedBefore = (await outboxRows(api)).length;

    const sent = await replyThroughPage(id, '평일에는 10분 간격입니다.\r\n감사합니다.');
    expect(sent.status).toBe(303);
    expect(sent.data.flash).toEqual({ tone: 'success', message: INQUIRY_REPLY_MESSAGES.sent });
    expect(sent.dialogMessage).toBe('답변을 저장했습니다. 이메일은 곧 발송됩니다.');
    const queued = (await outboxRows(api)).slice(queuedBefore);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: 'inquiry-reply', recipients: ['asker@example.com'], status: 'pending' });
    expect(queued[0].text).toContain('평일에는 10분 간격입니다.\n감사합니다.');

    const stored = (await storedInquiries()).find((row) => row.id === id)!;
    expect(stored.reply).toBe('평일에는 10분 간격입니다.\n감사합니다.');
    const repliedTo = inquiryOn(sent.document, id);
    expect(repliedTo.form).toBeNull();
    const reply = repliedTo.article?.querySelector('.inquiry__reply');
    expect(reply?.textContent).toContain(`답변함 ${formatKstDateTime(stored.repliedAt!)}`);
    expect(reply?.querySelector('time')?.getAttribute('dateTime')).toBe(stored.repliedAt);
    expect(reply?.querySelector('.inquiry__content')?.textContent).toBe('평일에는 10분 간격입니다.\n감사합니다.');
  });

  it('a refused reply comes back to its form as typed, with the reason; nothing is queued', async () => {
    const id = await sendInquiry('환불 문의', 'refund@example.com');
    const queuedBefore = (await outboxRows(api)).length;

    const empty = await replyThroughPage(id, '   ');
    expect(empty.status).toBe(400);
    expect(inquiryOn(empty.document, id).form?.textContent).toContain('답변 내용을 입력해주세요.');

    // Replied to meanwhile by another admin: the api's 409 in Korean, the text as typed.
    expect((await replyThroughPage(id, '먼저 보낸 답변')).status).toBe(303);
    const twice = await replyThroughPage(id, '두 번째 답변\n줄바꿈도 그대로');
    expect(twice.status).toBe(409);
    const { form, textarea } = inquiryOn(twice.document, id);
    expect(form?.querySelector('[role="alert"]')?.textContent).toBe(INQUIRY_REPLY_MESSAGES.replied);
    expect(textarea?.textContent).toBe('두 번째 답변\n줄바꿈도 그대로');
    expect((await outboxRows(api)).slice(queuedBefore)).toHaveLength(1);
    expect((await storedInquiries()).find((row) => row.id === id)?.reply).toBe('먼저 보낸 답변');
  });

  it('when the api cannot be reached the reply comes back as typed (502); an inquiry deleted meanwhile says so', async () => {
    const id = await sendInquiry('연결이 끊긴 동안의 문의', 'wait@example.com');
    const down = interceptingContext(context, (request, url) => {
      if (request.method === 'POST' && url.pathname.endsWith('/reply')) throw new TypeError('fetch failed');
      return undefined;
    });
    const failed = await replyThroughPage(id, '다시 보낼 답변', { on: down });
    expect(failed.status).toBe(502);
    const { form, textarea } = inquiryOn(failed.document, id);
    expect(form?.querySelector('[role="alert"]')?.textContent).toBe(
      '답변을 보내지 못했습니다. 잠시 후 다시 시도해주세요.',
    );
    expect(textarea?.textContent).toBe('다시 보낼 답변');

    await deleteThroughPage(id);
    const gone = await replyThroughPage(id, '늦은 답변');
    expect(gone.status).toBe(303);
    expect(gone.data.flash).toEqual({ tone: 'error', message: '이미 삭제된 문의입니다.' });
  });

  it('an inquiry without an e-mail says a reply cannot be sent, and has no form', async () => {
    const id = await sendInquiry('이메일 없이 보낸 문의');
    const { article, form } = inquiryOn((await page()).document, id);
    expect(article?.textContent).toContain('이메일을 남기지 않은 문의에는 답변을 보낼 수 없습니다.');
    expect(form).toBeNull();
  });

  it('while e-mail is off, says so once with a link to the mail page and offers no form; a reply posted anyway comes back as typed', async () => {
    const id = await sendInquiry('메일이 꺼진 동안의 문의', 'later@example.com', off.api);
    const shown = await page({ on: off.context, withCookie: off.cookie });
    expect(shown.data.mailEnabled).toBe(false);
    const note = shown.document.querySelector('.notice');
    expect(note?.textContent).toBe(
      '이메일 발송이 꺼져 있어 답변을 보낼 수 없습니다. 설정 방법은 메일 발송에 있습니다.',
    );
    expect(note?.querySelector('a')?.getAttribute('href')).toBe('/admin-only/mail');
    expect(inquiryOn(shown.document, id).form).toBeNull();

    const posted = await replyThroughPage(id, '보내지 못할 답변', { on: off.context, withCookie: off.cookie });
    expect(posted.status).toBe(409);
    const { form, textarea } = inquiryOn(posted.document, id);
    expect(form?.querySelector('[role="alert"]')?.textContent).toBe(INQUIRY_REPLY_MESSAGES.mailOff);
    expect(textarea?.textContent).toBe('보내지 못할 답변');
    expect((await storedInquiries(off.api)).find((row) => row.id === id)?.reply).toBeNull();
  });
});
