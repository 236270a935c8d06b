/** The ad price as the pages show it (docs/product.md §9), free of zod so the home's banner can use it. */
import { AD_PRICE_PER_MONTH_WON } from '../../contract/prices';

/** docs/product.md §9: the price of `months` months in won (26,000원 per month). */
export function priceWon(months: number): number {
  return months * AD_PRICE_PER_MONTH_WON;
}

/** A won amount as Korean copy: 52000 → "52,000원". */
export function formatWon(amount: number): string {
  return `${amount.toLocaleString('ko-KR')}원`;
}
