/**
 * How often the poller may read the arrival list. The public data portal counts calls per dataset
 * per KST day (arrivals and locations apart; 1,000/day on a development key: docs/gbis.md §Quota),
 * so each dataset is paced on its own budget (the location lists: location-plan.ts). The plan paces
 * the remaining arrival calls over the remaining service time of the day, so the quota holds
 * however the day went, and spends them where they matter: at that pace while a bus is near
 * campus, half as often while the next is further, a third as often when none is coming, never
 * outside service hours. Near is the pace's base because on this corridor a bus is near most of
 * the day: a faster "near" would spend the day's calls by the afternoon (scripts/bench-gbis-day.ts
 * measured it), and what the other states save goes to the hours left. The number of users never
 * enters this plan.
 */
import { isInService, secondsUntilService, SERVICE_HOURS } from '../../time';
import { kstWallClock } from '../../../contract/kst';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';

/** Share of the daily quota kept back for discovery and manual checks. */
const QUOTA_RESERVE = 0.05;
/** Floor and ceiling of the interval between polls, in seconds. */
export const MIN_POLL_SEC = 20;
export const MAX_POLL_SEC = 15 * 60;
/** Fixed interval of a free source (the demo simulator), in seconds. */
export const FREE_POLL_SEC = 15;
/** A bus this close to the campus crossroads (seconds) makes the feed "near". */
const NEAR_ARRIVAL_SEC = 15 * 60;

export type Urgency = 'near' | 'normal' | 'idle';
/** How the arrival list's pace is scaled by urgency (an interval factor). */
const URGENCY_FACTOR: Record<Urgency, number> = { near: 1, normal: 2, idle: 3 };

/** near: a bus within NEAR_ARRIVAL_SEC or in the up campus section; idle: no bus coming; else normal. */
export function urgencyOf(snapshot: FeedSnapshot | null): Urgency {
  if (!snapshot) return 'normal';
  if (
    snapshot.vehicles.some((v) => v.section?.direction === 'up') ||
    snapshot.arrivals.some((a) => a.predictTimeSec <= NEAR_ARRIVAL_SEC)
  ) {
    return 'near';
  }
  return snapshot.arrivals.length === 0 ? 'idle' : 'normal';
}

/**
 * Seconds of service left in the quota day (the KST calendar day) of `now`: service runs
 * 05:00–24:30, so a calendar day holds 00:00–00:30 of the previous service day and 05:00–24:00.
 */
export function serviceSecondsLeftToday(now: Date): number {
  const kst = kstWallClock(now);
  const minute = kst.hour * 60 + kst.minute + kst.second / 60;
  if (minute < 30) return (30 - minute) * 60 + 19 * 3600;
  if (minute < 5 * 60) return 0;
  return (24 * 60 - minute) * 60;
}

/** Calls of one dataset the quota still allows today, after its reserve: negative when over. */
export function callsLeft(dailyQuota: number, spent: number): number {
  return Math.floor(dailyQuota * (1 - QUOTA_RESERVE)) - spent;
}

/**
 * Seconds until the next read of the arrival list (one call, every route: docs/gbis.md §Quota).
 * @param input.metered false for a free source (fixed FREE_POLL_SEC).
 * @param input.spent arrival calls already spent today (KST).
 * @returns outside service: seconds until 05:00 KST; budget spent: seconds until the quota day
 *   turns (KST midnight); else the remaining service seconds divided by the calls left, scaled by
 *   urgency and clamped to [MIN_POLL_SEC, MAX_POLL_SEC].
 */
export function arrivalsDelaySec(input: {
  now: Date;
  dailyQuota: number;
  metered: boolean;
  spent: number;
  urgency: Urgency;
}): number {
  const { now, dailyQuota, metered, spent, urgency } = input;
  if (!isInService(now)) return secondsUntilService(now);
  if (!metered) return FREE_POLL_SEC;
  const left = callsLeft(dailyQuota, spent);
  if (left <= 0) return Math.max(MIN_POLL_SEC, secondsUntilQuotaDay(now));
  const paced = (serviceSecondsLeftToday(now) / left) * URGENCY_FACTOR[urgency];
  return Math.round(Math.min(MAX_POLL_SEC, Math.max(MIN_POLL_SEC, paced)));
}

/** A dataset's plan over a whole service day on a fresh quota: calls a day and the mean interval between them, seconds. */
export type DatasetPlan = { callsPerDay: number; meanIntervalSec: number };

/**
 * Each dataset's plan over a service day (05:00–24:30 KST) on a fresh quota, for the start-up log
 * line and the admin feed page. Arrivals: the quota's calls (at most one per MIN_POLL_SEC) spread
 * evenly; locations: the quota's calls shared by `routes`, meanIntervalSec per route (the plan
 * spends them around departures: api/bus/feed/location-plan.ts). Null for a free source.
 */
export function planOfDay(
  dailyQuota: number,
  metered: boolean,
  routes: number,
): { arrivals: DatasetPlan; locations: DatasetPlan } | null {
  if (!metered) return null;
  const serviceSec = (SERVICE_HOURS.endMin - SERVICE_HOURS.startMin) * 60;
  const budget = callsLeft(dailyQuota, 0);
  const arrivals = Math.min(budget, Math.floor(serviceSec / MIN_POLL_SEC));
  const locations = Math.min(budget, Math.floor((serviceSec / MIN_POLL_SEC) * routes));
  return {
    arrivals: { callsPerDay: arrivals, meanIntervalSec: Math.round(serviceSec / arrivals) },
    locations: {
      callsPerDay: locations,
      meanIntervalSec: locations > 0 ? Math.round((serviceSec * routes) / locations) : 0,
    },
  };
}

/** The day's plan in one line, for the start-up log. */
export function describePlan(dailyQuota: number, metered: boolean, routes: number): string {
  const plan = planOfDay(dailyQuota, metered, routes);
  if (!plan) return `free source: every dataset read every ${FREE_POLL_SEC} s in service hours (05:00–24:30 KST)`;
  return (
    `quota ${dailyQuota}/day per dataset (${QUOTA_RESERVE * 100}% reserve); ` +
    `arrivals: ${plan.arrivals.callsPerDay} calls/day, one every ${plan.arrivals.meanIntervalSec} s on average ` +
    `with a bus near campus (×2 while the next is further, ×3 when none is coming); locations: ${plan.locations.callsPerDay} calls/day ` +
    `over ${routes} routes, each read every ${plan.locations.meanIntervalSec} s on average, more often around its departures`
  );
}

export function secondsUntilQuotaDay(now: Date): number {
  const kst = kstWallClock(now);
  return 24 * 3600 - (kst.hour * 3600 + kst.minute * 60 + kst.second);
}
