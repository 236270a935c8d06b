/**
 * When a reminder fires (docs/decisions/033-web-push-reminders.md): the bus it is set for, followed
 * through the feed's snapshots and the predictions, and the moment that bus is `leadMin` minutes
 * away. Pure but for liveBusTimes, the bus times of the moment both setting a reminder and the
 * scheduler (scheduler.ts) read.
 *
 * - Up: the bus's arrival at the campus stop, the snapshot's takenAt + GBIS predictTimeSec (the
 *   feed's arrivals at the campus crossroads, docs/product.md §3.1), followed by its plate
 *   (GBIS plateNo) or, without one, by the arrival nearest the time it was set for.
 * - Down: the route's predicted departure from the campus terminus (the day plan's estimate,
 *   docs/predictions.md: its rider-safe point once near), followed as it moves: the estimate
 *   nearest the time it was set for.
 */
import type { FeedSnapshot } from '../../contract/feed-snapshot';
import type { Direction, RouteNo } from '../../contract/transit';
import type { RoutePredictions } from '../bus/predictions/day-plan';
import type { ApiContext } from '../context';

/** A bus as a reminder follows it: when it is at the campus stop (up) or leaves the campus terminus (down). */
export type BusTime = { at: Date; plateNo: string | null };

/** The buses of the moment, per direction and route (busTimesOf). */
export type BusTimes = Record<Direction, ReadonlyMap<string, readonly BusTime[]>>;

/** What a reminder is set for: the route's bus in a direction, and how many minutes before it to fire. */
export type ReminderAim = { routeNo: RouteNo; direction: Direction; leadMin: number };

/** The bus a reminder was set for, as known then (reminders.targetAt, reminders.plateNo). */
export type ReminderTarget = { targetAt: Date; plateNo: string | null };

/**
 * A reminder's state at a moment: `wait` until `dueAt` (null: its bus is not in the data now, so
 * the next data decides), `due` now for a bus at `busAt`, or `gone` (its bus has come or left, is
 * less than TOO_LATE_MS away, or has not been seen again within MATCH_WINDOW_MS of its time):
 * dropped, never sent late.
 */
export type ReminderState =
  | { kind: 'wait'; dueAt: Date | null; bus: BusTime | null }
  | { kind: 'due'; busAt: Date; bus: BusTime }
  | { kind: 'gone'; bus?: undefined };

/**
 * How far (ms) a bus's time may move from the time a reminder was set for and still be its bus:
 * 15 minutes, under the routes' usual gap between buses, and more than an estimate moves in the
 * last half hour before a departure (docs/predictions.md §Measuring it).
 */
export const MATCH_WINDOW_MS = 15 * 60_000;

/**
 * A reminder whose bus is nearer than this (ms) is dropped, not sent: a minute is too little to act
 * on (a moment missed by a late snapshot, or a bus that jumped ahead in the data).
 */
export const TOO_LATE_MS = 60_000;

/**
 * The buses of the moment: up, each route's arrivals at the campus stop in `snapshot` (none
 * without one); down, each route's estimates of today (`predictions`). Ascending.
 */
export function busTimesOf(snapshot: FeedSnapshot | null, predictions: readonly RoutePredictions[]): BusTimes {
  const up = new Map<string, BusTime[]>();
  const takenMs = snapshot ? Date.parse(snapshot.takenAt) : 0;
  for (const arrival of snapshot?.arrivals ?? []) {
    const times = up.get(arrival.routeNo) ?? [];
    times.push({ at: new Date(takenMs + arrival.predictTimeSec * 1000), plateNo: arrival.plateNo });
    up.set(arrival.routeNo, times);
  }
  for (const times of up.values()) times.sort((a, b) => a.at.getTime() - b.at.getTime());
  const down = new Map<string, BusTime[]>(
    predictions.map((route) => [route.routeNo, route.estimate.map((estimate) => ({ at: estimate.at, plateNo: null }))]),
  );
  return { up, down };
}

/**
 * The buses of this second as the phones see them: the feed's latest snapshot and today's
 * predictions of the live view (api/bus/live-view.ts: shared per second; none while the
 * predictions fail). What setting a reminder and the scheduler both read.
 */
export async function liveBusTimes(context: Pick<ApiContext, 'feed' | 'liveView'>): Promise<BusTimes> {
  const { predictions } = await context.liveView.current();
  return busTimesOf(context.feed.current().snapshot, predictions);
}

/**
 * The bus a reminder set at `now` is for: the route's first bus in the direction more than
 * `leadMin` minutes away (a bus nearer cannot be announced that far ahead); null when `times`
 * know none.
 */
export function targetOf(aim: ReminderAim, times: BusTimes, now: Date): ReminderTarget | null {
  const leadMs = aim.leadMin * 60_000;
  const bus = (times[aim.direction].get(aim.routeNo) ?? []).find((b) => b.at.getTime() - now.getTime() > leadMs);
  return bus ? { targetAt: bus.at, plateNo: bus.plateNo } : null;
}

/**
 * The state at `now` of a reminder for `aim` set for `target` (its bus's time as last seen: the
 * scheduler moves it to `bus.at` after each check), from the bus times of the moment; `bus` is the
 * bus followed. A bus already past is no candidate: a reminder whose bus left matches none, and
 * goes once MATCH_WINDOW_MS has passed its time.
 */
export function reminderState(aim: ReminderAim & ReminderTarget, times: BusTimes, now: Date): ReminderState {
  const nowMs = now.getTime();
  const ahead = (times[aim.direction].get(aim.routeNo) ?? []).filter((bus) => bus.at.getTime() > nowMs);
  const bus = followedBus(aim, ahead);
  if (!bus) {
    return nowMs > aim.targetAt.getTime() + MATCH_WINDOW_MS ? { kind: 'gone' } : { kind: 'wait', dueAt: null, bus };
  }
  if (bus.at.getTime() - nowMs < TOO_LATE_MS) return { kind: 'gone' };
  const dueMs = bus.at.getTime() - aim.leadMin * 60_000;
  return dueMs <= nowMs ? { kind: 'due', busAt: bus.at, bus } : { kind: 'wait', dueAt: new Date(dueMs), bus };
}

/**
 * The bus of `times` a reminder follows: the one with its plate when it had one and the bus is
 * listed, else the one nearest its time within MATCH_WINDOW_MS; null when none is.
 */
function followedBus(target: ReminderTarget, times: readonly BusTime[]): BusTime | null {
  if (target.plateNo) {
    const same = times.find((bus) => bus.plateNo === target.plateNo);
    if (same) return same;
  }
  let nearest: BusTime | null = null;
  let nearestMs = MATCH_WINDOW_MS;
  for (const bus of times) {
    const offMs = Math.abs(bus.at.getTime() - target.targetAt.getTime());
    if (offMs <= nearestMs && !(target.plateNo && bus.plateNo && bus.plateNo !== target.plateNo)) {
      nearest = bus;
      nearestMs = offMs;
    }
  }
  return nearest;
}
