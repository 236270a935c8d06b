/**
 * /admin-only/setup?token=… (the first admin's one-time link, ADR 008) against the real api
 * in-process: the loader and action called as Remix calls them, the page server-rendered from what
 * they answered. The api takes 10 setup requests (opening the link or sending the form) per address
 * per 15 minutes (README "Sessions and sign-in limits"); past that the page says how long to wait.
 */
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import Setup, { action, loader } from '~/routes/admin-only_.setup';
import { adminContext, interceptingContext, WEB_ORIGIN } from '../../tests/setup/admin-web';
import { adminUsernames, freshSetupToken } from '../../tests/setup/admin-setup';
import { renderRoute } from '../../tests/setup/render-route';
import { startWebApi, type WebApi } from '../../tests/setup/web-api';

const SERVICE_TOKEN = 'test-service-token-for-the-setup-page';
const PASSWORD = 'correct horse battery staple';
/** The api's setup requests per address per 15 minutes (api/rate-limit.ts adminSetup). */
const SETUP_LIMIT = 10;

let api: WebApi;
let token: string;
let ipCounter = 0;
/** A context on the real api from its own client address, so no test spends another's limit. */
const freshContext = () => adminContext(api, SERVICE_TOKEN, { clientIp: `192.0.2.${++ipCounter}` });

beforeAll(async () => {
  api = await startWebApi({ serviceToken: SERVICE_TOKEN });
});
afterAll(() => api.close());
beforeEach(async () => {
  token = await freshSetupToken(api);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const pageUrl = (linkToken: string) => `/admin-only/setup?token=${encodeURIComponent(linkToken)}`;

/** The loader's answer for the link with `linkToken` (a 404 is thrown as a Response, and returned here). */
async function open(context: AppLoadContext, linkToken = token): Promise<Response> {
  try {
    return await loader({ request: new Request(`${WEB_ORIGIN}${pageUrl(linkToken)}`), context, params: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The setup form sent with `fields` over a complete one. */
function send(context: AppLoadContext, fields: Record<string, string> = {}) {
  const body = new URLSearchParams({
    token,
    username: 'alice',
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    ...fields,
  });
  return action({
    request: new Request(`${WEB_ORIGIN}${pageUrl(token)}`, { method: 'POST', body, headers: { Origin: WEB_ORIGIN } }),
    context,
    params: {},
  });
}

/** The page rendered from the loader's data (and the action's), read back: its alert and whether the form shows. */
async function render(loaderData: object, actionData?: object) {
  const page = await renderRoute(Setup, { path: '/admin-only/setup', url: pageUrl(token), loaderData, actionData });
  return {
    alert: page.querySelector('[role="alert"]')?.textContent ?? '',
    hasForm: page.querySelector('form') !== null,
  };
}

/** Spends the address's setup requests on wrong links, as a guesser would (each answered 404). */
async function spendLimit(context: AppLoadContext) {
  for (let i = 0; i < SETUP_LIMIT; i += 1) expect((await open(context, `guess-${i}`)).status).toBe(404);
}

describe('loader', () => {
  it('opens the form for the live link, and answers 404 for a wrong one', async () => {
    const context = freshContext();
    const response = await open(context);
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data).toEqual({ token, refusal: null });
    expect(await render(data)).toEqual({ alert: '', hasForm: true });
    expect((await open(context, 'wrong')).status).toBe(404);
  });

  it('past the setup requests an address may send, says how many minutes to wait (429) instead of the form', async () => {
    const context = freshContext();
    await spendLimit(context);
    const response = await open(context);
    expect(response.status).toBe(429);
    const data = await response.json();
    const refusal = '관리자 계정 설정 요청이 너무 많습니다. 15분 뒤에 이 링크를 다시 열어주세요.';
    expect(data).toEqual({ token: null, refusal });
    expect(await render(data)).toEqual({ alert: refusal, hasForm: false });
    // The admin who holds the link, from another address, is not stopped by the guesses.
    expect((await open(freshContext())).status).toBe(200);
  });
});

describe('action', () => {
  it('creates the first admin and signs them in', async () => {
    const response = await send(freshContext());
    expect(response.status).toBe(303);
    expect(response.headers.get('Set-Cookie')).toBeTruthy();
    expect(await adminUsernames(api)).toEqual(['alice']);
  });

  it('past the setup requests an address may send, answers 429 with the wait, keeping the username, creating no admin', async () => {
    const context = freshContext();
    await spendLimit(context);
    const response = await send(context);
    expect(response.status).toBe(429);
    const actionData = (await response.json()) as { result: SubmissionResult<string[]> };
    const message = '관리자 계정 설정 요청이 너무 많습니다. 15분 뒤에 다시 시도해주세요.';
    expect(actionData.result.error).toEqual({ '': [message] });
    expect(actionData.result.initialValue).toEqual({ token, username: 'alice' });
    expect(await render({ token, refusal: null }, actionData)).toEqual({ alert: message, hasForm: true });
    expect(await adminUsernames(api)).toEqual([]);
  });
});

describe('loader and action', () => {
  it("rounds the api's Retry-After up to whole minutes, at least one", async () => {
    for (const [retryAfter, minutes] of [
      ['61', 2],
      ['1', 1],
      ['900', 15],
    ] as const) {
      const limited = interceptingContext(freshContext(), (_request, url) =>
        url.pathname === '/api/admin/setup'
          ? Response.json(
              { message: 'Too many requests; try again later' },
              {
                status: 429,
                headers: { 'Retry-After': retryAfter },
              },
            )
          : undefined,
      );
      const response = await open(limited);
      expect(response.status, retryAfter).toBe(429);
      expect((await response.json()).refusal).toBe(
        `관리자 계정 설정 요청이 너무 많습니다. ${minutes}분 뒤에 이 링크를 다시 열어주세요.`,
      );
      const sent = await send(limited);
      expect(sent.status, retryAfter).toBe(429);
      const { result } = (await sent.json()) as { result: SubmissionResult<string[]> };
      expect(result.error).toEqual({
        '': [`관리자 계정 설정 요청이 너무 많습니다. ${minutes}분 뒤에 다시 시도해주세요.`],
      });
    }
  });
});
