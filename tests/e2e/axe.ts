/**
 * axe (@axe-core/playwright; WCAG 2.x A/AA and best practices) on the page as it is now, with
 * JavaScript on or off.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The page's axe violations as "rule: target (help)" lines; [] when it passes.
 *
 * With JavaScript off Chromium runs no script at all, axe's included. So axe checks a replica: the
 * page's DOM as the browser built it without scripts (its `<noscript>` content parsed as markup),
 * served at the same URL to a page that may run scripts, with the page's own scripts removed and
 * its `<noscript>` wrappers unwrapped, so the replica has exactly the no-JavaScript DOM (and the
 * same stylesheets). A navigation the replica starts itself (a meta refresh) is answered 204, so
 * it stays put while axe runs.
 *
 * `disableRules`: rules left out, each with its reason at the call site.
 */
export async function axeViolations(
  page: Page,
  { javaScriptEnabled, disableRules = [] }: { javaScriptEnabled: boolean; disableRules?: string[] },
): Promise<string[]> {
  if (javaScriptEnabled) return violationsOf(page, disableRules);
  const dom = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '').replace(/<\/?noscript>/gi, '');
  const url = page.url();
  // NOTE: Playwright Test gives a context made in a test its `use` options, javaScriptEnabled included.
  const context = await page
    .context()
    .browser()!
    .newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
  try {
    const replica = await context.newPage();
    let served = false;
    await replica.route(url, async (route) => {
      if (served || !route.request().isNavigationRequest()) return route.fulfill({ status: 204 });
      served = true;
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: dom });
    });
    await replica.goto(url);
    return await violationsOf(replica, disableRules);
  } finally {
    await context.close();
  }
}

async function violationsOf(page: Page, disableRules: string[]): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).disableRules(disableRules).analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} (${violation.help})`),
  );
}
