/**
 * The home screen's refresh countdown (docs/product.md §2.3 Home screen, §4.1 Home, §9): its interval,
 * its text, and the no-JavaScript refresh switch. The hook that counts is app/hooks/use-refresh-countdown.ts.
 */

/** docs/product.md §4/§9: the home data refreshes every 4 seconds (the usage guide's 5 seconds is the older reading). */
export const REFRESH_INTERVAL_SEC = 4;

/** The home's URL parameter that stops its no-JavaScript meta refresh when set to `off` (WCAG 2.2.1). */
export const NOSCRIPT_REFRESH_PARAM = 'refresh';

/** Whether the home's `<noscript>` meta refresh is on for these URL parameters (on unless `refresh=off`). */
export function noscriptRefreshOn(searchParams: URLSearchParams): boolean {
  return searchParams.get(NOSCRIPT_REFRESH_PARAM) !== 'off';
}

/** Seconds as "mm:ss" (docs/product.md §2), rounded up to the whole second; negative values show "00:00". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}
