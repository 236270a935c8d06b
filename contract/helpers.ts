/**
 * The contract's plain values and helpers, free of zod: the pages import these at run time, and zod (about
 * 14 KB gzipped) stays out of the browser's bundles (the pages' JS budgets in .size-limit.ts). Types come from the
 * schema modules, as type-only imports.
 */
import type { DownRoute, TimeLeftResponse, UpRoute } from './bus';

/** docs/product.md §9: price in won per month. */
export const AD_PRICE_PER_MONTH_WON = 26_000;

/** The routes of the `type` group of a timeLeft answer, in its order; [] when the answer has no such group. */
export function groupRoutes(body: TimeLeftResponse, type: 'up'): UpRoute[];
export function groupRoutes(body: TimeLeftResponse, type: 'down'): DownRoute[];
export function groupRoutes(body: TimeLeftResponse, type: 'up' | 'down'): UpRoute[] | DownRoute[] {
  return body.data.find((group) => group.type === type)?.routes ?? [];
}

/** True for an absolute http: or https: URL: the only links the product opens (banner, admin link-open). */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
