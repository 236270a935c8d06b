/**
 * A synthetic departure history for the backtest, so that the predictions can be measured on
 * histories with known effects: seeded, independent of the demo simulator (api/bus/feed/demo), in
 * the backtest's CSV format (scripts/backtest-csv.ts parseHistoryCsv:
 * routeNo,departedAt[,arrivedAt], ISO 8601 with +09:00).
 *
 * The model, per route of contract ROUTE_NOS (every draw from one pure-rand stream of `seed`):
 * - **Timetables per day type** (weekday / Saturday / Sunday and public holidays): a first and a
 *   last departure, and between them gaps of a peak or off-peak headway times 0.75–1.3, whole
 *   minutes, so the times follow no single headway.
 * - **A timetable change**: on a date between 55 % and 85 % of the history, one to three routes get
 *   a new weekday timetable from a time of day between 10:00 and 15:00 on (new headways, shifted).
 * - **A run**: the bus passes the campus crossroads (arrivedAt) on its way up, drives the up
 *   section to the terminus, and leaves (departedAt) at its slot plus the driver's punctuality
 *   noise, but never before the minimum layover after reaching the terminus. Its up delay is
 *   right-skewed (log-normal) and larger at peak, so **a late bus shortens its layover** and leaves
 *   late, while an early one waits for its slot.
 * - **Drift**: the drivers' punctuality moves slowly, by up to ±0.5 minutes per week per route.
 * - **A weekly disrupted evening**: on one weekday, for 2–3.5 hours from 16:30–18:30, buses of two
 *   to four routes are 4–12 minutes later on their up run, and more runs are skipped.
 * - **Skipped runs**: 3–8 % of runs per route (more on a disrupted evening and on Seollal and
 *   Chuseok), and on about one day in eight **an extra run** is inserted into a wide gap.
 * - **Korean public holidays** (the product's calendar, api/time.ts dayType and publicHolidaysOf:
 *   date-holidays "KR", type public, every day of Seollal and Chuseok and substitute days) run the
 *   holiday timetable; Seollal and Chuseok have heavier traffic.
 * - arrivedAt is missing for 4 % of runs (the poller missed the bus); historyCsv can leave the
 *   column out.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { dayType, publicHolidaysOf } from '../api/time';
import { formatKstDate, formatKstIso, kstInstant, kstWallClock } from '../contract/kst';
import type { DayType } from '../contract/transit';
import { ROUTE_NOS } from '../contract/transit';

export type GeneratorOptions = {
  seed: number;
  /** The last service date of the history, "yyyy-MM-dd" (KST). */
  lastDate: string;
  /** Service days in the history, ending at lastDate. */
  days: number;
};

/** One observed departure: the CSV row, with times as ISO 8601 in KST; arrivedAt '' when the bus went unseen. */
export type GeneratedRow = { routeNo: string; departedAt: string; arrivedAt: string };

/** What the history holds, for a reader of the generated file (the CLI prints it). */
export type GeneratedScenario = {
  changeDate: string;
  changedRoutes: string[];
  disruptedWeekday: string;
  disruptedFromMin: number;
  disruptedToMin: number;
  holidays: string[];
  /** Per routeNo, the planned departures (minutes of the service day) per day type, and the weekday ones from changeDate on. */
  timetables: Record<string, Record<DayType | 'changedWeekday', number[]>>;
};

const DAY_MS = 86_400_000;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Peak windows of weekdays, minutes of the day: 07:00–09:30 and 17:00–19:30. */
const PEAKS = [
  [7 * 60, 9 * 60 + 30],
  [17 * 60, 19 * 60 + 30],
] as const;
/** Probability a run passes the crossroads unseen (no arrivedAt). */
const MISSED_ARRIVAL = 0.04;
/** Probability of an extra run on a route's service day. */
const EXTRA_RUN = 0.125;

/** A seeded source of uniform and normal draws. */
export class Draws {
  private readonly rng: RandomGenerator;
  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }
  /** Uniform in [0, 1). */
  unit(): number {
    return unsafeUniformIntDistribution(0, 2 ** 30 - 1, this.rng) / 2 ** 30;
  }
  between(min: number, max: number): number {
    return min + (max - min) * this.unit();
  }
  int(min: number, max: number): number {
    return unsafeUniformIntDistribution(min, max, this.rng);
  }
  chance(p: number): boolean {
    return this.unit() < p;
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.unit())) * Math.cos(2 * Math.PI * this.unit());
  }
  /** Fisher–Yates sample of `count` distinct items. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, count);
  }
}

/** "yyyy-MM-dd" → milliseconds of that KST date's 00:00. */
export const kstMidnight = (date: string): number => kstInstant(date, 0).getTime();

/** ISO 8601 with +09:00, whole seconds. */
export const kstIso = (ms: number): string => formatKstIso(new Date(Math.round(ms / 1000) * 1000));

/** Public holidays of the years of the dates (api/time.ts publicHolidaysOf): date → name. */
export function publicHolidays(dates: readonly string[]): Map<string, string> {
  const years = [...new Set(dates.map((date) => Number(date.slice(0, 4))))];
  return new Map(years.flatMap((year) => [...publicHolidaysOf(year)]));
}

export const isPeak = (minute: number) => PEAKS.some(([from, to]) => minute >= from && minute < to);

/** Departure minutes from `from` to `last`, gaps of the headway at that time × 0.75–1.3, whole minutes. */
export function timetable(draws: Draws, from: number, last: number, headwayAt: (minute: number) => number): number[] {
  const times: number[] = [];
  for (
    let minute = from;
    minute <= last;
    minute += Math.max(6, Math.round(headwayAt(minute) * draws.between(0.75, 1.3)))
  ) {
    times.push(minute);
  }
  return times;
}

/**
 * A route's timetable change, drawn: the weekday timetable changes `from` a minute of the day
 * (10:00–15:00), its headways × `scale` (0.8–1.25) and its first new departure moved by `shift`
 * minutes (±2–5).
 */
export function drawTimetableChange(draws: Draws): { from: number; scale: number; shift: number } {
  const from = draws.int(10 * 60, 15 * 60);
  const scale = draws.between(0.8, 1.25);
  const shift = draws.int(2, 5) * (draws.chance(0.5) ? 1 : -1);
  return { from, scale, shift };
}

type RouteModel = {
  routeNo: string;
  timetables: Record<DayType, number[]>;
  /** The weekday timetable from the change date on (equal to the old one for unchanged routes). */
  changedWeekday: number[];
  upSectionMin: number;
  minLayoverMin: number;
  slackMin: number;
  peakDelayMin: number;
  offPeakDelayMin: number;
  driftPerWeekMin: number;
  skipRate: number;
  disrupted: boolean;
};

function routeModel(draws: Draws, routeNo: string, changed: boolean): RouteModel {
  const peak = draws.between(8, 14);
  const offPeak = draws.between(15, 30);
  const headway = (kind: DayType) => (minute: number) =>
    kind === 'weekday' && isPeak(minute) ? peak : offPeak * (kind === 'saturday' ? 1.25 : kind === 'holiday' ? 1.5 : 1);
  const day = (kind: DayType) => {
    const first = draws.int(5 * 60 + 10, 6 * 60 + 10);
    return timetable(draws, first, draws.int(22 * 60, 23 * 60 + 40), headway(kind));
  };
  const timetables = { weekday: day('weekday'), saturday: day('saturday'), holiday: day('holiday') };
  let changedWeekday = timetables.weekday;
  if (changed) {
    const { from, scale, shift } = drawTimetableChange(draws);
    const kept = timetables.weekday.filter((minute) => minute < from);
    const start = (kept.at(-1) ?? from) + Math.round(offPeak * scale) + shift;
    changedWeekday = [
      ...kept,
      ...timetable(draws, start, timetables.weekday.at(-1)!, (m) => headway('weekday')(m) * scale),
    ];
  }
  return {
    routeNo,
    timetables,
    changedWeekday,
    upSectionMin: draws.between(5, 9),
    minLayoverMin: draws.between(2, 4),
    slackMin: draws.between(3, 7),
    peakDelayMin: draws.between(4, 7),
    offPeakDelayMin: draws.between(1.5, 3),
    driftPerWeekMin: draws.between(-0.5, 0.5),
    skipRate: draws.between(0.03, 0.08),
    disrupted: false,
  };
}

/**
 * The history and what it holds. Deterministic: the same options give the same rows.
 * @returns rows ordered by departedAt, and the scenario (the change date, the disrupted evening, the holidays).
 */
export function generateHistory(options: GeneratorOptions): { rows: GeneratedRow[]; scenario: GeneratedScenario } {
  const draws = new Draws(options.seed);
  const lastMidnight = kstMidnight(options.lastDate);
  const dates = Array.from({ length: options.days }, (_, i) =>
    formatKstDate(new Date(lastMidnight - (options.days - 1 - i) * DAY_MS)),
  );
  const holidays = publicHolidays(dates);

  const changeDate = dates[Math.floor(options.days * draws.between(0.55, 0.85))];
  const changedRoutes = draws.sample(ROUTE_NOS, draws.int(1, 3));
  const routes = ROUTE_NOS.map((routeNo) => routeModel(draws, routeNo, changedRoutes.includes(routeNo)));
  for (const route of draws.sample(routes, draws.int(2, 4))) route.disrupted = true;
  const disruptedWeekday = draws.int(1, 5);
  const disruptedFromMin = draws.int(16 * 60 + 30, 18 * 60 + 30);
  const disruptedToMin = disruptedFromMin + draws.int(120, 210);
  const disruptionMin = draws.between(4, 12);

  const rows: { ms: number; row: GeneratedRow }[] = [];
  dates.forEach((date, index) => {
    const midnight = kstMidnight(date);
    const { weekday } = kstWallClock(midnight);
    const holiday = holidays.get(date);
    const kind = dayType(date);
    const festival = holiday !== undefined && /설날|추석/.test(holiday);
    for (const route of routes) {
      const slots = kind === 'weekday' && date >= changeDate ? route.changedWeekday : route.timetables[kind];
      const planned = [...slots];
      if (draws.chance(EXTRA_RUN)) {
        const gaps = planned.slice(1).map((minute, i) => ({ at: planned[i], gap: minute - planned[i] }));
        const wide = gaps.filter(({ gap }) => gap >= 20);
        if (wide.length) {
          const { at, gap } = wide[draws.int(0, wide.length - 1)];
          planned.push(at + Math.round(gap * draws.between(0.4, 0.6)));
          planned.sort((a, b) => a - b);
        }
      }
      const drift = (route.driftPerWeekMin * index) / 7;
      for (const slot of planned) {
        const disrupted =
          route.disrupted &&
          kind === 'weekday' &&
          weekday === disruptedWeekday &&
          slot >= disruptedFromMin &&
          slot < disruptedToMin;
        const skip = route.skipRate + (disrupted ? 0.1 : 0) + (festival ? 0.15 : 0);
        if (draws.chance(skip)) continue;
        const median =
          (kind === 'weekday' && isPeak(slot) ? route.peakDelayMin : route.offPeakDelayMin) * (festival ? 1.5 : 1);
        // Log-normal up delay around its median, minus a part so that some buses come early.
        const upDelay = median * Math.exp(0.6 * draws.normal()) - median * 0.6 + (disrupted ? disruptionMin : 0);
        const scheduledAtCrossroads = slot - route.slackMin - route.minLayoverMin - route.upSectionMin;
        const arrived = scheduledAtCrossroads + upDelay;
        const atTerminus = arrived + route.upSectionMin * draws.between(0.9, 1.2);
        const punctuality = Math.max(-1.5, 0.2 + 0.6 * draws.normal()) + drift;
        const departed = Math.max(slot + punctuality, atTerminus + route.minLayoverMin);
        const seen = !draws.chance(MISSED_ARRIVAL);
        const ms = midnight + departed * 60_000;
        rows.push({
          ms,
          row: {
            routeNo: route.routeNo,
            departedAt: kstIso(ms),
            arrivedAt: seen ? kstIso(midnight + arrived * 60_000) : '',
          },
        });
      }
    }
  });
  rows.sort((a, b) => a.ms - b.ms);
  return {
    rows: rows.map(({ row }) => row),
    scenario: {
      changeDate,
      changedRoutes,
      disruptedWeekday: WEEKDAY_NAMES[disruptedWeekday],
      disruptedFromMin,
      disruptedToMin,
      holidays: dates.filter((date) => holidays.has(date)).map((date) => `${date} ${holidays.get(date)}`),
      timetables: Object.fromEntries(
        routes.map(({ routeNo, timetables, changedWeekday }) => [routeNo, { ...timetables, changedWeekday }]),
      ),
    },
  };
}

/** The rows as the backtest's CSV: a header, then one line per row (without arrivedAt when `arrivals` is off). */
export function historyCsv(rows: readonly GeneratedRow[], arrivals: boolean): string {
  const lines = rows.map(({ routeNo, departedAt, arrivedAt }) =>
    arrivals ? `${routeNo},${departedAt},${arrivedAt}` : `${routeNo},${departedAt}`,
  );
  return [arrivals ? 'routeNo,departedAt,arrivedAt' : 'routeNo,departedAt', ...lines].join('\n') + '\n';
}
