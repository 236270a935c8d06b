/**
 * Logging once per change of state: a run of failures is logged when it starts and when
 * it ends, never once per poll or request. One helper for the loops, caches and probes that can
 * fail; the poller's feed failures keep their own (their kind is stored, as lastError, across restarts).
 */

export type FailureLog = {
  /** Records a failure: logs `failing` (with the error, if any) when it starts a run. */
  fail(error?: unknown): void;
  /** Records a success: logs `recovered` when it ends a run of failures. */
  ok(): void;
  /** Runs `read`, recording its success or failure: its answer, or null when it threw. */
  orNull<T>(read: () => T | Promise<T>): Promise<T | null>;
};

/**
 * @param messages.failing logged at `level` (default warn) with the error, once per run.
 * @param messages.recovered logged at info when a run ends.
 */
export function failureLog(
  logger: Pick<Console, 'info' | 'warn' | 'error'>,
  messages: { failing: string; recovered: string; level?: 'warn' | 'error' },
): FailureLog {
  let failing = false;
  const log: FailureLog = {
    fail(error) {
      if (!failing) logger[messages.level ?? 'warn'](messages.failing, ...(error === undefined ? [] : [error]));
      failing = true;
    },
    ok() {
      if (failing) logger.info(messages.recovered);
      failing = false;
    },
    async orNull(read) {
      try {
        const answer = await read();
        log.ok();
        return answer;
      } catch (error) {
        log.fail(error);
        return null;
      }
    },
  };
  return log;
}
