/**
 * Live evidence on a route's day plan, applied per request: the buses seen coming to the campus
 * crossroads today take their runs (slots) of the plan, and each estimate gets the spread of its
 * departure given what is known at `now` (terminus.ts), its 80 % range and, near now, its
 * rider-safe point (spread.ts). Pure apart from its memos (per plan: its runs and last match). The reasoning: docs/predictions.md §How the estimate is made.
 */
import type { Estimate, RouteDayPlan } from './day-plan';
import {
  ETA_BUCKETS,
  quantileOf,
  RANGE_QUANTILES,
  rangeHolding,
  rangeOf,
  recalibrated,
  riderSafeAt,
  spreadOf,
  type Calibration,
} from './spread';
import type { Weighted } from './spread';
import { densityOf, deviationsGiven, latenessShareAtLeast, PREVIOUS_RUN_SEC } from './terminus';

/** How long past its range's end a bus not seen leaving still counts as waiting. */
const LIVE_GRACE_SEC = 2 * 60;
/** A passage is matched to runs whose usual passage is at most this far from it (seconds). */
const CANDIDATE_SEC = 60 * 60;
/**
 * A passage whose best run has a lateness density (per second) below this is an extra run: no
 * slot explains it.
 */
const EXTRA_RUN_DENSITY = 1e-6;
/**
 * The deviation density's unit (seconds): a departure's likelihood is taken per this much, so that
 * a departure where its run's usually are weighs about 1.
 */
const DEVIATION_SCALE_SEC = 60;
/** A bus's spread mixes its matched run and the runs up to this many either side (by usual passage). */
const MIXED_RUNS = 2;
/** Runs less likely than this share are left out of a bus's mixed spread. */
const MIN_RUN_SHARE = 0.05;
/**
 * A run due at the crossroads and not seen is dropped once it is more than this many times as likely
 * gone as still to come. Not even odds: a run dropped that then comes is wrong for every query until
 * it leaves; on both test beds 4 scored best (ETA +0.1–1.0 points, MAE 7–29 s less than at 1).
 */
const GONE_ODDS = 4;
/** Estimates within this lead (seconds) get their point per request: the ETA windows' reach; later ones keep the plan's. */
const NEAR_SEC = ETA_BUCKETS[ETA_BUCKETS.length - 1].toSec;

/**
 * A run of the route seen coming to the campus terminus today: `at`, when it passes (or passed)
 * the campus crossroads; `leftAt`, when it left the terminus, known only once it is seen leaving
 * (on the down line, at a location read after the departure), else null.
 */
export type CrossroadsPassage = { at: Date; leftAt: Date | null };

type Terminus = NonNullable<RouteDayPlan['terminus']>;

/** A history estimate's usual passage at the crossroads on the plan's date (epoch ms), or null. */
function usualPassageMs(estimate: Estimate, terminus: Terminus): number | null {
  if (estimate.slot === undefined) return null;
  const usual = terminus.usualArrivals[estimate.slot];
  return usual === null ? null : terminus.midnightMs + (usual + terminus.effects[estimate.slot]) * 1000;
}

/** An estimate's second of the plan's service day. */
const secondOf = (estimate: Estimate, terminus: Terminus) => (estimate.at.getTime() - terminus.midnightMs) / 1000;

/** A spread of deviations (seconds from `estimate`) as instants (epoch ms). */
const spreadFrom = (estimate: Estimate, deviations: readonly Weighted[]): Weighted[] =>
  deviations.map((d) => ({ value: estimate.at.getTime() + d.value * 1000, weight: d.weight }));

/** The weight of `spread`, and of its part at or after `ms`. */
function massAfter(spread: readonly Weighted[], ms: number): { total: number; after: number } {
  let total = 0;
  let after = 0;
  for (const point of spread) {
    total += point.weight;
    if (point.value >= ms) after += point.weight;
  }
  return { total, after };
}

/** `spread`'s points scaled to total `weight`. */
function scaled(spread: readonly Weighted[], weight: number): Weighted[] {
  const total = spread.reduce((sum, p) => sum + p.weight, 0);
  return total ? spread.map((p) => ({ value: p.value, weight: (p.weight * weight) / total })) : [];
}

/**
 * The estimate as told at `nowMs`: its spread after now (kept as learnt, for the backtest's
 * calibration); its point from that spread, within NEAR_SEC the rider-safe one, else the median;
 * and its 80 % range from that spread recalibrated by `calibration` (when given). The point is not
 * recalibrated: on both test beds the rider-safe point of the spread as learnt scored as well or
 * better (docs/predictions.md §The range and the rider-safe time). A spread wholly before now: now,
 * without a range.
 */
function told(
  estimate: Estimate,
  spread: readonly Weighted[],
  nowMs: number,
  calibration: Calibration | null,
): Estimate {
  const ahead = spread.filter((p) => p.value >= nowMs);
  if (ahead.length === 0) return { at: new Date(nowMs), basis: estimate.basis };
  const near = quantileOf(ahead, RANGE_QUANTILES.lower) <= nowMs + NEAR_SEC * 1000;
  const atMs = near ? riderSafeAt(ahead, nowMs) : quantileOf(ahead, 0.5);
  const { lowerMs, upperMs } = rangeHolding(calibration ? recalibrated(ahead, calibration) : ahead, atMs);
  return { ...estimate, at: new Date(atMs), spread: ahead, lowerAt: new Date(lowerMs), upperAt: new Date(upperMs) };
}

/**
 * The plan's estimates with `passages` (the route's runs seen at the campus crossroads this service
 * day, up to `now`, any order) applied, as told at `now`:
 * - each bus, in passage order, takes the run whose usual passage best explains it (the density of
 *   its lateness, times the chance of each earlier run passed over having gone missing), or none
 *   (an extra run); not seen leaving, it is a 'live' estimate whose spread is the departures that
 *   followed such a lateness (terminus.ts deviationsGiven), until LIVE_GRACE_SEC past that
 *   spread's range;
 * - a run not seen yet: its slot's departures, or, the first after a bus seen today, those that
 *   followed the previous run's lateness; with `watchingSince` (every bus seen since then, or null
 *   when unknown), a run due at the crossroads but not seen is late, passed unseen or skipped, each
 *   as often as the history says, and is dropped when it is more than GONE_ODDS times as likely gone as to come;
 * - a run far ahead (not yet due, its range starting past NEAR_SEC) keeps the plan's estimate and
 *   range (recalibrated against older days only, not by `calibration`);
 * - every other estimate's spread is cut at now (a bus not gone leaves after now), with its 80 % range
 *   from that spread recalibrated by `calibration` (how the spreads told on days past fared:
 *   backtest.ts) when given, and, within NEAR_SEC, its rider-safe point (spread.ts riderSafeAt).
 * Returns a new list ascending by `at`; never throws.
 */
export function applyLiveEvidence(
  plan: RouteDayPlan,
  passages: readonly CrossroadsPassage[],
  now: Date,
  watchingSince: Date | null,
  calibration: Calibration | null = null,
): Estimate[] {
  const nowMs = now.getTime();
  const terminus = plan.terminus;
  const sorted = [...passages].sort((a, b) => a.at.getTime() - b.at.getTime());
  const runs = terminus ? runsOf(plan, terminus) : [];
  const matched = terminus ? rememberedMatch(plan, terminus, runs, sorted, watchingSince) : sorted.map(() => -1);
  const taken = new Set(matched.filter((j) => j >= 0).map((j) => runs[j].estimate));
  const lastPassageMs = sorted.length ? sorted[sorted.length - 1].at.getTime() : null;
  /** Whether a bus due at the crossroads at `usualMs` would have been seen (watchingSince). */
  const watched = (usualMs: number) => watchingSince !== null && usualMs >= watchingSince.getTime();
  const live: Estimate[] = [];
  let previous: { atMs: number; lateness: number } | null = null;

  sorted.forEach(({ at: arrival, leftAt }, i) => {
    const arrivalMs = arrival.getTime();
    const run = matched[i] >= 0 ? runs[matched[i]] : null;
    if (run) previous = { atMs: arrivalMs, lateness: (arrivalMs - run.usualMs) / 1000 };
    if (leftAt) return;
    let spread: Weighted[] | undefined;
    if (terminus && run) {
      // The runs this bus may be on, not taken by another: as likely as its lateness, times the
      // chance that each run passed over since the previous bus's went missing (a mixture, so an
      // ambiguous bus gets a wide range).
      const after = i > 0 ? matched.slice(0, i).reduce((last, j) => Math.max(last, j), -1) : -1;
      const candidates = runs.flatMap((candidate, j) => {
        if (j <= after || (j !== matched[i] && taken.has(candidate.estimate))) return [];
        if (Math.abs(j - matched[i]) > MIXED_RUNS) return [];
        const lateness = (arrivalMs - candidate.usualMs) / 1000;
        const passedOver = runs.slice(after + 1, j).filter((r) => !taken.has(r.estimate) && watched(r.usualMs)).length;
        const score =
          densityOf(terminus, 'lateness', candidate.second, lateness) * missingShareOf(terminus) ** passedOver;
        return score > EXTRA_RUN_DENSITY ? [{ candidate, lateness, score }] : [];
      });
      const total = candidates.reduce((sum, c) => sum + c.score, 0);
      spread = spreadOf(
        candidates.flatMap(({ candidate, lateness, score }) => {
          if (score < total * MIN_RUN_SHARE) return [];
          const deviations = deviationsGiven(terminus, candidate.second, 'lateness', lateness);
          const from = deviations.length
            ? spreadFrom(candidate.estimate, deviations)
            : (candidate.estimate.spread ?? []);
          return scaled(from, score / total);
        }),
      );
    }
    if (!spread?.length) {
      // A bus no run explains leaves a turnaround after passing; on a day planned from the
      // timetable it takes the timetable's time nearest that (within sameRunSec).
      spread = plan.turnarounds.map((t) => ({ value: arrivalMs + t.value * 1000, weight: t.weight }));
      const typicalMs = quantileOf(spread, 0.5);
      let nearest: Estimate | null = null;
      for (const estimate of plan.estimate) {
        const distance = Math.abs(estimate.at.getTime() - typicalMs);
        if (estimate.basis !== 'timetable' || taken.has(estimate) || distance > plan.sameRunSec * 1000) continue;
        if (!nearest || distance < Math.abs(nearest.at.getTime() - typicalMs)) nearest = estimate;
      }
      if (nearest) taken.add(nearest);
    }
    // Not seen leaving, it is taken to have left unseen LIVE_GRACE_SEC after its range (as stated,
    // recalibrated, before any cut at now) ends.
    const stated = rangeOf(calibration ? recalibrated(spread, calibration) : spread);
    if (nowMs >= stated.upperMs + LIVE_GRACE_SEC * 1000) return;
    live.push(told({ at: run?.estimate.at ?? new Date(arrivalMs), basis: 'live' }, spread, nowMs, calibration));
  });

  const estimates = plan.estimate.flatMap((estimate): Estimate[] => {
    if (taken.has(estimate)) return [];
    if (!terminus || !estimate.spread) return [estimate];
    const usual = usualPassageMs(estimate, terminus);
    // Far ahead and not yet due at the crossroads: the plan's estimate as it is.
    if ((usual === null || usual > nowMs) && (estimate.lowerAt?.getTime() ?? 0) > nowMs + NEAR_SEC * 1000) {
      return [estimate];
    }
    const second = secondOf(estimate, terminus);
    const isWatched = usual !== null && watched(usual);
    if (isWatched && usual !== null && usual <= nowMs) {
      // Due at the crossroads and not seen: late, passed unseen, or skipped; not late once a bus
      // that comes after it was seen (buses keep their order).
      const passedBy = lastPassageMs !== null && lastPassageMs > usual;
      const late = passedBy ? 0 : latenessShareAtLeast(terminus, second, (nowMs - usual) / 1000);
      const slot = massAfter(estimate.spread, nowMs);
      const unseenToCome = slot.total ? (terminus.unseenShare * slot.after) / slot.total : 0;
      const gone = terminus.missingShare + terminus.unseenShare - unseenToCome;
      // Gone: a time already past stays in the day's list as it was; one still ahead is dropped.
      if ((late + unseenToCome) * GONE_ODDS < gone || late + unseenToCome === 0)
        return estimate.at < now ? [estimate] : [];
      const lateSpread = late
        ? spreadFrom(
            estimate,
            deviationsGiven(terminus, second, 'lateness', (nowMs - usual) / 1000, (nowMs - usual) / 1000),
          )
        : [];
      return [
        told(
          estimate,
          spreadOf([...scaled(lateSpread, late), ...scaled(estimate.spread, unseenToCome)]),
          nowMs,
          calibration,
        ),
      ];
    }
    if (!isWatched) {
      // Most likely gone (not watched, nothing tells): kept in the day's list as planned.
      const { total, after } = massAfter(estimate.spread, nowMs);
      if (after < total / 2) return [estimate];
    }
    const last: { atMs: number; lateness: number } | null = previous;
    if (last && usual !== null && usual > last.atMs && usual - last.atMs <= PREVIOUS_RUN_SEC * 1000) {
      previous = null;
      const deviations = deviationsGiven(terminus, second, 'previousLateness', last.lateness);
      if (deviations.length) return [told(estimate, spreadFrom(estimate, deviations), nowMs, calibration)];
    }
    return [told(estimate, estimate.spread, nowMs, calibration)];
  });
  return [...estimates, ...live].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** A history estimate a bus may be on: its usual passage at the crossroads today (epoch ms) and its second of the day. */
type Run = { estimate: Estimate; usualMs: number; second: number };

/** Per plan, runsOf's answer: it depends on the plan alone, and every request asks for it. */
const plannedRuns = new WeakMap<RouteDayPlan, Run[]>();

/** The plan's history estimates with a usual passage, ascending by it (computed once per plan). */
function runsOf(plan: RouteDayPlan, terminus: Terminus): Run[] {
  const known = plannedRuns.get(plan);
  if (known) return known;
  const runs = plan.estimate
    .flatMap((estimate) => {
      const usualMs = usualPassageMs(estimate, terminus);
      return usualMs === null ? [] : [{ estimate, usualMs, second: secondOf(estimate, terminus) }];
    })
    .sort((a, b) => a.usualMs - b.usualMs);
  plannedRuns.set(plan, runs);
  return runs;
}

/** Per plan, the last matchPassages answer and its arguments: the passages change once a poll, the requests far more often. */
const lastMatch = new WeakMap<RouteDayPlan, { key: string; matched: number[] }>();

/** matchPassages, remembered per plan for the same passages and watchingSince. */
function rememberedMatch(
  plan: RouteDayPlan,
  terminus: Terminus,
  runs: readonly Run[],
  passages: readonly CrossroadsPassage[],
  watchingSince: Date | null,
): number[] {
  const key = `${watchingSince?.getTime()} ${passages.map((p) => `${p.at.getTime()}/${p.leftAt?.getTime()}`).join(' ')}`;
  const last = lastMatch.get(plan);
  if (last?.key === key) return last.matched;
  const matched = matchPassages(terminus, runs, passages, watchingSince);
  lastMatch.set(plan, { key, matched });
  return matched;
}

/** The chance that a run's bus goes missing from the crossroads: skipped, or passed unseen. */
const missingShareOf = (terminus: Terminus) => terminus.unseenShare + terminus.missingShare;

/**
 * Which run each passage (ascending) is on, as indices into `runs` (-1: an extra run): the
 * order-preserving match that is most likely, each match as likely as its lateness
 * (densityOf) and, once it was seen leaving, as its departure's deviation from the run's slot; each run passed over between matches (due since `watchingSince`) missing
 * (missingShareOf), each passage left over an extra run (EXTRA_RUN_DENSITY). Runs after the last
 * match cost nothing: their buses are still to come.
 */
function matchPassages(
  terminus: Terminus,
  runs: readonly Run[],
  passages: readonly CrossroadsPassage[],
  watchingSince: Date | null,
): number[] {
  const m = passages.length;
  const n = runs.length;
  if (m === 0) return [];
  const skip = runs.map((run) =>
    watchingSince !== null && run.usualMs >= watchingSince.getTime() ? -Math.log(missingShareOf(terminus)) : 0,
  );
  const extra = -Math.log(EXTRA_RUN_DENSITY);
  // cost[i][j]: the best cost of the first i passages over the first j runs, j's last used or passed over.
  const cost = Array.from({ length: m + 1 }, () => new Float64Array(n + 1).fill(Infinity));
  const step = Array.from({ length: m + 1 }, () => new Int8Array(n + 1));
  cost[0][0] = 0;
  for (let i = 0; i <= m; i++) {
    for (let j = 0; j <= n; j++) {
      if (i === 0 && j === 0) continue;
      let best = Infinity;
      let move = 0;
      if (i > 0 && j > 0) {
        const { at, leftAt } = passages[i - 1];
        const run = runs[j - 1];
        const lateness = (at.getTime() - run.usualMs) / 1000;
        let density = Math.abs(lateness) <= CANDIDATE_SEC ? densityOf(terminus, 'lateness', run.second, lateness) : 0;
        if (leftAt) {
          const deviation = (leftAt.getTime() - run.estimate.at.getTime()) / 1000;
          density *= densityOf(terminus, 'deviation', run.second, deviation) * DEVIATION_SCALE_SEC;
        }
        if (density > EXTRA_RUN_DENSITY) {
          best = cost[i - 1][j - 1] - Math.log(density);
          move = 1;
        }
      }
      if (j > 0 && cost[i][j - 1] + skip[j - 1] < best) {
        best = cost[i][j - 1] + skip[j - 1];
        move = 2;
      }
      if (i > 0 && cost[i - 1][j] + extra < best) {
        best = cost[i - 1][j] + extra;
        move = 3;
      }
      cost[i][j] = best;
      step[i][j] = move;
    }
  }
  let j = 0;
  for (let k = 1; k <= n; k++) if (cost[m][k] < cost[m][j]) j = k;
  const matched: number[] = new Array(m).fill(-1);
  for (let i = m; i > 0 || j > 0;) {
    const move = step[i][j];
    if (move === 1) matched[--i] = --j;
    else if (move === 2) j--;
    else i--;
  }
  return matched;
}
