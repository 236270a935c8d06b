/**
 * Numbers and calendar days as the Korean copy writes them, free of zod: the pages and the api's
 * e-mails import it at run time. Written out rather than asked of Intl: a page's first Intl call
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

/**
 * A calendar day "yyyy-MM-dd" as Korean copy: "2026년 9월 2일", or "9월 2일" with `withYear` false,
 * as Intl's ko-KR long date writes it.
 */
export function formatKoreanDate(day: string, { withYear = true } = {}): string {
  const [year, month, date] = day.split('-').map(Number);
  return withYear ? `${year}년 ${month}월 ${date}일` : `${month}월 ${date}일`;
}
