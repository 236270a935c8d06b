/**
 * /admin-only/mail and the admin home's mail lines against the real api in-process: one api that
 * queues e-mail (tests/setup/mail-web.ts, no sender) and one that sends none. Failed e-mails are
 * written straight into mail_outbox; a resend goes through the page's action and the api.
 */
import AdminHome, { loader as homeLoader } from '~/routes/admin-only._index';
import MailPage, { action, loader } from '~/routes/admin-only.mail';
import { action as loginAction } from '~/routes/admin-only_.login';
import { formatKstDateTime } from '../../contract/kst';
import {
  cookieOf,
  interceptingContext,
  startSignedInAdmin,
  WEB_ORIGIN,
  type SignedInAdmin,
} from '../../tests/setup/admin-web';
import {
  clearOutbox,
  insertFailedMail,
  outboxStatus,
  queueingMailOutbox,
  recordSending,
} from '../../tests/setup/mail-web';
import { renderRoute } from '../../tests/setup/render-route';

const TOKEN = 'test-service-token-for-admin-mail';
const PAGE = '/admin-only/mail';

type Side = SignedInAdmin;
/** E-mail on, and e-mail off (SMTP_URL unset). */
let on: Side;
let off: Side;

async function side(mail: boolean): Promise<Side> {
  return startSignedInAdmin(TOKEN, loginAction, mail ? { mail: queueingMailOutbox() } : {});
}

beforeAll(async () => {
  [on, off] = await Promise.all([side(true), side(false)]);
});
afterAll(async () => {
  await on.api.close();
  await off.api.close();
});
beforeEach(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await Promise.all([clearOutbox(on.api), clearOutbox(off.api)]);
  await recordSending(on.api, null);
});

/** The SMTP server refusing connections since 14:05 KST, as the sender records it. */
const OUTAGE = { since: new Date('2026-11-29T05:05:00Z'), lastAt: new Date('2026-11-29T05:20:00Z') };
const SMTP_ERROR = 'connect ECONNREFUSED 127.0.0.1:2525';
async function smtpDown(at: Side) {
  await recordSending(at.api, { error: 'connect ECONNREFUSED 127.0.0.1:25', at: OUTAGE.since });
  await recordSending(at.api, { error: SMTP_ERROR, at: OUTAGE.lastAt });
}
afterEach(() => vi.restoreAllMocks());

/** The page loaded on `at` (with `withCookie`): the loader's answer and the page rendered from it. */
async function page(at: Side, { context = at.context, withCookie = at.cookie } = {}) {
  const request = new Request(`${WEB_ORIGIN}${PAGE}`, { headers: { Cookie: withCookie } });
  const response = await loader({ request, context, params: {} });
  const data = await response.json();
  const document = await renderRoute(MailPage, { path: PAGE, url: PAGE, loaderData: data });
  const dialog = document.querySelector('[role="alertdialog"]');
  const failed = [...document.querySelectorAll('.mail-list > li')];
  return { response, data, document, failed, dialogMessage: dialog?.querySelector('p')?.textContent };
}

/** Resends e-mail `id` on `at` as its button does, and answers the page the redirect shows. */
async function resend(at: Side, id: number) {
  const response = await action({
    request: new Request(`${WEB_ORIGIN}${PAGE}`, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'resend', id: String(id) }),
      headers: { Cookie: at.cookie, Origin: WEB_ORIGIN },
    }),
    context: at.context,
    params: {},
  });
  expect(response.status).toBe(303);
  expect(response.headers.get('Location')).toBe(PAGE);
  return page(at, { withCookie: cookieOf(response) });
}

/** The admin home on `at`: its text and its links to the mail page. */
async function home(at: Side) {
  const request = new Request(`${WEB_ORIGIN}/admin-only`, { headers: { Cookie: at.cookie } });
  const data = await (await homeLoader({ request, context: at.context, params: {} })).json();
  const document = await renderRoute(AdminHome, { path: '/admin-only', url: '/admin-only', loaderData: data });
  const lines = [...document.querySelectorAll('p')].map((line) => line.textContent);
  return { lines, mailLinks: document.querySelectorAll(`a[href="${PAGE}"]`).length };
}

describe('/admin-only/mail', () => {
  it('sends a visitor without a session to the login page', async () => {
    const request = new Request(`${WEB_ORIGIN}${PAGE}`);
    const refused = await loader({ request, context: on.context, params: {} }).catch((thrown: unknown) => thrown);
    expect((refused as Response).status).toBe(302);
    expect((refused as Response).headers.get('Location')).toMatch(/^\/admin-only\/login/);
  });

  it('with e-mail on and nothing failed: says it sends, how many wait, and 실패한 메일이 없습니다.', async () => {
    const { document, failed } = await page(on);
    expect([...document.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['메일 발송']);
    expect(document.body.textContent).toContain('이메일을 보내고 있습니다.');
    expect(document.body.textContent).toContain('보낼 차례를 기다리는 메일: 0통');
    expect(document.body.textContent).not.toContain('SMTP_URL');
    expect(failed).toHaveLength(0);
    expect(document.querySelector('section[aria-labelledby="mail-failed-title"]')?.textContent).toContain(
      '실패한 메일이 없습니다.',
    );
  });

  it('with the SMTP server down: says since when sending fails, that the waiting e-mails are retried, and the server’s last answer', async () => {
    await smtpDown(on);
    const { document } = await page(on);
    const alert = document.querySelector('section[aria-labelledby="mail-state-title"] [role="alert"]');
    expect(alert?.textContent).toContain('2026-11-29 14:05:00부터 메일을 보내지 못하고 있습니다.');
    expect(alert?.textContent).toContain('기다리는 메일은 메일 서버가 받을 때까지 다시 보냅니다');
    expect(alert?.textContent).toContain(`메일 서버의 마지막 응답(2026-11-29 14:20:00): ${SMTP_ERROR}`);
    expect(alert?.querySelector('code')?.textContent).toBe(SMTP_ERROR);
    expect(document.body.textContent).not.toContain('이메일을 보내고 있습니다.');
  });

  it('lists the failed e-mails newest first: kind in Korean, recipients, subject, attempts, KST time, last error, a resend button', async () => {
    const older = new Date('2026-11-20T01:00:00Z');
    const newer = new Date('2026-11-21T14:30:00Z');
    await insertFailedMail(on.api, older, { kind: 'approved', subject: '승인 안내 메일' });
    const newest = await insertFailedMail(on.api, newer, {
      kind: 'inquiry-reply',
      recipients: ['a@example.com', 'b@example.com'],
      subject: '[외대 버스] 문의에 답변드립니다',
      attempts: 7,
      lastError: 'connect ECONNREFUSED (retried for 24 hours)',
    });
    const { failed } = await page(on);
    expect(failed).toHaveLength(2);
    const [first, second] = failed;
    expect(first.querySelector('h3')?.textContent).toBe(`문의 답변 ${formatKstDateTime(newer.toISOString())}`);
    expect(first.querySelector('time')?.getAttribute('dateTime')).toBe(newer.toISOString());
    const rows = [...first.querySelectorAll('.detail-list__row')].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('dd')?.textContent,
    ]);
    expect(rows).toEqual([
      ['받는 사람', 'a@example.com, b@example.com'],
      ['제목', '[외대 버스] 문의에 답변드립니다'],
      ['시도', '7번'],
      ['마지막 오류', 'connect ECONNREFUSED (retried for 24 hours)'],
    ]);
    const form = first.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    expect(form?.querySelector('input[name="id"]')?.getAttribute('value')).toBe(String(newest));
    const button = form?.querySelector('button[name="intent"]');
    expect(button?.getAttribute('value')).toBe('resend');
    expect(button?.textContent).toBe('다시 보내기 [외대 버스] 문의에 답변드립니다');
    expect(second.querySelector('h3')?.textContent).toContain('승인 안내');
  });

  it('다시 보내기 queues the e-mail again (pending), says so once, and a second resend finds nothing', async () => {
    const id = await insertFailedMail(on.api, new Date('2026-11-22T00:00:00Z'));
    const done = await resend(on, id);
    expect(done.data.flash).toEqual({ tone: 'success', message: '메일을 다시 보낼 목록에 넣었습니다. 곧 발송됩니다.' });
    expect(done.dialogMessage).toBe('메일을 다시 보낼 목록에 넣었습니다. 곧 발송됩니다.');
    expect(await outboxStatus(on.api, id)).toBe('pending');
    expect(done.failed).toHaveLength(0);
    expect(done.document.body.textContent).toContain('보낼 차례를 기다리는 메일: 1통');

    const again = await resend(on, id);
    expect(again.data.flash).toEqual({ tone: 'error', message: '이미 다시 보냈거나 목록에 없는 메일입니다.' });
  });

  it('with e-mail off: says SMTP_URL is not set and what to set, lists failed e-mails without resend, and refuses a resend', async () => {
    const id = await insertFailedMail(off.api, new Date('2026-11-22T00:00:00Z'));
    const { document, failed } = await page(off);
    const state = document.querySelector('section[aria-labelledby="mail-state-title"]')?.textContent;
    expect(state).toContain('SMTP_URL이 설정되지 않아 이메일을 보내지 않습니다.');
    for (const setting of [
      'SMTP_URL(메일 서버 주소)',
      'MAIL_FROM(보내는 사람)',
      'PUBLIC_BASE_URL',
      'ADMIN_NOTIFY_EMAILS',
      'README',
    ]) {
      expect(state).toContain(setting);
    }
    expect(failed).toHaveLength(1);
    expect(failed[0].querySelector('form')).toBeNull();
    expect(document.body.textContent).toContain('이메일 발송을 켜면 다시 보낼 수 있습니다.');

    const refused = await resend(off, id);
    expect(refused.data.flash).toEqual({ tone: 'error', message: '이메일 발송이 꺼져 있습니다(SMTP_URL).' });
    expect(await outboxStatus(off.api, id)).toBe('failed');
  });

  it('when the api cannot be reached: says the state did not load (502), once', async () => {
    const down = interceptingContext(on.context, (_request, url) => {
      if (url.pathname === '/api/admin/mail') throw new TypeError('fetch failed');
      return undefined;
    });
    const { response, document } = await page(on, { context: down });
    expect(response.status).toBe(502);
    const alerts = [...document.querySelectorAll('[role="alert"]')].map((alert) => alert.textContent);
    expect(alerts).toEqual(['메일 발송 상태를 불러오지 못했습니다.']);
  });
});

describe('the admin home’s mail lines', () => {
  it('say nothing while e-mail is on and nothing failed', async () => {
    const { lines, mailLinks } = await home(on);
    expect(lines.join(' ')).not.toMatch(/메일|SMTP_URL/);
    expect(mailLinks).toBe(0);
  });

  it('say since when e-mail fails to go out, with a link to the mail page', async () => {
    await smtpDown(on);
    const { lines, mailLinks } = await home(on);
    expect(lines).toContain(
      '2026-11-29 14:05:00부터 메일을 보내지 못하고 있습니다. 메일 발송에서 메일 서버의 응답을 확인해주세요.',
    );
    expect(mailLinks).toBe(1);
  });

  it('count the failed e-mails, with a link to the mail page', async () => {
    await insertFailedMail(on.api, new Date('2026-11-22T00:00:00Z'));
    await insertFailedMail(on.api, new Date('2026-11-22T01:00:00Z'));
    const { lines, mailLinks } = await home(on);
    expect(lines).toContain('보내지 못한 메일이 2통 있습니다. 메일 발송에서 확인하고 다시 보내주세요.');
    expect(lines.join(' ')).not.toContain('SMTP_URL');
    expect(mailLinks).toBe(1);
  });

  it('count every failed e-mail, past the 100 the mail page lists', async () => {
    for (let i = 0; i < 101; i += 1) await insertFailedMail(on.api, new Date(Date.UTC(2026, 10, 22, 0, i)));
    const { lines } = await home(on);
    expect(lines).toContain('보내지 못한 메일이 101통 있습니다. 메일 발송에서 확인하고 다시 보내주세요.');
  });

  it('say so while e-mail is off, with a link to the mail page', async () => {
    const { lines, mailLinks } = await home(off);
    expect(lines).toContain('SMTP_URL이 설정되지 않아 이메일을 보내지 않습니다. 설정 방법은 메일 발송에 있습니다.');
    expect(mailLinks).toBe(1);
  });
});
