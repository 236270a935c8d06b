/**
 * Who may use the admin pages (docs/product.md §6): nobody without a live session. Every page under
 * /admin-only answers a visitor without one, or with a forged or signed-out cookie, with a redirect
 * to the login page that names the page, and shows none of its data; every action refuses such a
 * request (the deletions included), and refuses a cross-site one even with a live session (403).
 * No browser: plain HTTP, redirects not followed. The api's own guard (the service token on every
 * admin endpoint, checked against the routes it registers) is api/routes/admin-authorization.test.ts.
 */
import { createHmac } from 'node:crypto';
import { expect, test, type APIRequestContext, type APIResponse } from './test';
import {
  ADMIN_CREDENTIALS,
  approvedAd,
  deleteAdsTagged,
  E2E_SESSION_SECRET,
  publicNotice,
  sendInquiry,
  storedInquiries,
  submitAdApplication,
} from './admin-deployment';
import { ADS_WEB_URL, managedAds, phoneIp, applicationDetail } from './ads-deployment';

const TAG = '권한e2e';
const COOKIE = '__campus_admin_session';
const EVIL = 'https://evil.example';

test.use({ baseURL: ADS_WEB_URL });

/** What the admin pages must not show to a stranger: a pending application, a managed ad and an inquiry. */
const seeded = {
  pending: `${TAG} 대기 ${Date.now()}`,
  ad: `${TAG} 게시 ${Date.now()}`,
  inquiry: `${TAG} 문의 ${Date.now()}`,
  applicationId: 0,
  adId: 0,
  inquiryId: 0,
};

test.beforeAll(async ({ playwright }, workerInfo) => {
  const api = await playwright.request.newContext();
  // A worker started again after a failure seeds again: from an address of its own (5 submits per IP).
  const ip = phoneIp(220 + workerInfo.workerIndex);
  seeded.applicationId = await submitAdApplication(api, { type: 'web', title: seeded.pending, ip });
  seeded.adId = await approvedAd(api, { type: 'web', title: seeded.ad, ip });
  seeded.inquiryId = await sendInquiry(api, { content: seeded.inquiry }, ip);
  await api.dispose();
});

test.afterAll(async ({ playwright }) => {
  const api = await playwright.request.newContext();
  await deleteAdsTagged(api, 'web', TAG);
  await api.dispose();
});

const pages = () => [
  '/admin-only',
  '/admin-only/notice',
  '/admin-only/feed',
  '/admin-only/inquiries',
  '/admin-only/audit',
  '/admin-only/ads/web',
  '/admin-only/ads/kakao',
  `/admin-only/ads/web/confirm/${seeded.applicationId}`,
  `/admin-only/ads/web/confirm/${seeded.applicationId}?confirm=approve`,
  `/admin-only/ads/web/confirm/${seeded.applicationId}?confirm=delete`,
  `/admin-only/inquiries?delete=${seeded.inquiryId}`,
  '/admin-only/ads/edit/web',
  `/admin-only/ads/edit/web?edit=${seeded.adId}`,
  '/admin-only/ads/edit/kakao',
];

/** An admin action's URL and its form (urlencoded, or multipart for the edit page). */
type Action = { path: string; form?: Record<string, string>; multipart?: Record<string, string> };

/** Every admin action with a form that would change something if it were obeyed. */
const actions = (): Action[] => [
  { path: `/admin-only/ads/web/confirm/${seeded.applicationId}`, form: { intent: 'approve' } },
  { path: `/admin-only/ads/web/confirm/${seeded.applicationId}`, form: { intent: 'reject' } },
  { path: `/admin-only/ads/web/confirm/${seeded.applicationId}`, form: { intent: 'delete' } },
  { path: '/admin-only/inquiries', form: { intent: 'delete', id: String(seeded.inquiryId) } },
  { path: '/admin-only/ads/edit/web', multipart: { intent: 'delete', id: String(seeded.adId) } },
  {
    path: '/admin-only/ads/edit/web',
    multipart: { intent: 'save', id: String(seeded.adId), title: `${TAG} 바뀜`, redirectUrl: `${EVIL}/` },
  },
  { path: '/admin-only/ads/edit/web', multipart: { intent: 'move', id: String(seeded.adId), direction: 'up' } },
  { path: '/admin-only/notice', form: { enabled: 'on', title: '해킹', text: '해킹된 공지' } },
  { path: '/admin-only/logout', form: {} },
];

/** The state the actions above would change. */
async function adminState(request: APIRequestContext) {
  return {
    request: await applicationDetail(request, 'web', seeded.applicationId),
    ads: await managedAds(request, 'web'),
    notice: await publicNotice(request),
    inquiries: (await storedInquiries(request)).map((inquiry) => inquiry.id),
  };
}

/** Asserts `response` sends the visitor to the login page, to come back to `path`, and shows nothing. */
async function expectLoginRedirect(response: APIResponse, path: string) {
  expect([302, 303], `${response.url()} status`).toContain(response.status());
  const location = new URL(response.headers().location, ADS_WEB_URL);
  expect(location.pathname).toBe('/admin-only/login');
  expect(location.searchParams.get('redirectTo')).toBe(path);
  await expectNothingShown(response);
}

/**
 * Asserts `response` refused an admin action: 403, or the login page (Remix renders a refused
 * document POST with the layout's loader, which sends a visitor without a session to sign in).
 */
async function expectRefused(response: APIResponse, path: string) {
  if (response.status() === 403) await expectNothingShown(response);
  else await expectLoginRedirect(response, path);
}

/** Asserts `response` shows none of the seeded data (nor, to a stranger, who the admin is). */
async function expectNothingShown(response: APIResponse, { stranger = true } = {}) {
  const body = await response.text();
  const secrets = [seeded.pending, seeded.ad, seeded.inquiry, ...(stranger ? [ADMIN_CREDENTIALS.username] : [])];
  for (const secret of secrets) expect(body).not.toContain(secret);
}

/** Signs in through the login form as a browser would, and returns the session cookie ("name=value"). */
async function signIn(playwright: { request: { newContext(): Promise<APIRequestContext> } }): Promise<string> {
  const browserless = await playwright.request.newContext();
  const response = await browserless.post(`${ADS_WEB_URL}/admin-only/login`, {
    form: { ...ADMIN_CREDENTIALS, redirectTo: '/admin-only' },
    headers: { Origin: ADS_WEB_URL, 'X-Forwarded-For': phoneIp(211) },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  const setCookie = response.headersArray().find((header) => header.name.toLowerCase() === 'set-cookie')!.value;
  await browserless.dispose();
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  return setCookie.split(';')[0];
}

/** Remix's signed cookie value: base64 of the JSON data, "." and its HMAC-SHA256 without padding. */
function cookieFor(data: unknown, secret: string | null): string {
  const encoded = Buffer.from(JSON.stringify(data), 'utf8').toString('base64');
  const signature = secret
    ? `.${createHmac('sha256', secret).update(encoded).digest('base64').replace(/=+$/, '')}`
    : '';
  return `${COOKIE}=${encodeURIComponent(encoded + signature)}`;
}

function sessionIdOf(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(COOKIE.length + 1));
  return (
    JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf('.')), 'base64').toString('utf8')) as { sessionId: string }
  ).sessionId;
}

test('without a live session every admin page sends the visitor to the login page and shows nothing', async ({
  request,
  playwright,
}) => {
  const valid = await signIn(playwright);
  const sessionId = sessionIdOf(valid);
  // The forging below is right: signed with the web's secret, the real session's cookie comes out.
  expect(cookieFor({ sessionId }, E2E_SESSION_SECRET)).toBe(valid);
  const forged = {
    none: undefined,
    garbage: `${COOKIE}=garbage`,
    'unsigned, a real session id': cookieFor({ sessionId }, null),
    'signed with another secret': cookieFor({ sessionId }, 'another-secret-0123456789abcdef0123456789abcdef'),
    'signed right, a made-up session id': cookieFor({ sessionId: 'c0ffee'.repeat(8) }, E2E_SESSION_SECRET),
  };
  for (const path of pages()) {
    for (const [what, cookie] of Object.entries(forged)) {
      await test.step(`${path} with cookie ${what}`, async () => {
        const response = await request.get(path, { headers: cookie ? { Cookie: cookie } : {}, maxRedirects: 0 });
        await expectLoginRedirect(response, path);
      });
    }
  }

  // The same pages with the live session do show what they hold (so the refusals above are not an accident).
  const listed = await request.get('/admin-only/ads/web', { headers: { Cookie: valid }, maxRedirects: 0 });
  expect(listed.status()).toBe(200);
  expect(await listed.text()).toContain(seeded.pending);
  const edit = await request.get('/admin-only/ads/edit/web', { headers: { Cookie: valid }, maxRedirects: 0 });
  expect(await edit.text()).toContain(seeded.ad);
});

test('without a live session no admin action is obeyed: the visitor is sent to the login page or refused (403)', async ({
  request,
}) => {
  const before = await adminState(request);
  for (const { path, form, multipart } of actions()) {
    const variants: Record<string, Record<string, string>> = {
      'same site': { Origin: ADS_WEB_URL },
      'no Origin': {},
      'a forged cookie': { Origin: ADS_WEB_URL, Cookie: `${COOKIE}=garbage` },
    };
    for (const [what, headers] of Object.entries(variants)) {
      await test.step(`POST ${path} ${(form ?? multipart)?.intent ?? ''} (${what})`, async () => {
        const response = await request.post(path, { headers, form, multipart, maxRedirects: 0 });
        if (what === 'no Origin') await expectRefused(response, path);
        else await expectLoginRedirect(response, path);
      });
    }
  }
  expect(await adminState(request)).toEqual(before);
});

/** Ways a request shows it comes from another site. */
const CROSS_SITE: Record<string, Record<string, string>> = {
  'Origin of another site': { Origin: EVIL },
  'Origin null (a sandboxed or privacy-redirected form)': { Origin: 'null' },
  'no Origin, Referer of another site': { Referer: `${EVIL}/admin-only` },
};

test('with a live session, a request from another site is refused and changes nothing', async ({
  request,
  playwright,
}) => {
  const valid = await signIn(playwright);
  const before = await adminState(request);
  for (const { path, form, multipart } of actions()) {
    for (const [what, headers] of Object.entries(CROSS_SITE)) {
      await test.step(`POST ${path} ${(form ?? multipart)?.intent ?? ''} (${what})`, async () => {
        const response = await request.post(path, {
          headers: { ...headers, Cookie: valid },
          form,
          multipart,
          maxRedirects: 0,
        });
        expect(response.status()).toBe(403);
        expect(response.headers()['set-cookie']).toBeUndefined();
        // The answer goes to the admin's own browser (the layout names them), never to the other site.
        await expectNothingShown(response, { stranger: false });
      });
    }
  }
  // Nor does anyone sign in from another site.
  const login = await request.post('/admin-only/login', {
    headers: { Origin: EVIL },
    form: { ...ADMIN_CREDENTIALS, redirectTo: '/admin-only' },
    maxRedirects: 0,
  });
  expect(login.status()).toBeGreaterThanOrEqual(400);
  expect(login.headers()['set-cookie']).toBeUndefined();
  expect(await adminState(request)).toEqual(before);

  // The session is still live, and the same request from the site itself is obeyed.
  const own = await request.post('/admin-only/notice', {
    headers: { Origin: ADS_WEB_URL, Cookie: valid },
    // The page's form as a browser sends it: every field, the English ones included.
    form: {
      title: before.notice.title,
      text: before.notice.text,
      titleEn: before.notice.titleEn ?? '',
      textEn: before.notice.textEn ?? '',
    },
    maxRedirects: 0,
  });
  expect(own.status()).toBe(303);
  expect(own.headers().location).toBe('/admin-only/notice');
  expect(await adminState(request)).toEqual(before);
});

test('a signed-out session is refused even when its old cookie is sent again', async ({ request, playwright }) => {
  const valid = await signIn(playwright);
  expect((await request.get('/admin-only', { headers: { Cookie: valid }, maxRedirects: 0 })).status()).toBe(200);

  const logout = await request.post('/admin-only/logout', {
    headers: { Origin: ADS_WEB_URL, Cookie: valid },
    maxRedirects: 0,
  });
  expect(logout.status()).toBe(303);
  expect(logout.headers().location).toBe('/admin-only/login');
  expect(logout.headers()['set-cookie']).toMatch(new RegExp(`^${COOKIE}=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)`, 'i'));

  for (const path of ['/admin-only', '/admin-only/ads/web', '/admin-only/ads/edit/web']) {
    await expectLoginRedirect(await request.get(path, { headers: { Cookie: valid }, maxRedirects: 0 }), path);
  }
  const post = await request.post('/admin-only/notice', {
    headers: { Origin: ADS_WEB_URL, Cookie: valid },
    form: { enabled: 'on', title: '해킹', text: '해킹된 공지' },
    maxRedirects: 0,
  });
  await expectLoginRedirect(post, '/admin-only/notice');
  expect((await publicNotice(request)).enabled).toBe(false);
});
