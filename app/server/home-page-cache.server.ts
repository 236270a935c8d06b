/**
 * The home page (GET /, docs/product.md §4.1) made once a second per view and sent to everyone
 * (ADR 023). Its HTML is the same for every phone of a language within a second: it shows the
 * refresh route's answer of that second (context.timeLeft), the banner list, the service notice and
 * the accuracy sentence, none of which depends on who asks, and its inline scripts are allowed by
 * their hashes rather than a per-request nonce. So each view (app/utils/home-view.ts HOME_VIEWS: a
 * few dozen) keeps one rendered page per language (app/i18n/locale.server.ts: the switch's cookie,
 * else Accept-Language), compressed once, with an ETag (app/server/shared-answer.server.ts); any
 * other spelling of a view (its parameters in another order, or one that changes nothing) is
 * redirected to the view's one URL. There is a page for every view and none other, so no sequence
 * of requests can push a view's page out and have it made again within its second. It is a fast path
 * (app/server/fast-paths.server.ts), served ahead of express; any other URL of the home is rendered per request as every
 * page is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SCRIPT_HASHES_HEADER } from '~/server/csp.server';
import { HOME_VIEWS, homeViewSearch } from '~/utils/home-view';
import { encodeAnswer, sendAnswer, sharedAnswer } from '~/server/shared-answer.server';
import { localeOf } from '~/i18n/locale.server';
import { LOCALES, type Locale } from '../../contract/locales';

export type HomePages = {
  /**
   * Whether `req` asks for a view of the home: GET or HEAD of `/` with view parameters only
   * (the server has refused a Host that is more than `host[:port]`: app/server/fast-paths.server.ts).
   */
  serves(req: IncomingMessage): boolean;
  /**
   * Writes the view's page of this second to `res` (the client's encoding, or 304), or a 301 to the
   * view's one URL when `req` spells it otherwise. @throws what `render` throws.
   */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
};

/**
 * @param render the document of a home URL (`/?…`) in a language, as Remix renders it: rendered at
 *   most once a second per view and language, whoever asks.
 * @param documentHeaders the headers sent with a document besides those `render` gives, for the
 *   hash sources of its own scripts (`render`'s SCRIPT_HASHES_HEADER, which is not sent): the edge's
 *   security headers, with the CSP allowing those scripts.
 * @param nowMs the clock a page's age is measured on (tests pass their own).
 */
export function createHomePages(options: {
  render(url: string, locale: Locale): Promise<Response>;
  documentHeaders(scriptHashes: string): Record<string, string>;
  nowMs?: () => number;
}): HomePages {
  const { render, documentHeaders, nowMs = Date.now } = options;
  const pageOf = (url: string, locale: Locale) =>
    sharedAnswer(async () => {
      const madeAtMs = nowMs();
      const response = await render(url, locale);
      const html = await response.text();
      // NOTE: the home sets no cookie: what it answers is the same for everyone.
      const headers = Object.fromEntries(
        [...response.headers].filter(([name]) => name !== 'set-cookie' && name !== SCRIPT_HASHES_HEADER),
      );
      const scripts = documentHeaders(response.headers.get(SCRIPT_HASHES_HEADER) ?? '');
      return encodeAnswer(
        { data: null, status: response.status, body: html, headers: { ...headers, ...scripts } },
        madeAtMs,
      );
    }, nowMs);
  /** Each view's page per language, by its search (HOME_VIEWS); a page is made when first asked for. */
  const views = new Map(
    LOCALES.map((locale) => [
      locale,
      new Map(HOME_VIEWS.map((search) => [search, pageOf(search ? `/?${search}` : '/', locale)])),
    ]),
  );
  /** The headers of a redirect: the document headers of a page that runs no script. */
  const redirectHeaders = { ...documentHeaders(''), 'cache-control': 'public, max-age=3600' };

  return {
    serves({ method, url = '' }) {
      if (method !== 'GET' && method !== 'HEAD') return false;
      const { path, search } = partsOf(url);
      return path === '/' && homeViewSearch(new URLSearchParams(search)) !== null;
    },
    async serve(req, res) {
      const { search } = partsOf(req.url!);
      const view = homeViewSearch(new URLSearchParams(search))!;
      if (search !== view) {
        res.writeHead(301, { ...redirectHeaders, location: view ? `/?${view}` : '/' }).end();
        return;
      }
      const locale = localeOf('/', {
        cookie: req.headers.cookie,
        acceptLanguage: req.headers['accept-language'],
      });
      sendAnswer(req, res, await views.get(locale)!.get(view)!.current());
    },
  };
}

/** A request target's path and its search without the `?` ('' without one). */
function partsOf(url: string): { path: string; search: string } {
  const query = url.indexOf('?');
  return query === -1 ? { path: url, search: '' } : { path: url.slice(0, query), search: url.slice(query + 1) };
}
