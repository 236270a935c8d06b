/** Every clock in the api is injected so tests can fix "now" (ARCHITECTURE.md, Time). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock that starts at `start` and then runs in real time. Used when `CLOCK_START` is set, so a
 * demo or an end-to-end test sees the same hour of the day whenever it runs.
 */
export function offsetClock(start: Date, base: Clock = systemClock): Clock {
  const offsetMs = start.getTime() - base.now().getTime();
  return { now: () => new Date(base.now().getTime() + offsetMs) };
}
