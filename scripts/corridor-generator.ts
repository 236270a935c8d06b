/**
 * A second synthetic departure history, the "corridor" model, whose terminus behaves otherwise
 * than scripts/history-generator.ts's: there a bus leaves at its slot unless the minimum layover
 * holds it back; here a late bus keeps part of its delay, the road from the crossroads to the
 * terminus takes anywhere from about 3 to 15 minutes, and layovers are noisy. Same options, same
 * rows and CSV (historyCsv), seeded the same way (one pure-rand stream of `seed`). Times are
 * minutes of the KST service day unless a name says otherwise.
 *
 * The model, per route of contract ROUTE_NOS and scheduled departure slot S from the terminus:
 * - **Timetables per day type** (api/time.ts dayType: weekday / saturday / holiday): a first
 *   departure 05:20–06:20, a last 22:00–23:30, and between them gaps of the route's headway times
 *   0.75–1.3, whole minutes (history-generator.ts timetable): 8–13 min at weekday peaks (07:00–09:30
 *   and 17:00–19:30), else 15–28 min, × 1.2 on Saturdays and × 1.4 on Sundays and holidays. On a
 *   date between 55 % and 85 % of the history one or two routes get a new weekday timetable from a
 *   time between 10:00 and 15:00 on (headways × 0.8–1.25, shifted 2–5 min).
 * - **Lateness at the campus crossroads** (arrivedAt): the bus is planned there at S − layover −
 *   travel base, and comes L later: a day's traffic factor (log-normal, median 1, σ 0.3, shared by
 *   the routes) × (the route's mean lateness, −1–0.5 min, 1.5–3 min more at weekday peaks, + an
 *   AR(1) over the day's runs, correlation 0.75–0.9 and σ 1–2 min, so that consecutive runs are late
 *   together), + run noise (1–1.8 min × (e^(0.6·N) less its mean), right-skewed, × 1.6 at weekday
 *   peaks), + on 2 % of runs (5 % at weekday peaks) 8–20 min more, + a drift of −0.5–0.5 min per
 *   week per route.
 * - **Travel from the crossroads to the terminus**: the route's base (4–9 min) × a time-of-day
 *   congestion factor (`congestion`, 0.9–1.4) × log-normal noise (median 1, σ 0.3–0.4 per route),
 *   kept within 2–20 min.
 * - **Partial layover recovery**: with δ = (arrival at the terminus) − (S − layover) the delay at
 *   the terminus (layover 6–10 min per route), an early bus (δ ≤ 0) leaves at S + noise, a late one at S + ρ·δ + noise, ρ
 *   0.35–0.75 per route; never before its arrival at the terminus + 1–2 min (per route). That
 *   floor holds back the latest buses, so over all late buses departure delay grows with δ faster
 *   than ρ where ρ and the layover are small.
 * - **Noisy layovers**: the departure noise is normal, σ 45–120 s per route, and on 5 % of runs the
 *   driver takes 2–6 min more.
 * - **Skipped runs**: 3–6 % per route. **Unseen arrivals**: arrivedAt is empty on 8 % of rows,
 *   whatever the lateness.
 * - **Korean public holidays** (api/time.ts publicHolidaysOf, as history-generator.ts) run the
 *   holiday timetable.
 */
import { addServiceDays, dayType } from '../api/time';
import type { DayType } from '../contract/transit';
import { ROUTE_NOS } from '../contract/transit';
import {
  Draws,
  drawTimetableChange,
  isPeak,
  kstIso,
  kstMidnight,
  publicHolidays,
  timetable,
  type GeneratedRow,
  type GeneratorOptions,
} from './history-generator';

/** A route's parameters in the corridor model (minutes unless a name says otherwise). */
export type CorridorRoute = {
  /** Crossroads → terminus before congestion and noise, 4–9 min; the timetable plans this much. */
  travelBaseMin: number;
  /** σ of the travel time's log-normal noise, 0.3–0.4. */
  travelSigma: number;
  /** Planned layover at the terminus before the slot, 6–10 min. */
  layoverMin: number;
  /** ρ: the share of its delay at the terminus that a late bus still has on leaving, 0.35–0.75. */
  recovery: number;
  /** The least time between arrival at the terminus and departure, 1–2 min. */
  minTurnMin: number;
  /** σ of the departure's normal noise, 45–120 s. */
  departureSigmaSec: number;
  /** Mean lateness at the crossroads off-peak, −1–0.5 min, and what weekday peaks add, 1.5–3 min. */
  lateOffPeakMin: number;
  latePeakExtraMin: number;
  /** The day's AR(1) of lateness: correlation of consecutive runs, 0.75–0.9, and its standard deviation, 1–2 min. */
  lateCorrelation: number;
  lateSwingMin: number;
  /** Scale of the run noise, 1–1.8 min (× e^(0.6·N) less its mean). */
  runNoiseMin: number;
  /** Change of the lateness per week, −0.5–0.5 min. */
  driftPerWeekMin: number;
  /** Share of skipped runs, 0.03–0.06. */
  skipRate: number;
};

/** What a row was, in truth: its service date, slot, travel time and delay at the terminus (minutes). */
export type CorridorRun = { serviceDate: string; slotMin: number; travelMin: number; terminusDelayMin: number };

/** What the corridor history holds, for a reader of the generated file (the CLI prints it) and the tests. */
export type CorridorScenario = {
  changeDate: string;
  changedRoutes: string[];
  holidays: string[];
  /** Per routeNo, its parameters. */
  routes: Record<string, CorridorRoute>;
  /** Per routeNo, the planned departures (minutes of the service day) per day type, and the weekday ones from changeDate on. */
  timetables: Record<string, Record<DayType | 'changedWeekday', number[]>>;
  /** runs[i] is the truth behind rows[i]. */
  runs: CorridorRun[];
};

/** Probability a run passes the crossroads unseen (no arrivedAt). */
const UNSEEN_ARRIVAL = 0.08;
/** Probability the driver takes 2–6 min more at the terminus. */
const LONG_LAYOVER = 0.05;
/** σ of the run noise's log-normal, and its mean, subtracted so that the noise centres on 0. */
const RUN_NOISE_SIGMA = 0.6;
const RUN_NOISE_MEAN = Math.exp(RUN_NOISE_SIGMA ** 2 / 2);

/**
 * How much longer than its base the crossroads → terminus road takes at a time of day: weekdays
 * 1.4 at peak, 1.1 from 09:30 to 17:00; Saturdays 1.15 from 11:00 to 19:00; Sundays and holidays
 * 1.05 from 12:00 to 18:00; 0.9 otherwise.
 */
function congestion(kind: DayType, minute: number): number {
  if (kind === 'weekday') {
    if (isPeak(minute)) return 1.4;
    return minute >= 9 * 60 + 30 && minute < 17 * 60 ? 1.1 : 0.9;
  }
  if (kind === 'saturday') return minute >= 11 * 60 && minute < 19 * 60 ? 1.15 : 0.9;
  return minute >= 12 * 60 && minute < 18 * 60 ? 1.05 : 0.9;
}

type RouteModel = {
  routeNo: string;
  params: CorridorRoute;
  timetables: Record<DayType, number[]>;
  /** The weekday timetable from the change date on (equal to the old one for unchanged routes). */
  changedWeekday: number[];
};

function routeModel(draws: Draws, routeNo: string, changed: boolean): RouteModel {
  const peak = draws.between(8, 13);
  const offPeak = draws.between(15, 28);
  const headway = (kind: DayType) => (minute: number) =>
    kind === 'weekday' && isPeak(minute) ? peak : offPeak * (kind === 'saturday' ? 1.2 : kind === 'holiday' ? 1.4 : 1);
  const day = (kind: DayType) =>
    timetable(draws, draws.int(5 * 60 + 20, 6 * 60 + 20), draws.int(22 * 60, 23 * 60 + 30), headway(kind));
  const timetables = { weekday: day('weekday'), saturday: day('saturday'), holiday: day('holiday') };
  let changedWeekday = timetables.weekday;
  if (changed) {
    const { from, scale, shift } = drawTimetableChange(draws);
    // Gaps are at least 6 min, so the shifted first new departure still follows the last kept one.
    const firstNew = timetables.weekday.find((minute) => minute >= from) ?? from;
    changedWeekday = [
      ...timetables.weekday.filter((minute) => minute < from),
      ...timetable(draws, firstNew + shift, timetables.weekday.at(-1)!, (m) => headway('weekday')(m) * scale),
    ];
  }
  return {
    routeNo,
    timetables,
    changedWeekday,
    params: {
      travelBaseMin: draws.between(4, 9),
      travelSigma: draws.between(0.3, 0.4),
      layoverMin: draws.between(6, 10),
      recovery: draws.between(0.35, 0.75),
      minTurnMin: draws.between(1, 2),
      departureSigmaSec: draws.between(45, 120),
      lateOffPeakMin: draws.between(-1, 0.5),
      latePeakExtraMin: draws.between(1.5, 3),
      lateCorrelation: draws.between(0.75, 0.9),
      lateSwingMin: draws.between(1, 2),
      runNoiseMin: draws.between(1, 1.8),
      driftPerWeekMin: draws.between(-0.5, 0.5),
      skipRate: draws.between(0.03, 0.06),
    },
  };
}

/**
 * The corridor history and what it holds. Deterministic: the same options give the same rows.
 * @returns rows ordered by departedAt, and the scenario (the routes' parameters, the timetables, the truth of each row).
 */
export function generateCorridorHistory(options: GeneratorOptions): {
  rows: GeneratedRow[];
  scenario: CorridorScenario;
} {
  const draws = new Draws(options.seed);
  // xoroshiro128plus's first draws hardly depend on a small seed (the first is ≈ 1 for seeds 0–7): drop them.
  for (let i = 0; i < 16; i++) draws.unit();
  const dates = Array.from({ length: options.days }, (_, i) => addServiceDays(options.lastDate, i - options.days + 1));
  const holidays = publicHolidays(dates);

  const changeDate = dates[Math.floor(options.days * draws.between(0.55, 0.85))];
  const changedRoutes = draws.sample(ROUTE_NOS, draws.int(1, 2));
  const routes = ROUTE_NOS.map((routeNo) => routeModel(draws, routeNo, changedRoutes.includes(routeNo)));

  const runs: { ms: number; row: GeneratedRow; run: CorridorRun }[] = [];
  dates.forEach((date, index) => {
    const midnight = kstMidnight(date);
    const kind = dayType(date);
    const traffic = Math.exp(0.3 * draws.normal());
    for (const { routeNo, params, timetables, changedWeekday } of routes) {
      const slots = kind === 'weekday' && date >= changeDate ? changedWeekday : timetables[kind];
      const drift = (params.driftPerWeekMin * index) / 7;
      let swing = draws.normal();
      for (const slot of slots) {
        swing = params.lateCorrelation * swing + Math.sqrt(1 - params.lateCorrelation ** 2) * draws.normal();
        if (draws.chance(params.skipRate)) continue;
        const peak = kind === 'weekday' && isPeak(slot);
        const mean = params.lateOffPeakMin + (peak ? params.latePeakExtraMin : 0) + params.lateSwingMin * swing;
        const noise =
          params.runNoiseMin * (peak ? 1.6 : 1) * (Math.exp(RUN_NOISE_SIGMA * draws.normal()) - RUN_NOISE_MEAN);
        const tail = draws.chance(peak ? 0.05 : 0.02) ? draws.between(8, 20) : 0;
        const arrived = slot - params.layoverMin - params.travelBaseMin + traffic * mean + noise + tail + drift;
        const travelMin = Math.min(
          20,
          Math.max(2, params.travelBaseMin * congestion(kind, slot) * Math.exp(params.travelSigma * draws.normal())),
        );
        const atTerminus = arrived + travelMin;
        const terminusDelayMin = atTerminus - (slot - params.layoverMin);
        const target =
          slot + params.recovery * Math.max(0, terminusDelayMin) + (params.departureSigmaSec / 60) * draws.normal();
        const longer = draws.chance(LONG_LAYOVER) ? draws.between(2, 6) : 0;
        const departed = Math.max(target, atTerminus + params.minTurnMin) + longer;
        const seen = !draws.chance(UNSEEN_ARRIVAL);
        const ms = midnight + departed * 60_000;
        runs.push({
          ms,
          row: { routeNo, departedAt: kstIso(ms), arrivedAt: seen ? kstIso(midnight + arrived * 60_000) : '' },
          run: { serviceDate: date, slotMin: slot, travelMin, terminusDelayMin },
        });
      }
    }
  });
  runs.sort((a, b) => a.ms - b.ms);
  return {
    rows: runs.map(({ row }) => row),
    scenario: {
      changeDate,
      changedRoutes,
      holidays: dates.filter((date) => holidays.has(date)).map((date) => `${date} ${holidays.get(date)}`),
      routes: Object.fromEntries(routes.map(({ routeNo, params }) => [routeNo, params])),
      timetables: Object.fromEntries(
        routes.map(({ routeNo, timetables, changedWeekday }) => [routeNo, { ...timetables, changedWeekday }]),
      ),
      runs: runs.map(({ run }) => run),
    },
  };
}
