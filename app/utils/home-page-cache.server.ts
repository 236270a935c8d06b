/**
 * The home page (GET /, docs/product.md §4.1) made once a second per view and sent to everyone
 * (ADR 023). Its HTML is the same for every phone within a second: it shows the refresh route's
 * answer of that second (context.timeLeft), the banner list, the service notice and the accuracy
 * sentence, none of which depends on who asks, and its inline scripts are allowed by their hashes
 * rather than a per-request nonce. So each URL made only of view parameters (app/utils/home-view.ts)
 * keeps one rendered page, compressed once, with an ETag (app/utils/shared-answer.server.ts).
 * server.ts serves it ahead of its general middleware; any other URL of the home is rendered per
 * request as every page is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SCRIPT_HASHES_HEADER } from '~/utils/csp.server';
import { isHomeView } from '~/utils/home-view';
import { encodeAnswer, sendAnswer, sharedAnswer } from '~/utils/shared-answer.server';

/**
 * The most views kept at once: more than the home's view URLs anyone follows (a tab, a modal
 * filter, a sort, the refresh switch). Past it, the oldest view is let go.
 */
const VIEWS_MAX = 64;

export type HomePages = {
  /**
   * Whether `req` asks for a kept view of the home: GET or HEAD of `/` with view parameters only,
   * and a Host that makes a URL (any other is left to the general path, which refuses it 400).
   */
  serves(req: IncomingMessage): boolean;
  /** Writes the view's page of this second to `res` (the client's encoding, or 304). @throws what `render` throws. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
};

/**
 * @param render the document of a home URL (`/?…`), as Remix renders it: rendered at most once a
 *   second per view, whoever asks.
 * @param documentHeaders the headers sent with a document besides those `render` gives, for the
 *   hash sources of its own scripts (`render`'s SCRIPT_HASHES_HEADER, which is not sent): server.ts's
 *   security headers, with the CSP allowing those scripts.
 * @param nowMs the clock a page's age is measured on (tests pass their own).
 */
export function createHomePages(options: {
  render(url: string): Promise<Response>;
  documentHeaders(scriptHashes: string): Record<string, string>;
  nowMs?: () => number;
}): HomePages {
  const { render, documentHeaders, nowMs = Date.now } = options;
  const views = new Map<string, ReturnType<typeof sharedAnswer<null>>>();

  const viewOf = (url: string) => {
    let view = views.get(url);
    if (!view) {
      if (views.size >= VIEWS_MAX) views.delete(views.keys().next().value!);
      view = sharedAnswer(async () => {
        const madeAtMs = nowMs();
        const response = await render(url);
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
      views.set(url, view);
    }
    return view;
  };

  return {
    serves({ method, url = '', headers }) {
      if (method !== 'GET' && method !== 'HEAD') return false;
      if (headers.host !== undefined && !URL.canParse(`http://${headers.host}/`)) return false;
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const search = query === -1 ? '' : url.slice(query + 1);
      const params = new URLSearchParams(search);
      // Only the canonical spelling (`/?&`, `/?d%69r=up` are the same views spelt otherwise): a page per URL.
      return path === '/' && params.toString() === search && isHomeView(params);
    },
    async serve(req, res) {
      sendAnswer(req, res, await viewOf(req.url!).current());
    },
  };
}
