/**
 * How often the poller may call the bus source. The public data portal counts calls per dataset per
 * KST day (arrivals and locations apart; 1,000/day on a development key: docs/gbis.md §Quota). The
 * plan paces the remaining budget over the remaining service time of the day, so the quota holds
 * however the day went, and spends it where it matters: twice as often while a bus is near campus,
 * a third as often when none is coming, never outside service hours. The number of users never
 * enters this plan.
 */
import { isInService, secondsUntilService, SERVICE_HOURS } from '../../time';
import { kstWallClock } from '../../../contract/kst';
import type { CallsPerPoll } from './snapshot';
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
const URGENCY_FACTOR: Record<Urgency, number> = { near: 0.5, normal: 1, idle: 3 };

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

/** Polls the remaining quota still allows today: the tightest dataset decides. */
export function pollsLeft(dailyQuota: number, callsPerPoll: CallsPerPoll, spent: CallsPerPoll): number {
  const budget = Math.floor(dailyQuota * (1 - QUOTA_RESERVE));
  const datasets = (Object.keys(callsPerPoll) as (keyof CallsPerPoll)[]).filter((d) => callsPerPoll[d] > 0);
  return Math.min(...datasets.map((d) => Math.floor((budget - spent[d]) / callsPerPoll[d])));
}

/** A poll may run now: in service hours (05:00–24:30 KST) and, for a paid source, with budget left today. */
export function canPollNow(
  plan: { now: Date; dailyQuota: number; callsPerPoll: CallsPerPoll | null },
  spent: CallsPerPoll,
): boolean {
  if (!isInService(plan.now)) return false;
  return !plan.callsPerPoll || pollsLeft(plan.dailyQuota, plan.callsPerPoll, spent) > 0;
}

/**
 * Seconds until the next poll.
 * @param input.callsPerPoll null for a free source (fixed FREE_POLL_SEC).
 * @param input.spent calls already spent today (KST) per dataset.
 * @returns outside service: seconds until 05:00 KST; budget spent: seconds until the quota day
 *   turns (KST midnight) or service starts; else the remaining service seconds divided by the polls
 *   left, scaled by urgency and clamped to [MIN_POLL_SEC, MAX_POLL_SEC].
 */
export function nextPollDelaySec(input: {
  now: Date;
  dailyQuota: number;
  callsPerPoll: CallsPerPoll | null;
  spent: CallsPerPoll;
  urgency: Urgency;
}): number {
  const { now, dailyQuota, callsPerPoll, spent, urgency } = input;
  if (!isInService(now)) return secondsUntilService(now);
  if (!callsPerPoll) return FREE_POLL_SEC;
  const left = pollsLeft(dailyQuota, callsPerPoll, spent);
  if (left <= 0) return Math.max(MIN_POLL_SEC, secondsUntilQuotaDay(now));
  const paced = (serviceSecondsLeftToday(now) / left) * URGENCY_FACTOR[urgency];
  return Math.round(Math.min(MAX_POLL_SEC, Math.max(MIN_POLL_SEC, paced)));
}

/**
 * Calls per day and mean interval of the plan at normal urgency, for the start-up log line.
 */
export function describePlan(dailyQuota: number, callsPerPoll: CallsPerPoll | null): string {
  if (!callsPerPoll) return `free source: one poll every ${FREE_POLL_SEC} s in service hours (05:00–24:30 KST)`;
  const serviceSec = (SERVICE_HOURS.endMin - SERVICE_HOURS.startMin) * 60;
  const polls = Math.min(
    pollsLeft(dailyQuota, callsPerPoll, { arrivals: 0, locations: 0 }),
    Math.floor(serviceSec / MIN_POLL_SEC),
  );
  return (
    `quota ${dailyQuota}/day per dataset (${QUOTA_RESERVE * 100}% reserve); ${callsPerPoll.arrivals} arrival + ` +
    `${callsPerPoll.locations} location calls per poll → at most ${polls} polls/day = ` +
    `${polls * callsPerPoll.arrivals} arrival and ${polls * callsPerPoll.locations} location calls/day; ` +
    `mean interval ${Math.round(serviceSec / polls)} s (×0.5 near campus, ×3 when no bus is coming)`
  );
}

function secondsUntilQuotaDay(now: Date): number {
  const kst = kstWallClock(now);
  return 24 * 3600 - (kst.hour * 3600 + kst.minute * 60 + kst.second);
}
