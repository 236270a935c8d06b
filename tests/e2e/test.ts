/**
 * What the browser tests import of Playwright: all of it, with a `test` whose page's `goto` and
 * `reload` resolve once the document they load is hydrated (the root layout marks
 * <html data-hydrated>), when JavaScript runs. Pages hydrate after their first paint (ADR 026), after the load event a bare
 * `goto` waits for, so a test that acts at once would meet the server-rendered page before React.
 * A navigation with `waitUntil: 'commit'` is left as it is: its test looks at the page before then.
 */
import { test as base, type Page, type Response } from '@playwright/test';

// Everything else as Playwright has it (this module's own `test` takes the place of Playwright's).
export * from '@playwright/test';

/** How long a document may take to hydrate, milliseconds: as long as an action may take. */
const HYDRATION_TIMEOUT_MS = 10_000;

/**
 * Waits until the document `response` loaded in `page` is hydrated: at once for a response that is
 * not HTML, or a document with no module script (a page rendered without scripts).
 */
async function hydrated(page: Page, response: Response | null): Promise<void> {
  if (!response || !(response.headers()['content-type'] ?? '').startsWith('text/html')) return;
  await page.waitForFunction(
    () => document.documentElement.dataset.hydrated !== undefined || !document.querySelector('script[type="module"]'),
    undefined,
    { timeout: HYDRATION_TIMEOUT_MS },
  );
}

/** `page` with its `goto` and `reload` waiting for hydration (see the module docstring). */
export function hydrating(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await hydrated(page, response);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await hydrated(page, response);
    return response;
  };
  return page;
}

export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, provide) => {
    await provide(javaScriptEnabled === false ? page : hydrating(page));
  },
});
