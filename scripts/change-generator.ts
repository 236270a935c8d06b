/**
 * A third synthetic departure history, the "changes" model: routes whose timetables change on one
 * date, in the ways bus companies change them, to test that the predictions follow a change
 * (docs/predictions.md §Following a changed timetable). Seeded (Draws of history-generator.ts);
 * rows and CSV as history-generator.ts's (historyCsv). Times are minutes of the KST service day
 * unless a name says otherwise.
 *
 * The model, per route of contract ROUTE_NOS:
 * - **A fixed timetable per day type** (api/time.ts dayType, Korean public holidays included): the
 *   first departure 05:30–06:10, the last 22:30–23:30, and between them the route's headway, whole
 *   minutes: a peak one (07:00–09:30 and 17:00–19:30 on weekdays) and an off-peak one, drawn per
 *   route (peak 9–14, off-peak 16–30 min), × 1.25 on Saturdays and × 1.45 on Sundays and holidays.
 *   The same every week: an operator's timetable, not a drawn one each day.
 * - **Departures**: the slot + the route's day offset (normal, σ 40 s, per day) + run noise
 *   (normal, σ 50–90 s per route), + 3–9 min on 4 % of runs; 3 % of runs skipped.
 * - **arrivedAt**: the departure less the route's turnaround (11–17 min) + noise (normal, σ 90 s);
 *   empty on 6 % of rows.
 * - **The change** (ChangeKind), on `changeDate` and after, per route as the scenario says:
 *   - `more`: every headway × 0.7 (more service);
 *   - `less`: every headway × 1.4 (less service);
 *   - `offPeakMore`: the headways outside the weekday peaks × 0.75;
 *   - `laterAndLess`: the first departure 25 min later and every headway × 1.3;
 *   - `shifted`: the whole day 30 min later, the last departure too;
 *   - `firstLater`: the first departure 35 min later, the rest of the day shifted by 7 min;
 *   - `suspended`: no departure for 4 days from the change, then the old timetable again;
 *   - `vacation`: weekdays only, the first departure 20 min later and headways × 1.5; Saturdays,
 *     Sundays and holidays unchanged;
 *   - `none`: unchanged.
 */
import { addServiceDays, dayType } from '../api/time';
import { ROUTE_NOS, type DayType } from '../contract/transit';
import { Draws, isPeak, kstIso, kstMidnight, type GeneratedRow } from './history-generator';

export const CHANGE_KINDS = [
  'more',
  'less',
  'offPeakMore',
  'laterAndLess',
  'firstLater',
  'shifted',
  'suspended',
  'vacation',
  'none',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export type ChangeOptions = {
  seed: number;
  /** The last service date of the history, "yyyy-MM-dd" (KST). */
  lastDate: string;
  /** Service days in the history, ending at lastDate. */
  days: number;
  /** The first service date of the new timetables. */
  changeDate: string;
  /** Per routeNo (ROUTE_NOS), its change; a route not named is unchanged. */
  changes: Partial<Record<string, ChangeKind>>;
};

/** Days without any departure of a suspended route, from the change on. */
export const SUSPENDED_DAYS = 4;
const DAY_FACTOR: Record<DayType, number> = { weekday: 1, saturday: 1.25, holiday: 1.45 };

/** A route's drawn parameters. */
type RouteModel = {
  first: number;
  last: number;
  peakHeadway: number;
  offPeakHeadway: number;
  runSigmaSec: number;
  turnaroundMin: number;
};

/** Departure minutes of a timetable: `first`, then every headway (at that minute) until `last`. */
function slots(first: number, last: number, headwayAt: (minute: number) => number): number[] {
  const times: number[] = [];
  for (let minute = first; minute <= last; minute += Math.max(5, Math.round(headwayAt(minute)))) times.push(minute);
  return times;
}

/** The route's slots on a day of `type`, under `kind` when the day is on or after the change (`changed`). */
function slotsOf(route: RouteModel, type: DayType, kind: ChangeKind, changed: boolean): number[] {
  const headway = (minute: number) =>
    (type === 'weekday' && isPeak(minute) ? route.peakHeadway : route.offPeakHeadway) * DAY_FACTOR[type];
  if (!changed) return slots(route.first, route.last, headway);
  switch (kind) {
    case 'more':
      return slots(route.first, route.last, (minute) => headway(minute) * 0.7);
    case 'less':
      return slots(route.first, route.last, (minute) => headway(minute) * 1.4);
    case 'offPeakMore':
      return slots(route.first, route.last, (minute) =>
        type === 'weekday' && isPeak(minute) ? headway(minute) : headway(minute) * 0.75,
      );
    case 'laterAndLess':
      return slots(route.first + 25, route.last, (minute) => headway(minute) * 1.3);
    case 'shifted':
      return slots(route.first + 30, route.last + 30, headway);
    case 'firstLater':
      return [
        route.first + 35,
        ...slots(route.first, route.last, headway)
          .map((m) => m + 7)
          .filter((m) => m > route.first + 40),
      ];
    case 'vacation':
      return type === 'weekday'
        ? slots(route.first + 20, route.last, (minute) => headway(minute) * 1.5)
        : slots(route.first, route.last, headway);
    default:
      return slots(route.first, route.last, headway);
  }
}

/**
 * The history: rows of every route's departures over `days` service days ending at `lastDate`,
 * in date then route then time order, the routes changing on `changeDate` as `changes` says.
 */
export function generateChangeHistory(options: ChangeOptions): GeneratedRow[] {
  const draws = new Draws(options.seed);
  // One stream per route, so that one route's change leaves the others' departures as they were.
  const streams = ROUTE_NOS.map((_, r) => new Draws(options.seed * 7919 + r + 1));
  const routes = ROUTE_NOS.map((): RouteModel => ({
    first: draws.int(5 * 60 + 30, 6 * 60 + 10),
    last: draws.int(22 * 60 + 30, 23 * 60 + 30),
    peakHeadway: draws.int(9, 14),
    offPeakHeadway: draws.int(16, 30),
    runSigmaSec: draws.between(50, 90),
    turnaroundMin: draws.between(11, 17),
  }));
  const rows: GeneratedRow[] = [];
  for (let day = options.days - 1; day >= 0; day--) {
    const date = addServiceDays(options.lastDate, -day);
    const type = dayType(date);
    const changed = date >= options.changeDate;
    ROUTE_NOS.forEach((routeNo, r) => {
      const kind = options.changes[routeNo] ?? 'none';
      const route = routes[r];
      const draws = streams[r];
      const dayOffsetSec = draws.normal() * 40;
      const suspended = kind === 'suspended' && changed && date < addServiceDays(options.changeDate, SUSPENDED_DAYS);
      for (const minute of slotsOf(route, type, kind, changed)) {
        const late = draws.chance(0.04) ? draws.between(3, 9) * 60 : 0;
        const noiseSec = draws.normal() * route.runSigmaSec;
        const skipped = draws.chance(0.03);
        const turnaroundSec = route.turnaroundMin * 60 + draws.normal() * 90;
        const unseen = draws.chance(0.06);
        if (suspended || skipped) continue;
        const departedMs = kstMidnight(date) + (minute * 60 + dayOffsetSec + noiseSec + late) * 1000;
        rows.push({
          routeNo,
          departedAt: kstIso(departedMs),
          arrivedAt: unseen ? '' : kstIso(departedMs - turnaroundSec * 1000),
        });
      }
    });
  }
  return rows;
}
