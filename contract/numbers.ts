/** Numbers as the Korean copy writes them, free of zod: the pages import it at run time. */

/**
 * A whole number with its digits grouped by three: 52000 → "52,000", as ko-KR's Intl.NumberFormat
 * writes it. Written out rather than asked of Intl: a page's first Intl call starts ICU, 20–80 ms of
 * a phone's main thread at hydration (ADR 026). Only for integers (a fraction's digits would be
 * grouped too).
 */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
}
