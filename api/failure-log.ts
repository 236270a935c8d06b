/**
 * Logging once per change of state (style.md): a run of failures is logged when it starts and when
 * it ends, never once per poll or request. One helper for every loop and cache that can fail.
 */
import type { Logger } from './logger';

export type FailureLog = {
  /** Whether the last outcome was a failure. */
  readonly failing: boolean;
  /** Records a failure: logs `failing` (with the error) when the run starts, or when `kind` changes. */
  fail(error: unknown, kind?: string): void;
  /** Records a success: logs `recovered` when it ends a run of failures. */
  ok(): void;
};

/**
 * @param messages.failing logged at `level` (default warn) with the error, once per run (or per new kind).
 * @param messages.recovered logged at info when a run ends.
 */
export function failureLog(
  logger: Logger,
  messages: { failing: string; recovered: string; level?: 'warn' | 'error' },
): FailureLog {
  let failingKind: string | null = null;
  return {
    get failing() {
      return failingKind !== null;
    },
    fail(error, kind = '') {
      if (failingKind !== kind) logger[messages.level ?? 'warn'](messages.failing, error);
      failingKind = kind;
    },
    ok() {
      if (failingKind !== null) logger.info(messages.recovered);
      failingKind = null;
    },
  };
}
