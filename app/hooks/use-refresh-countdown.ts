/** The home screen's refresh countdown, counting (docs/product.md §2.3 Home screen, §4.1 Home, §9). */
import { useEffect, useRef, useState } from 'react';

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
