/**
 * Numbers and calendar days as the Korean copy (and the English copy) writes them, free of zod: the
 * pages and the api's e-mails import it at run time. Written out rather than asked of Intl: a page's first Intl call
 * starts ICU, 20–80 ms of a phone's main thread at hydration (ADR 026).
 */

/**
 * A safe integer with its digits grouped by three: 52000 → "52,000", -26000 → "-26,000", as ko-KR's
 * Intl.NumberFormat writes it. Only for integers: a fraction would have its decimals grouped
 * instead ("1234.5,678").
 */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A calendar day "yyyy-MM-dd" as Korean copy, as Intl's ko-KR month and day write it: "9월 2일". */
export function formatKoreanMonthDay(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${month}월 ${date}일`;
}

/** A calendar day "yyyy-MM-dd" as Korean copy, as Intl's ko-KR long date writes it: "2026년 9월 2일". */
export function formatKoreanDate(day: string): string {
  return `${Number(day.slice(0, 4))}년 ${formatKoreanMonthDay(day)}`;
}

/** The English months' short names, as Intl's en-US `month: 'short'` writes them. */
const ENGLISH_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar day "yyyy-MM-dd" as English copy, as Intl's en-US short month and day write it:
 * "Sep 2" (docs/product.md §1 Languages).
 */
export function formatEnglishMonthDay(day: string): string {
  const [, month, date] = day.split('-').map(Number);
  return `${ENGLISH_MONTHS[month - 1]} ${date}`;
}

/** A calendar day "yyyy-MM-dd" as English copy, as Intl's en-US medium date writes it: "Sep 2, 2026". */
export function formatEnglishDate(day: string): string {
  return `${formatEnglishMonthDay(day)}, ${Number(day.slice(0, 4))}`;
}
