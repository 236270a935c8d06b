/**
 * /contact's form as a phone posts it, against the real api in-process (PGlite), for the action's
 * tests (app/routes/contact*.test.ts): the honeypot filled in as the page's loader renders it, the
 * action's answer read back, and what the api stored read through its admin list.
 */
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import { InquiryListResponseSchema } from '../../contract/inquiries';
import { action, loader } from '~/routes/contact';
import { adminContext } from './admin-web';
import { IN_PROCESS_API_URL, startWebApi, type WebApi } from './web-api';

export type ActionData = { result: SubmissionResult<string[]> };
type LoaderData = { honeypot: { nameField: string; tokenField: string; token: string } };

/**
 * Starts the api with service token `token` before the file's tests (and closes it after them).
 * @returns the helpers.
 */
export function contactForm(token: string) {
  let api: WebApi;
  let ipCounter = 0;
  beforeAll(async () => {
    api = await startWebApi({ serviceToken: token });
  });
  afterAll(() => api.close());

  /** A context like the web's (SESSION_SECRET in the admin binding) with a client IP of its own. */
  const freshContext = (overrides: Partial<AppLoadContext> = {}) =>
    adminContext(api, token, { clientIp: `192.0.2.${++ipCounter}`, ...overrides });

  async function loaderData(context: AppLoadContext): Promise<LoaderData> {
    const response = await loader({ request: new Request('http://localhost/contact'), context, params: {} });
    return response.json();
  }

  /** The form as the page posts it: `fields`, and the honeypot's inputs as `context`'s loader rendered them. */
  async function form(fields: Record<string, string>, context: AppLoadContext, honeypot: Record<string, string> = {}) {
    const { nameField, tokenField, token: signed } = (await loaderData(context)).honeypot;
    const data = new FormData();
    data.append(nameField, '');
    data.append(tokenField, signed);
    for (const [name, value] of Object.entries({ ...fields, ...honeypot })) data.set(name, value);
    return data;
  }

  /** Posts `body` with `headers` (the phone's language: Accept-Language, Cookie); 303 to ?sent=1 is `sent`. */
  async function submit(body: FormData, context: AppLoadContext, headers: HeadersInit = {}) {
    const request = new Request('http://localhost/contact', { method: 'POST', body, headers });
    const response = await action({ request, context, params: {} });
    const sent = response.status === 303 && response.headers.get('Location') === '/contact?sent=1';
    return { status: response.status, sent, data: (sent ? null : await response.json()) as ActionData | null };
  }

  /** Fills and sends the form from a fresh phone (or `context`'s), with `headers`. */
  async function send(fields: Record<string, string>, context = freshContext(), headers: HeadersInit = {}) {
    return submit(await form(fields, context), context, headers);
  }

  /** The inquiries the api stored, newest first, as the admin list answers them. */
  async function stored() {
    const response = await api.app.request(`${IN_PROCESS_API_URL}/api/admin/inquiries`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return InquiryListResponseSchema.parse(await response.json()).data;
  }

  /** The POST /api/inquiries calls the web made while `run` ran. */
  async function inquiryCalls(run: () => Promise<unknown>) {
    const before = api.calls.length;
    await run();
    return api.calls.slice(before).filter((call) => new URL(call.url).pathname === '/api/inquiries');
  }

  return { freshContext, loaderData, form, submit, send, stored, inquiryCalls };
}
