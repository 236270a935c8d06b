import { kstInstant } from '../../../contract/kst';
import type { FeedSnapshot, VehiclePosition } from '../../../contract/feed-snapshot';
import { snapshotAt } from '../../../tests/setup/fakes';
import { MOCK_ROUTES } from '../../../tests/mocks/gbis';
import { departuresLeft, LocationPlan } from './location-plan';
import { MAX_POLL_SEC, MIN_POLL_SEC } from './poll-plan';

const T0 = kstInstant('2026-11-23', 8 * 60); // a Monday, 08:00 KST
const SEC = 1000;
const MIN = 60 * SEC;
const TERMINUS = 'terminus';
const at = (seconds: number) => new Date(T0.getTime() + seconds * SEC);

/** Route 1150's bus V1 at `place`, as a location read sees it. */
function bus(place: 'up' | 'terminus' | 'left' | 'down', vehId = 'V1'): VehiclePosition {
  const base = { routeNo: '1150', vehId, plateNo: null, stationSeq: 30, stateCd: 1 };
  if (place === 'up') return { ...base, stationId: 'up-2', section: { direction: 'up', stopIndex: 2 } };
  if (place === 'down') return { ...base, stationId: 'down-0', section: { direction: 'down', stopIndex: 0 } };
  return { ...base, stationId: TERMINUS, stateCd: place === 'left' ? 2 : 1, section: null };
}

/**
 * The merged feed at `seconds`: 1150's bus V1 due at the crossroads in `passInSec` (none when
 * null), every route's locations read at `readAt` (default `seconds`) with `vehicles`.
 */
function feed(seconds: number, passInSec: number | null, vehicles: VehiclePosition[] = [], readAt = seconds) {
  const snapshot: FeedSnapshot = {
    ...snapshotAt(at(seconds), passInSec === null ? [] : [['1150', passInSec, 3]]),
    vehicles,
    terminusStationId: TERMINUS,
    locationsTakenAt: Object.fromEntries(MOCK_ROUTES.map((route) => [route.routeNo, at(readAt).toISOString()])),
  };
  // snapshotAt names the vehicle after its route; the plan follows it by vehId.
  snapshot.arrivals = snapshot.arrivals.map((arrival) => ({ ...arrival, vehId: 'V1' }));
  return snapshot;
}

const input = (seconds: number, snapshot: FeedSnapshot | null, callsLeft = 900) => ({
  now: at(seconds),
  snapshot,
  routes: MOCK_ROUTES,
  callsLeft,
});

describe('LocationPlan', () => {
  it('reads a route once before its bus can leave, then every hotSec until it is seen gone; the others rarely', () => {
    const plan = new LocationPlan('gbis');
    const first = feed(0, 120); // 1150's bus passes the crossroads at 120 s
    plan.observe(first);
    const hotMs = plan.hotSec(input(0, first)) * SEC;
    const earliestMs = at(120).getTime() + 6 * MIN; // the default lead before one is learnt
    const due = plan.dueMs(input(0, first));
    expect(due.get('1150')).toBe(earliestMs - hotMs);
    for (const routeNo of ['1117', '1303', '1005']) {
      expect(due.get(routeNo)).toBeGreaterThan(at(0).getTime() + 5 * MIN);
      expect(due.get(routeNo)).toBeLessThanOrEqual(at(MAX_POLL_SEC).getTime());
    }

    // Seen waiting at the terminus: next read at the earliest departure, then every hotSec.
    const waitingRead = (earliestMs - hotMs - T0.getTime()) / SEC;
    const waiting = feed(waitingRead, null, [bus('terminus')]);
    plan.observe(waiting);
    expect(plan.dueMs(input(waitingRead, waiting)).get('1150')).toBe(earliestMs);
    const stillAt = (earliestMs - T0.getTime()) / SEC;
    const still = feed(stillAt, null, [bus('terminus')]);
    plan.observe(still);
    const laterHotMs = plan.hotSec(input(stillAt, still)) * SEC; // the calls per departure left have moved
    expect(plan.dueMs(input(stillAt, still)).get('1150')).toBe(earliestMs + laterHotMs);

    // Seen gone: the pass is done, and the route falls back to its idle pace.
    const goneAt = (earliestMs + laterHotMs - T0.getTime()) / SEC;
    const gone = feed(goneAt, null, [bus('down')]);
    plan.observe(gone);
    expect(plan.dueMs(input(goneAt, gone)).get('1150')).toBeGreaterThan(at(goneAt + 5 * 60).getTime());
  });

  it("learns each route's lead from the departures it sees", () => {
    const plan = new LocationPlan('gbis');
    // Five runs of V1..V5: past the crossroads at 0 s, left between 600 and 660 s after it.
    for (let run = 0; run < 5; run++) {
      const base = run * 3600;
      const vehId = `V${run + 1}`;
      const withVehicle = (snapshot: FeedSnapshot) => ({
        ...snapshot,
        arrivals: snapshot.arrivals.map((arrival) => ({ ...arrival, vehId })),
      });
      plan.observe(withVehicle(feed(base - 60, 60)));
      plan.observe(feed(base + 600, null, [bus('terminus', vehId)]));
      plan.observe(feed(base + 660, null, [bus('down', vehId)]));
    }
    // Each departure is timed at 630 s (the midpoint); the earliest is a minute before.
    expect(plan.leadOf('1150')).toEqual({ earliestMs: 570 * SEC, spreadMs: 2 * MIN });
    expect(plan.leadOf('1117')).toEqual({ earliestMs: 6 * MIN, spreadMs: 14 * MIN });
  });

  it('watches a bus waiting at the terminus that no arrival announced', () => {
    const plan = new LocationPlan('gbis');
    const snapshot = feed(0, null, [bus('terminus')]);
    plan.observe(snapshot);
    const hotMs = plan.hotSec(input(0, snapshot)) * SEC;
    expect(plan.dueMs(input(0, snapshot)).get('1150')).toBe(at(0).getTime() + hotMs);
  });

  it('spends what the quota day allows: hot reads from the calls per departure left, none once spent', () => {
    const plan = new LocationPlan('gbis');
    const snapshot = feed(0, 120);
    expect(plan.hotSec(input(0, snapshot, 9500))).toBe(MIN_POLL_SEC);
    const tight = plan.hotSec(input(0, snapshot, 400));
    expect(tight).toBeGreaterThan(MIN_POLL_SEC);
    expect(tight).toBeLessThanOrEqual(5 * 60);
    expect([...plan.dueMs(input(0, snapshot, 0)).values()]).toEqual([Infinity, Infinity, Infinity, Infinity]);
    // A route never read yet is read at once.
    expect(plan.dueMs(input(0, null)).get('1303')).toBe(at(0).getTime());
    // Never twice within MIN_POLL_SEC.
    const waiting = feed(0, null, [bus('terminus')]);
    expect(plan.dueMs(input(0, waiting, 100_000)).get('1150')).toBe(at(MIN_POLL_SEC).getTime());
  });
});

describe('departuresLeft', () => {
  it('counts the timetables left in the quota day, the next service day included after midnight', () => {
    const morning = departuresLeft(MOCK_ROUTES, kstInstant('2026-11-23', 5 * 60));
    const evening = departuresLeft(MOCK_ROUTES, kstInstant('2026-11-23', 22 * 60));
    expect(morning).toBeGreaterThan(150);
    expect(evening).toBeLessThan(morning / 5);
    expect(departuresLeft(MOCK_ROUTES, kstInstant('2026-11-23', 23 * 60 + 59))).toBe(0);
    // 00:10 on the 24th: the 23rd's service has no departure left, the 24th's whole day is ahead.
    expect(departuresLeft(MOCK_ROUTES, kstInstant('2026-11-24', 10))).toBe(morning);
  });
});
