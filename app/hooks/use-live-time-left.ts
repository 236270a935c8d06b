/** The home screen's live bus data: loader data kept fresh through GET /bus/time-left (docs/product.md §4, §9). */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimeLeftResponse } from '../../contract/bus';
import { useRefreshCountdown } from '~/hooks/use-refresh-countdown';
import { TIME_LEFT_PATH } from '~/utils/arrival';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';

/**
 * Starts from the loader's `initial` answer (null when it failed) and refreshes it every
 * REFRESH_INTERVAL_SEC seconds with a plain same-origin fetch of the JSON (the browser revalidates
 * it with If-None-Match: an unchanged answer costs a 304). A failed refresh (offline, the 502, a
 * body that is not the answer) is only logged and the last good answer stays (docs/product.md §7). While
 * `enabled` is false (the service notice covers the page) nothing is fetched; leaving the page
 * aborts a refresh under way.
 * @returns the latest good answer and the seconds left until the next refresh (0 while refreshing).
 */
export function useLiveTimeLeft(
  initial: TimeLeftResponse | null,
  enabled = true,
): {
  timeLeft: TimeLeftResponse | null;
  secondsLeft: number;
} {
  const [timeLeft, setTimeLeft] = useState(initial);
  const leaving = useRef(new AbortController());

  useEffect(() => setTimeLeft(initial), [initial]);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);

  const refresh = useCallback(async () => {
    const { signal } = leaving.current;
    try {
      const response = await fetch(TIME_LEFT_PATH, { signal, headers: { accept: 'application/json' } });
      const body = (await response.json()) as TimeLeftResponse | { message: string };
      if (!response.ok || !('data' in body))
        throw new Error('message' in body ? body.message : `HTTP ${response.status}`);
      if (!signal.aborted) setTimeLeft(body);
    } catch (error) {
      if (!signal.aborted) console.error('[home] bus refresh failed:', error);
    }
  }, []);
  const secondsLeft = useRefreshCountdown(REFRESH_INTERVAL_SEC, refresh, enabled);
  return { timeLeft, secondsLeft };
}
