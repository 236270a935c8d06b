/**
 * The ad application list and detail pages for app/routes/admin-only.ads.*.test.ts, against the real api
 * in-process: a signed-in admin, the route loaders and actions called as Remix calls them, and the
 * pages server-rendered from what the loaders answered.
 */
import { expect } from 'vitest';
import type { AppLoadContext } from '@remix-run/node';
import ApplicationDetail, {
  action as detailAction,
  loader as detailLoader,
} from '~/routes/admin-only.ads.$type.confirm.$id';
import ApplicationList, { loader as listLoader } from '~/routes/admin-only.ads.$type._index';
import { action as loginAction } from '~/routes/admin-only_.login';
import { cookieOf, signedInAdminFor, WEB_ORIGIN } from './admin-web';
import { renderRoute } from './render-route';

const SERVICE_TOKEN = 'test-service-token-for-admin-pages';
const LIST_PATH = '/admin-only/ads/:type';
export const DETAIL_PATH = '/admin-only/ads/:type/confirm/:id';

/**
 * Registers, for the file, the in-process api with a signed-in admin (signedInAdminFor). Returns
 * getters of the api, the admin's context and cookie, callsDuring, and the pages' helpers.
 */
export function adApplicationPagesFor() {
  const { api, context, cookie, callsDuring } = signedInAdminFor(SERVICE_TOKEN, loginAction);

  /** A GET of `path` with the admin's cookie (or `withCookie`). */
  const get = (path: string, withCookie = cookie()) =>
    new Request(`${WEB_ORIGIN}${path}`, { headers: { Cookie: withCookie } });

  async function listPage(type: string) {
    const response = await listLoader({
      request: get(`/admin-only/ads/${type}`),
      context: context(),
      params: { type },
    });
    const data = await response.json();
    const page = await renderRoute(ApplicationList, {
      path: LIST_PATH,
      url: `/admin-only/ads/${type}`,
      loaderData: data,
    });
    return { response, data, page };
  }

  /** The detail page of application `id` at `search`, loaded with `withCookie` (on `on`); answers its loader's Set-Cookie too. */
  async function detailPage(type: string, id: number, { search = '', withCookie = cookie(), on = context() } = {}) {
    const path = `/admin-only/ads/${type}/confirm/${id}${search}`;
    const response = await detailLoader({
      request: get(path, withCookie),
      context: on,
      params: { type, id: String(id) },
    });
    const data = await response.json();
    const page = await renderRoute(ApplicationDetail, { path: DETAIL_PATH, url: path, loaderData: data });
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
    on: AppLoadContext = context(),
    fields: Record<string, string> = {},
  ) {
    const here = `/admin-only/ads/${type}/confirm/${id}`;
    const response = await detailAction({
      request: new Request(`${WEB_ORIGIN}${here}`, {
        method: 'POST',
        body: new URLSearchParams({ intent, ...fields }),
        headers: { Cookie: cookie(), Origin: WEB_ORIGIN },
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

  const statusOf = async (id: number) => (await api().adApplications()).find((row) => row.id === id)?.status;

  return { api, context, cookie, callsDuring, get, listPage, detailPage, decide, statusOf };
}
