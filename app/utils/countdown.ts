/** The home screen's refresh countdown (docs/product.md §2.3 Home screen, §4.1 Home, §9). */
import { useEffect, useRef, useState } from 'react';

/** docs/product.md §4/§9: the home data refreshes every 4 seconds (the usage guide's 5 seconds is the older reading). */
export const REFRESH_INTERVAL_SEC = 4;

/** The home's URL parameter that stops its no-JavaScript meta refresh when set to `off` (WCAG 2.2.1). */
export const NOSCRIPT_REFRESH_PARAM = 'refresh';

/** Whether the home's `<noscript>` meta refresh is on for these URL parameters (on unless `refresh=off`). */
export function noscriptRefreshOn(searchParams: URLSearchParams): boolean {
  return searchParams.get(NOSCRIPT_REFRESH_PARAM) !== 'off';
}

/** docs/product.md §2: what the countdown shows at 0 seconds or below. */
export const REFRESHING_TEXT = '새로고침 중...';

/** Seconds as "mm:ss" (docs/product.md §2), rounded up to the whole second; negative values show "00:00". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}

/**
 * Counts down from `intervalSec` once a second. At 0 it calls `onRefresh` and starts again from
 * `intervalSec` once the returned promise settles (a rejection is only logged, docs/product.md §7). The count
 * pauses while the tab is hidden; when the tab becomes visible again it refreshes at once. While
 * `enabled` is false (the home's service notice covers the page) it neither counts nor refreshes.
 * @returns seconds left until the next refresh; 0 while a refresh is running.
 */
export function useRefreshCountdown(intervalSec: number, onRefresh: () => Promise<unknown>, enabled = true): number {
  const [secondsLeft, setSecondsLeft] = useState(intervalSec);
  const [visible, setVisible] = useState(true);
  const onRefreshRef = useRef(onRefresh);
  useEffect(() => {
    onRefreshRef.current = onRefresh;
  });

  useEffect(() => {
    const isVisible = () => document.visibilityState === 'visible';
    const onChange = () => {
      setVisible(isVisible());
      if (isVisible()) setSecondsLeft(0);
    };
    setVisible(isVisible());
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  const due = secondsLeft <= 0;
  useEffect(() => {
    if (due || !visible || !enabled) return;
    const timer = setInterval(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearInterval(timer);
  }, [due, visible, enabled]);

  useEffect(() => {
    if (!due || !enabled) return;
    let active = true;
    Promise.resolve()
      .then(() => onRefreshRef.current())
      .catch((error: unknown) => console.error('[refresh] failed:', error))
      .finally(() => {
        if (active) setSecondsLeft(intervalSec);
      });
    return () => {
      active = false;
    };
  }, [due, intervalSec, enabled]);

  return secondsLeft;
}
