/**
 * Live evidence on a route's day plan: the buses seen coming to the campus crossroads today take
 * their runs of the plan. Pure; applied per request. The reasoning: docs/predictions.md §How the
 * estimate is made.
 */
import type { Estimate, RouteDayPlan } from './day-plan';

/** How long past its live departure (arrival + turnaround) a bus not seen leaving still counts as waiting. */
const LIVE_GRACE_SEC = 2 * 60;

/** The plan's shortest turnaround (seconds) for a bus reaching the crossroads at `arrival`. */
function minTurnaroundAt(plan: RouteDayPlan, arrival: Date): number {
  let seconds = plan.minTurnarounds[0]?.seconds ?? plan.turnaroundSec;
  for (const bucket of plan.minTurnarounds) if (arrival >= bucket.from) seconds = bucket.seconds;
  return seconds;
}

/**
 * A run of the route seen coming to the campus terminus today: `at`, when it passes (or passed)
 * the campus crossroads; `left`, whether it has been seen leaving (on the down line).
 */
export type CrossroadsPassage = { at: Date; left: boolean };

/**
 * The plan's estimates with `passages` (the route's runs seen at the campus crossroads this service
 * day, up to `now`, any order) applied: each bus, in passage order, takes the earliest remaining
 * estimate within [ready − sameRunSec, arrival + turnaroundSec + sameRunSec] (ready: arrival + the
 * shortest turnaround then) and is a 'live' estimate at the later of its ready time and that
 * estimate's onTimeAt (arrival + turnaroundSec without one), `now` at the earliest, until seen
 * leaving or LIVE_GRACE_SEC past the later of that and arrival + turnaroundSec. With
 * `watchingSince` (every bus seen since then, or null when unknown), the estimates from a
 * turnaround after it up to the last live one are dropped. Returns a new list ascending by `at`
 * (`plan.estimate` itself without passages); never throws.
 */
export function applyLiveEvidence(
  plan: RouteDayPlan,
  passages: readonly CrossroadsPassage[],
  now: Date,
  watchingSince: Date | null,
): Estimate[] {
  if (passages.length === 0) return plan.estimate;
  const rest = [...plan.estimate];
  const live: number[] = [];
  for (const { at: arrival, left } of [...passages].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const ready = arrival.getTime() + minTurnaroundAt(plan, arrival) * 1000;
    const typical = arrival.getTime() + plan.turnaroundSec * 1000;
    const from = ready - plan.sameRunSec * 1000;
    const to = typical + plan.sameRunSec * 1000;
    const index = rest.findIndex(({ at }) => at.getTime() >= from && at.getTime() <= to);
    const run = index >= 0 ? rest.splice(index, 1)[0] : undefined;
    const leaves = run?.onTimeAt ? Math.max(ready, run.onTimeAt.getTime()) : typical;
    // Not seen leaving, it is taken to have left unseen LIVE_GRACE_SEC after it should have.
    const liveUntil = Math.max(leaves, typical) + LIVE_GRACE_SEC * 1000;
    if (!left && now.getTime() < liveUntil) live.push(Math.max(now.getTime(), leaves));
  }
  if (live.length === 0) return rest;
  live.sort((a, b) => a - b);
  const spanFrom = watchingSince
    ? Math.max(now.getTime(), watchingSince.getTime() + plan.turnaroundSec * 1000)
    : Infinity;
  const spanTo = live[live.length - 1];
  return [
    ...rest.filter(({ at }) => at.getTime() < spanFrom || at.getTime() > spanTo),
    ...live.map((at): Estimate => ({ at: new Date(at), basis: 'live' })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
}
