/**
 * The ad edit page for app/routes/admin-only.ads.edit.*.test.ts, against the real api in-process: a
 * signed-in admin, the route's loader and action called as Remix calls them, and the page
 * server-rendered from what they answered.
 */
import { expect } from 'vitest';
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import AdEditPage, { action, loader } from '~/routes/admin-only.ads.edit.$type';
import { action as loginAction } from '~/routes/admin-only_.login';
import { cookieOf, signedInAdminFor, WEB_ORIGIN } from './admin-web';
import { renderRoute } from './render-route';

const SERVICE_TOKEN = 'test-service-token-for-the-edit-page';
const PATH = '/admin-only/ads/edit/:type';

type PageOptions = { search?: string; withCookie?: string; on?: AppLoadContext; actionData?: object };

/**
 * Registers, for the file, the in-process api with a signed-in admin (signedInAdminFor), each test
 * with its own client address (the api's per-address upload limit never carries over). Returns
 * getters of the api and the admin's context, callsDuring, and the page's helpers.
 */
export function adEditPageFor() {
  const { api, context, cookie, callsDuring } = signedInAdminFor(SERVICE_TOKEN, loginAction, { freshClientIp: true });

  /** The edit page of `type` as the admin sees it: the loader's answer and the rendered page. */
  async function editPage(
    type: string,
    { search = '', withCookie = cookie(), on = context(), actionData }: PageOptions = {},
  ) {
    const url = `/admin-only/ads/edit/${type}${search}`;
    const response = await loader({
      request: new Request(`${WEB_ORIGIN}${url}`, { headers: { Cookie: withCookie } }),
      context: on,
      params: { type },
    });
    const data = await response.json();
    const page = await renderRoute(AdEditPage, { path: PATH, url, loaderData: data, actionData });
    return { response, data, page, text: page.body.textContent ?? '' };
  }

  /** Posts `fields` (multipart, as the page's forms do) to the action of `type`'s page. */
  async function post(type: string, fields: Record<string, string | File>, { search = '', on = context() } = {}) {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return action({
      request: new Request(`${WEB_ORIGIN}/admin-only/ads/edit/${type}${search}`, {
        method: 'POST',
        body,
        headers: { Cookie: cookie(), Origin: WEB_ORIGIN },
      }),
      context: on,
      params: { type },
    });
  }

  /** Done on card `id` with `fields`; a refusal is rendered on the card in edit (?edit=id) with the action's data. */
  async function save(type: string, id: number, fields: Record<string, string | File>, on = context()) {
    const search = `?edit=${id}`;
    const response = await post(type, { intent: 'save', id: String(id), ...fields }, { search, on });
    if (response.status === 303) return { response, formError: undefined };
    const actionData = (await response.json()) as { result: SubmissionResult<string[]> };
    const { page } = await editPage(type, { search, actionData });
    return {
      response,
      actionData,
      formError: page.querySelector('.ad-card__form [role="alert"]')?.textContent,
    };
  }

  /** The page after a redirect with a flash message: its status text, red text and completion dialog. */
  async function afterRedirect(type: string, response: Response) {
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe(`/admin-only/ads/edit/${type}`);
    const next = await editPage(type, { withCookie: cookieOf(response) });
    const dialog = next.page.querySelector('[role="alertdialog"]');
    return {
      ...next,
      status: next.page.querySelector('[role="status"]')?.textContent,
      alert: next.page.querySelector('[role="alert"]')?.textContent,
      dialogTitle: dialog?.querySelector('h2')?.textContent,
      dialogMessage: dialog?.querySelector('p')?.textContent,
      dialogButtons: [...(dialog?.querySelectorAll('a, button') ?? [])].map((element) => element.textContent),
    };
  }

  const putsIn = (calls: string[]) => calls.filter((call) => call.startsWith('PUT '));

  return { api, context, callsDuring, editPage, post, save, afterRedirect, putsIn };
}
