/**
 * Reads every page view makes (the service notice, the web banner list) are shared: one
 * database read serves everyone who asks within `ttlMs` of it, and the api forgets it after any
 * write it serves (api/app.ts), so an admin's change shows on the next page. Past `ttlMs`, and
 * for STALE_TTLS times as long again, the value read last is still served while the next read is
 * under way (stale-while-revalidate, as the chatbot's ad list: api/skill/ads.ts): a page does not
 * wait for the database, which a long transaction may hold for a second (PGlite has one
 * connection: the demo back-fill), except for the first read, the one after a `forget`, and one
 * after a long quiet spell. With several api instances, another instance's write shows within
 * `ttlMs` and one read.
 */
import type { Clock } from './clock';

/** How many `ttlMs` past its own a value read may still be served while the next read runs. */
export const STALE_TTLS = 10;

export type SharedRead<T> = {
  /**
   * The value read at most `ttlMs` ago (or since the last `forget`); past that, the last value read
   * (if it is at most STALE_TTLS × `ttlMs` older) while a new read runs in the background; else the
   * new read, which everyone asking meanwhile awaits.
   */
  get(): Promise<T>;
  /** Drops the value: the next `get` reads again and waits for it. */
  forget(): void;
};

/**
 * @param read the database read; a rejected read is not kept (the next `get` tries again), and
 *   rejects only those who wait for it (no earlier value to serve).
 */
export function sharedRead<T>(read: () => Promise<T>, options: { clock: Clock; ttlMs: number }): SharedRead<T> {
  let kept: { value: Promise<T>; atMs: number; settled: boolean } | null = null;
  /** The value of the last read that succeeded and when that read began, until a `forget`. */
  let last: { value: T; atMs: number } | null = null;
  return {
    get() {
      const nowMs = options.clock.now().getTime();
      if (!kept || nowMs - kept.atMs >= options.ttlMs || nowMs < kept.atMs) {
        const entry = { value: read(), atMs: nowMs, settled: false };
        kept = entry;
        entry.value.then(
          (value) => {
            entry.settled = true;
            if (kept === entry) last = { value, atMs: entry.atMs };
          },
          () => {
            if (kept === entry) kept = null;
          },
        );
      }
      const servable = last && nowMs - last.atMs < options.ttlMs * (1 + STALE_TTLS) ? last : null;
      return kept.settled || !servable ? kept.value : Promise.resolve(servable.value);
    },
    forget() {
      kept = null;
      last = null;
    },
  };
}
