/**
 * The ad price (docs/product.md §9.2) and how copy writes it, free of zod: the pages and the api's
 * e-mails import it at run time, and zod stays out of the pages' bundles.
 */

import { formatCount } from './korean-format';

/** Price of one ad in won per month. */
export const AD_PRICE_PER_MONTH_WON = 26_000;

/** docs/product.md §9: the price of `months` months in won (26,000원 per month). */
export function priceWon(months: number): number {
  return months * AD_PRICE_PER_MONTH_WON;
}

/** A won amount as Korean copy: 52000 → "52,000원". */
export function formatWon(amount: number): string {
  return `${formatCount(amount)}원`;
}
