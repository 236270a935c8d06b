/**
 * A route's departure history as service days of runs, and the slots learnt from them
 * (docs/predictions.md §How the estimate is made). Seconds of the KST service day (api/time.ts
 * serviceClock: a run after midnight is above 86,400). Pure; no I/O.
 */
import { kstInstant, kstWallClock } from '../../../contract/kst';
import type { ObservedDeparture } from './day-plan';
import { learnSlots, type HistoryDay, type Slot } from './slots';
import { median } from './stats';
import { carriedDay, type ChangeShape } from './changes';

/** Same-day-type days the slots are learnt from, most recent first (4 weeks of weekdays). */
const SLOT_DAYS = 20;
/** Fewer same-day-type days than this → timetable estimate. */
export const MIN_HISTORY_DAYS = 2;
/** Weight of a day relative to the next more recent one in the weighted median. */
const RECENCY_DECAY = 0.8;
/**
 * `fn` remembering its answer per date key. For the KST midnight of a date (tens of microseconds),
 * which a day's plan and a backtest look up thousands of times.
 * NOTE: grows by one entry per distinct date, a few hundred a year.
 */
function perDate<T>(fn: (dateKey: string) => T): (dateKey: string) => T {
  const known = new Map<string, T>();
  return (dateKey) => {
    if (!known.has(dateKey)) known.set(dateKey, fn(dateKey));
    return known.get(dateKey) as T;
  };
}

export const midnightMs = perDate((dateKey) => kstInstant(dateKey, 0).getTime());
/** Day of the week of a KST date, 0 = Sunday. */
export const weekdayOf = perDate((dateKey) => kstWallClock(midnightMs(dateKey)).weekday);

/** Seconds after 00:00 KST of its service date (above 86,400 for a run after midnight). */
function secondOfDay(departure: ObservedDeparture): number {
  return Math.round((departure.departedAt.getTime() - midnightMs(departure.serviceDate)) / 1000);
}

/** One route's runs of a service date: departures (seconds of day, ascending) and their crossroads passages (null: unseen). */
export type DateRuns = Pick<HistoryDay, 'runs' | 'arrivals'>;

/** Departures of one route grouped by service date, in seconds of day, ascending, with their passages. */
export function runsByDate(history: readonly ObservedDeparture[], routeNo: string): Map<string, DateRuns> {
  const byDate = new Map<string, ObservedDeparture[]>();
  for (const departure of history) {
    if (departure.routeNo !== routeNo) continue;
    byDate.set(departure.serviceDate, [...(byDate.get(departure.serviceDate) ?? []), departure]);
  }
  return new Map(
    [...byDate].map(([date, departures]) => {
      const sorted = departures
        .map((d) => ({
          second: secondOfDay(d),
          arrival: d.arrivedAt ? Math.round((d.arrivedAt.getTime() - midnightMs(date)) / 1000) : null,
        }))
        .sort((x, y) => x.second - y.second);
      return [date, { runs: sorted.map((r) => r.second), arrivals: sorted.map((r) => r.arrival) }];
    }),
  );
}

/**
 * The history days the slots are learnt from, of `sameTypeDates` (most recent first): those with at
 * least half the median count of runs (a disrupted day adds nothing), SLOT_DAYS at most, weighted
 * RECENCY_DECAY per day of age. With `carry`, the days before its `since` are learnt as they would
 * have run under the change's shape (changes.ts carriedDay).
 */
export function historyDaysOf(
  byDate: Map<string, DateRuns>,
  sameTypeDates: readonly string[],
  carry: { since: string; shape: ChangeShape } | null = null,
): HistoryDay[] {
  const sameType = sameTypeDates.flatMap((date) => {
    const runs = byDate.get(date);
    return runs ? [{ date, ...runs }] : [];
  });
  const enough = sameType.length ? median(sameType.map(({ runs }) => runs.length)) / 2 : 0;
  return sameType
    .filter(({ runs }) => runs.length >= enough)
    .slice(0, SLOT_DAYS)
    .map(({ date, runs, arrivals }, age): HistoryDay => {
      const day = { runs, arrivals, weight: RECENCY_DECAY ** age, weekday: weekdayOf(date) };
      return carry && date < carry.since ? carriedDay(day, carry.shape) : day;
    });
}

/** The slots learnt from `days` with half their median headway as tolerance, or null with fewer than `minDays` days or no headway. */
export function learntSlotsOf(
  days: readonly HistoryDay[],
  minDays: number,
): { slots: Slot[]; sameRunSec: number } | null {
  const headways = days.flatMap(({ runs }) => runs.slice(1).map((second, i) => second - runs[i]));
  if (days.length < minDays || headways.length === 0) return null;
  const sameRunSec = median(headways) / 2;
  return { slots: learnSlots(days, sameRunSec), sameRunSec };
}
