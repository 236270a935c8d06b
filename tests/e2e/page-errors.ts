import type { Page } from '@playwright/test';

/**
 * The errors `page` reports from now on, as they come: console errors (a CSP violation is one) and
 * uncaught errors (a hydration that fails reports one).
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
