/**
 * Reads every page view makes (the service notice, the web banner list) are shared: one
 * database read serves everyone who asks within `ttlMs` of it, and the api forgets it after any
 * write it serves (api/app.ts), so an admin's change shows on the next page. With several api
 * instances, another instance's write shows within `ttlMs`.
 */
import type { Clock } from './clock';

export type SharedRead<T> = {
  /** The value read at most `ttlMs` ago (or since the last `forget`), else a new read that everyone asking meanwhile awaits. */
  get(): Promise<T>;
  /** Drops the value: the next `get` reads again. */
  forget(): void;
};

/** @param read the database read; a rejected read is not kept (the next `get` tries again). */
export function sharedRead<T>(read: () => Promise<T>, options: { clock: Clock; ttlMs: number }): SharedRead<T> {
  let kept: { value: Promise<T>; atMs: number } | null = null;
  return {
    get() {
      const nowMs = options.clock.now().getTime();
      if (!kept || nowMs - kept.atMs >= options.ttlMs || nowMs < kept.atMs) {
        const value = read();
        const entry = { value, atMs: nowMs };
        kept = entry;
        value.catch(() => {
          if (kept === entry) kept = null;
        });
      }
      return kept.value;
    },
    forget() {
      kept = null;
    },
  };
}
