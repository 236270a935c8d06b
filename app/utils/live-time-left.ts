/** The home screen's live bus data: loader data kept fresh through GET /bus/time-left (spec §4, §9). */
import { useFetcher } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimeLeftResponse } from '../../contract/bus';
import type { clientLoader } from '~/routes/bus.time-left';
import { REFRESH_INTERVAL_SEC, useRefreshCountdown } from '~/utils/countdown';

/** The same-origin resource route the refresh reads (app/routes/bus.time-left.ts). */
const TIME_LEFT_PATH = '/bus/time-left';

/**
 * Starts from the loader's `initial` answer (null when it failed) and refreshes it every
 * REFRESH_INTERVAL_SEC seconds with a fetcher. A failed refresh is only logged and the last good
 * answer stays (spec §7). While `enabled` is false (the service notice covers the page) nothing is fetched.
 * @returns the latest good answer and the seconds left until the next refresh (0 while refreshing).
 */
export function useLiveTimeLeft(
  initial: TimeLeftResponse | null,
  enabled = true,
): {
  timeLeft: TimeLeftResponse | null;
  secondsLeft: number;
} {
  const fetcher = useFetcher<typeof clientLoader>();
  const [timeLeft, setTimeLeft] = useState(initial);
  const settleRefresh = useRef<() => void>();

  useEffect(() => setTimeLeft(initial), [initial]);

  useEffect(() => {
    const answer = fetcher.data;
    if (answer === undefined) return;
    if ('message' in answer) console.error('[home] bus refresh failed:', answer.message);
    else setTimeLeft(answer);
  }, [fetcher.data]);

  // The countdown restarts once the fetcher is idle again: after an answer, or after an abort.
  useEffect(() => {
    if (fetcher.state !== 'idle') return;
    settleRefresh.current?.();
    settleRefresh.current = undefined;
  }, [fetcher.state, fetcher.data]);

  const { load } = fetcher;
  const refresh = useCallback(
    () =>
      new Promise<void>((resolve) => {
        settleRefresh.current = resolve;
        load(TIME_LEFT_PATH);
      }),
    [load],
  );
  const secondsLeft = useRefreshCountdown(REFRESH_INTERVAL_SEC, refresh, enabled);
  return { timeLeft, secondsLeft };
}
