/** The ad price (docs/product.md §9.2), free of zod: the pages import it at run time and zod stays out of their bundles. */

/** Price of one ad in won per month. */
export const AD_PRICE_PER_MONTH_WON = 26_000;
