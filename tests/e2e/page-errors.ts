import type { Page } from '@playwright/test';

/**
 * The errors and warnings `page` reports from now on, as they come: console errors (a CSP violation
 * is one) and warnings (a modulepreload link without href is one), and uncaught errors (a hydration
 * that fails reports one). A page's console stays clean.
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
