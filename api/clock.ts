/** Every clock in the api is injected so tests can fix "now" (docs/product.md §9.1: business time is KST). */
export type Clock = {
  now(): Date;
  /**
   * Runs `callback` once `ms` milliseconds of this clock's time have passed (a real timer on the
   * system clock; on a test clock, when the test advances it past that point).
   * @returns the function that cancels it.
   */
  after(ms: number, callback: () => void): () => void;
};

function realTimer(ms: number, callback: () => void): () => void {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
}

export const systemClock: Clock = { now: () => new Date(), after: realTimer };

/**
 * A clock that starts at `start` and then runs in real time. Used when `CLOCK_START` is set, so a
 * demo or an end-to-end test sees the same hour of the day whenever it runs.
 */
export function offsetClock(start: Date, base: Clock = systemClock): Clock {
  const offsetMs = start.getTime() - base.now().getTime();
  return { now: () => new Date(base.now().getTime() + offsetMs), after: base.after };
}
