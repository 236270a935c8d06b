/**
 * The api's view of the feed for GET /api/bus/timeLeft (docs/product.md §3, §7): its body as of
 * `now`, from the feed's latest state. Reads memory only: serving it never calls the bus source,
 * whatever the number of phones.
 */
import { LAST_RUN_NOTICE_MIN, type DownRoute, type TimeLeftResponse, type UpRoute } from '../../contract/bus';
import { dayType, isInService } from '../time';
import { formatKstIso, kstInstant } from '../../contract/kst';
import type { FeedState } from './feed/store';
import { nextAtOrAfter, rangeOfEstimate, type RoutePredictions } from './predictions/day-plan';
import type { Direction } from '../../contract/transit';
import type { Arrival, FeedSnapshot } from '../../contract/feed-snapshot';
import { DEFAULT_TRANSIT_IDS, IDS_UNKNOWN_MESSAGE, timetableMinutes, type RouteConfig } from './feed/transit-config';

/**
 * Seconds since the oldest route's location read in `snapshot` (FeedSnapshot.locationsTakenAt;
 * takenAt when it has none), at least 0.
 */
function vehiclesAgeSec(snapshot: FeedSnapshot, now: Date): number {
  const reads = Object.values(snapshot.locationsTakenAt ?? {}).map(Date.parse);
  const oldestMs = reads.length > 0 ? Math.min(...reads) : Date.parse(snapshot.takenAt);
  return Math.max(0, Math.round((now.getTime() - oldestMs) / 1000));
}

/**
 * Up group: one entry per route with a bus coming, in route order, for its next bus at the campus
 * crossroads. Remaining seconds are GBIS predictTimeSec advanced by the time since the poll (the
 * feed is polled, the bus keeps moving); `time` is those seconds in whole minutes rounded up, so a
 * bus 30 s away reads 1 minute and a bus that should have arrived reads 0 (the web then shows no
 * arrival information, docs/product.md §9). A route whose first bus has passed shows its second.
 *
 * Down group (docs/product.md §3.2 Predicted departure): one entry per route of `predictions`
 * (today's, from the prediction service; none → empty group), each with the first of its day-before,
 * week-before and estimated departures at or after `now` (KST ISO; null when the list has none left)
 * and the estimate's basis. It needs no snapshot.
 *
 * Both groups' entries carry `lastRun` (막차, the last run) while the route's last run of the service
 * day is LAST_RUN_NOTICE_MIN minutes away or less (lastRunNear): for down its last departure from
 * the campus terminus as `predictions` state it (lastDeparture: the last time the expected times
 * modal lists), for up when that run is due at campus. A route without predictions has no mark.
 *
 * Outside service hours (05:00–24:30 KST) both groups and the vehicles are empty.
 *
 * `routes` are the routes in use (TransitIdsNow.current().routes: env > saved setup > the defaults
 * of transit-config.ts), in the order of the up group, with their layovers (the up 막차).
 */
export function timeLeftView(
  state: FeedState,
  now: Date,
  predictions: readonly RoutePredictions[] = [],
  routes: readonly RouteConfig[] = DEFAULT_TRANSIT_IDS.routes,
): Required<TimeLeftResponse> {
  const { snapshot } = state;
  const inService = isInService(now);
  const ageSec = snapshot ? Math.max(0, Math.round((now.getTime() - Date.parse(snapshot.takenAt)) / 1000)) : null;
  const notSetUp = idsUnknown(state);
  const feed = {
    source: state.source,
    takenAt: snapshot?.takenAt ?? null,
    ageSec,
    ...(snapshot && { vehiclesAgeSec: vehiclesAgeSec(snapshot, now) }),
    // Not set up is not late: no poll was due (the home and the chatbot say it as such).
    stale: !notSetUp && isStale(state, now),
    inService,
    ...(notSetUp && { idsUnknown: true as const }),
  };
  const down = inService ? predictions.map((route) => downRoute(route, now)) : [];
  if (!snapshot || !inService) {
    return {
      data: [
        { type: 'up', routes: [] },
        { type: 'down', routes: down },
      ],
      vehicles: [],
      feed,
    };
  }
  const up: Required<UpRoute>[] = [];
  for (const route of routes) {
    const arrivals = snapshot.arrivals.filter((a) => a.routeNo === route.routeNo);
    const next = arrivals.find((a) => a.predictTimeSec - (ageSec ?? 0) > 0) ?? arrivals[0];
    const predicted = predictions.find((p) => p.routeNo === route.routeNo);
    if (next) up.push({ ...upRoute(next, ageSec ?? 0), lastRun: lastRunNear(predicted, 'up', now, route.layoverMin) });
  }
  const vehicles = snapshot.vehicles.flatMap((v) =>
    v.section ? [{ routeNo: v.routeNo, plateNo: v.plateNo, section: v.section }] : [],
  );
  return {
    data: [
      { type: 'up', routes: up },
      { type: 'down', routes: down },
    ],
    vehicles,
    feed,
  };
}

/**
 * The route's first or last departure from the campus terminus on `serviceDate` ("yyyy-MM-dd",
 * KST): its timetable's `first` or `last` for the date's day type (weekday, Saturday, Sunday or
 * public holiday) in the timetables in use (TransitIdsNow).
 */
export function timetableDeparture(route: RouteConfig, serviceDate: string, end: 'first' | 'last'): Date {
  return kstInstant(serviceDate, timetableMinutes(route.timetable[dayType(serviceDate)][end]));
}

/**
 * The route's last departure of its service day from the campus terminus as predicted: the last of
 * its estimates (the day plan with live evidence), which is the last time the expected times modal
 * lists (GET /api/bus/predicted); null when it has none. One source for the 막차 mark, the modal and
 * the card's estimate, so they never contradict one another (docs/product.md §11). On a day without
 * history the plan's times are the timetable's, which end at its `last` (day-plan.ts
 * timetableDepartures).
 */
export function lastDeparture(route: RoutePredictions): Date | null {
  return route.estimate.at(-1)?.at ?? null;
}

/**
 * The route's last run of the service day (lastDeparture of `route`, today's predictions), KST ISO,
 * when it is at most LAST_RUN_NOTICE_MIN minutes after `now` and not past; else null (also without
 * predictions). Down: that departure from the campus terminus; while it is marked, the card's
 * estimate (the first estimate at or after `now`) exists. Up: the same bus's up run, due at campus
 * `layoverMin` (minutes) earlier: it turns round there and leaves as that last departure.
 */
export function lastRunNear(
  route: RoutePredictions | undefined,
  direction: Direction,
  now: Date,
  layoverMin = 0,
): string | null {
  const departure = route ? lastDeparture(route) : null;
  if (!departure) return null;
  const last = direction === 'down' ? departure : new Date(departure.getTime() - layoverMin * 60_000);
  const minutesAway = (last.getTime() - now.getTime()) / 60_000;
  return minutesAway >= 0 && minutesAway <= LAST_RUN_NOTICE_MIN ? formatKstIso(last) : null;
}

function upRoute(arrival: Arrival, elapsedSec: number): Omit<Required<UpRoute>, 'lastRun'> {
  const predictTimeSec = Math.max(0, arrival.predictTimeSec - elapsedSec);
  return {
    routeNo: arrival.routeNo,
    time: Math.ceil(predictTimeSec / 60),
    location: arrival.locationNo,
    predictTimeSec,
    plateNo: arrival.plateNo,
    remainSeatCnt: arrival.remainSeatCnt,
    lowPlate: arrival.lowPlate,
    stationName: arrival.stationName,
  };
}

/** A route's down entry as of `now`. */
function downRoute(route: RoutePredictions, now: Date): Required<DownRoute> {
  const next = (times: Date[]) => {
    const time = nextAtOrAfter(times, now);
    return time ? formatKstIso(time) : null;
  };
  const estimate = nextAtOrAfter(route.estimate, now);
  return {
    routeNo: route.routeNo,
    data: {
      dayBefore: next(route.dayBefore),
      weekBefore: next(route.weekBefore),
      estimate: estimate ? formatKstIso(estimate.at) : null,
    },
    basis: estimate?.basis ?? null,
    range: estimate ? rangeOfEstimate(estimate) : null,
    lastRun: lastRunNear(route, 'down', now),
  };
}

/** The feed polls nothing until its GBIS ids are set up: its poller stored the source's failure "config: IDS_UNKNOWN_MESSAGE". */
function idsUnknown(state: FeedState): boolean {
  return state.lastError === `config: ${IDS_UNKNOWN_MESSAGE}`;
}

/** Seconds a planned poll may be late before the snapshot counts as stale (a poll takes up to 5 s per call). */
export const STALE_GRACE_SEC = 60;

/**
 * Stale: a poll failed since the snapshot (or the daily budget ran out), or the planned next poll
 * is over STALE_GRACE_SEC late — the poller died, its database is down, or this instance follows a
 * leader that stopped. Outside service hours the plan's next poll is 05:00, so nothing is stale then.
 */
export function isStale(state: FeedState, now: Date): boolean {
  if (state.lastError !== null) return true;
  return state.nextPollAt !== null && now.getTime() - state.nextPollAt.getTime() > STALE_GRACE_SEC * 1000;
}
