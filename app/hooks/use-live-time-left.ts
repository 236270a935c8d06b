/** The home screen's live bus data: loader data kept fresh through GET /bus/time-left (docs/product.md §4, §9). */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimeLeftResponse } from '../../contract/bus';
import { useRefreshCountdown } from '~/hooks/use-refresh-countdown';
import { TIME_LEFT_PATH } from '~/utils/arrival';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';

/** A refresh unanswered after this long (ms) has failed (docs/product.md §9's call timeout). */
export const REFRESH_TIMEOUT_MS = 5_000;
/**
 * After this many refreshes failed in a row the page says its data is old (connectionLost): with
 * REFRESH_INTERVAL_SEC and REFRESH_TIMEOUT_MS, within 18 s of the connection going.
 */
export const FAILURES_BEFORE_LOST = 2;

/** The last good answer as the phone received it: when (the phone's clock, ms) and how old its data was then. */
type Received = { atMs: number; ageSec: number };

/** `answer` as received now (an answer without its feed's age counts as fresh). */
const receivedNow = (answer: TimeLeftResponse | null): Received => ({
  atMs: Date.now(),
  ageSec: answer?.feed?.ageSec ?? 0,
});

/**
 * Starts from the loader's `initial` answer (null when it failed) and refreshes it every
 * REFRESH_INTERVAL_SEC seconds with a plain same-origin fetch of the JSON (the browser revalidates
 * it with If-None-Match: an unchanged answer costs a 304). A failed refresh (offline, no answer
 * within REFRESH_TIMEOUT_MS, the 502, a body that is not the answer) is logged and the last good
 * answer stays; once FAILURES_BEFORE_LOST have failed in a row, `lostAgeSec` says how old that
 * answer's data is now (its feed's age when received, plus the time since, on the phone's own clock:
 * the api's may run elsewhere), so the page stops passing it off as live (docs/product.md §2.3 Data
 * states). While `enabled` is false (the service notice covers the page) nothing is fetched;
 * leaving the page aborts a refresh under way.
 * @returns the latest good answer, the seconds left until the next refresh (0 while refreshing),
 *   and `lostAgeSec`: null while the refreshes work, else the age in seconds of what is shown.
 */
export function useLiveTimeLeft(
  initial: TimeLeftResponse | null,
  enabled = true,
): {
  timeLeft: TimeLeftResponse | null;
  secondsLeft: number;
  lostAgeSec: number | null;
} {
  const [timeLeft, setTimeLeft] = useState(initial);
  const [failures, setFailures] = useState(0);
  const received = useRef<Received | null>(null);
  const leaving = useRef(new AbortController());

  useEffect(() => {
    setTimeLeft(initial);
    setFailures(0);
    received.current = receivedNow(initial);
  }, [initial]);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);

  const refresh = useCallback(async () => {
    const left = leaving.current.signal;
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    left.addEventListener('abort', abort);
    const timer = setTimeout(abort, REFRESH_TIMEOUT_MS);
    try {
      const response = await fetch(TIME_LEFT_PATH, { signal: attempt.signal, headers: { accept: 'application/json' } });
      const body = (await response.json()) as TimeLeftResponse | { message: string };
      if (!response.ok || !('data' in body))
        throw new Error('message' in body ? body.message : `HTTP ${response.status}`);
      if (left.aborted) return;
      received.current = receivedNow(body);
      setTimeLeft(body);
      setFailures(0);
    } catch (error) {
      if (left.aborted) return;
      console.error('[home] bus refresh failed:', error);
      setFailures((count) => count + 1);
    } finally {
      clearTimeout(timer);
      left.removeEventListener('abort', abort);
    }
  }, []);
  const secondsLeft = useRefreshCountdown(REFRESH_INTERVAL_SEC, refresh, enabled);
  // Read on every render: the countdown renders once a second, so the age keeps up.
  const last = received.current;
  const lostAgeSec =
    failures >= FAILURES_BEFORE_LOST && last && timeLeft ? last.ageSec + (Date.now() - last.atMs) / 1000 : null;
  return { timeLeft, secondsLeft, lostAgeSec };
}
