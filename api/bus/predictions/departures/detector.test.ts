import { snapshotAt, planDay } from '../../feed/demo/simulator';
import { FREE_POLL_SEC } from '../../feed/poll-plan';
import { kstInstant } from '../../../../contract/kst';
import { MAX_DEPARTURE_GAP_SEC, DepartureDetector, type DepartureRecord } from './detector';
import { after, bus, detect, NORMAL_RUN, snap, T0, MONDAY, SEED } from './runs.fixture';

/** An arrival of route 1150's vehicle `vehId` at the crossroads (predictTimeSec set by the caller). */
const arrivalOf = (vehId: string) => ({
  routeNo: '1150',
  predictTimeSec: 0,
  locationNo: 1,
  stationName: null,
  plateNo: null,
  vehId,
  lowPlate: null,
  remainSeatCnt: null,
  crowded: null,
});

describe('DepartureDetector', () => {
  it('records a departure at the midpoint of the last observation before and the first after', () => {
    expect(detect(NORMAL_RUN)).toEqual([
      {
        source: 'gbis',
        routeNo: '1150',
        vehId: 'V1',
        serviceDate: MONDAY,
        departedAt: after(190),
        gapSec: 20,
        arrivedAt: T0,
        backfilled: false,
      },
    ]);
  });

  it('takes the down section, or a stop further along the route, as left when the terminus is not seen', () => {
    const viaDown = detect([snap(0, [bus(['up', 4], 34)]), snap(300, [bus(['down', 1], 37)])]);
    expect(viaDown).toMatchObject([{ departedAt: after(150), gapSec: 300 }]);
    const viaRoad = detect([snap(0, [bus('terminus', 35)]), snap(400, [bus('road', 41)])]);
    expect(viaRoad).toMatchObject([{ departedAt: after(200), gapSec: 400, arrivedAt: null }]);
  });

  it('departs a bus seen many times at the terminus once, despite a stateCd flicker after leaving', () => {
    const records = detect([
      snap(0, [bus('terminus', 35)]),
      snap(60, [bus('terminus', 35)]),
      snap(120, [bus('terminus', 35)]),
      snap(180, [bus('terminus', 35, 2)]),
      snap(240, [bus('terminus', 35, 1)]),
      snap(300, [bus('terminus', 35, 2)]),
      snap(360, [bus(['down', 0], 36)]),
      snap(420, [bus(['down', 1], 37)]),
    ]);
    expect(records).toMatchObject([{ departedAt: after(150), gapSec: 60 }]);
  });

  it('records nothing when the two observations are more than MAX_DEPARTURE_GAP_SEC apart', () => {
    const limit = MAX_DEPARTURE_GAP_SEC;
    expect(detect([snap(0, [bus('terminus', 35)]), snap(limit + 1, [bus(['down', 1], 37)])])).toEqual([]);
    expect(detect([snap(0, [bus('terminus', 35)]), snap(limit, [bus(['down', 1], 37)])])).toHaveLength(1);
  });

  it('records nothing for a bus that turns back before the terminus (its stationSeq drops)', () => {
    const records = detect([
      snap(0, [bus(['up', 3], 33)]),
      snap(60, [bus('road', 31)]),
      snap(120, [bus('road', 36)]),
      snap(180, [bus(['down', 1], 37)]),
    ]);
    expect(records).toEqual([]);
  });

  it('records nothing when the vehicle is next seen on a new run (stationSeq drop), even further along later', () => {
    const records = detect([snap(0, [bus('terminus', 35)]), snap(60, [bus('road', 3)]), snap(120, [bus('road', 40)])]);
    expect(records).toEqual([]);
  });

  it('tracks arrivedAt per run: the next run of the same vehicle has its own, or none when not seen coming up', () => {
    const records = detect([
      ...NORMAL_RUN, // departs at 190 s
      snap(900, [bus('road', 50)]), // still leaving on its first run
      snap(1200, [bus('road', 4)]), // its next run, from the far end
      snap(2000, [bus(['up', 1], 31)]), // first seen past the campus crossroads
      snap(2100, [bus('terminus', 35)]),
      snap(2600, [bus('terminus', 35, 2)]),
      snap(3000, [bus('road', 2)]), // a third run
      snap(3600, [bus('terminus', 35)]), // not seen coming up
      snap(3900, [bus(['down', 0], 36)]),
    ]);
    expect(records.map((r) => [r.departedAt, r.arrivedAt])).toEqual([
      [after(190), T0],
      [after(2350), after(2000)],
      [after(3750), null],
    ]);
  });

  it("takes arrivedAt from the arrival list's crossroads pass when it has one, within an hour of the departure", () => {
    // The arrival list put V1 at the crossroads at 30 s; its route's locations were read only at
    // the terminus (600 s) and after it left (700 s), as the location plan reads them.
    const announced = { ...snap(-200, []), arrivals: [{ ...arrivalOf('V1'), predictTimeSec: 230 }] };
    const records = detect([announced, snap(600, [bus('terminus', 35)]), snap(700, [bus(['down', 0], 36)])]);
    expect(records).toMatchObject([{ vehId: 'V1', departedAt: after(650), arrivedAt: after(30) }]);
    // A pass more than an hour before the departure was the vehicle's previous run: its first
    // up-section read stands in, as when the arrival list never named it.
    const stale = { ...snap(-4000, []), arrivals: [{ ...arrivalOf('V1'), predictTimeSec: 10 }] };
    expect(detect([stale, snap(60, [bus(['up', 4], 34)]), snap(120, [bus(['down', 0], 36)])])).toMatchObject([
      { arrivedAt: after(60) },
    ]);
  });

  it('detects the departure of a route that starts at the campus, whose stationSeq restarts at the terminus', () => {
    const records = detect([
      snap(0, [bus(['up', 4], 58)]),
      snap(60, [bus('terminus', 1)]),
      snap(120, [bus('terminus', 1, 2)]),
      snap(180, [bus(['down', 0], 2)]),
      snap(600, [bus('road', 8)]),
      snap(5400, [bus(['up', 0], 54)]), // back from the far end: a new run
      snap(5700, [bus('terminus', 1)]),
      snap(5760, [bus(['down', 1], 3)]),
    ]);
    expect(records.map((r) => [r.departedAt, r.arrivedAt])).toEqual([
      [after(90), T0],
      [after(5730), after(5400)],
    ]);
  });

  it('gives a departure after midnight KST the previous service date', () => {
    const base = kstInstant('2026-11-24', 9); // 00:09 KST
    const records = detect([snap(50, [bus('terminus', 35)], base), snap(70, [bus('terminus', 35, 2)], base)]);
    expect(records).toMatchObject([{ serviceDate: MONDAY, departedAt: kstInstant('2026-11-24', 10) }]);
  });

  it('keeps vehicles apart, ignores snapshots not newer than the last, and refuses another source', () => {
    const detector = new DepartureDetector('gbis');
    detector.observe(snap(0, [bus('terminus', 35, 1, 'A'), bus('terminus', 20, 1, 'B')]));
    expect(detector.observe(snap(30, [bus('terminus', 35, 2, 'A'), bus('road', 19, 2, 'B')]))).toMatchObject([
      { vehId: 'A', departedAt: after(15) },
    ]);
    expect(detector.observe(snap(30, [bus(['down', 1], 37, 1, 'B')]))).toEqual([]);
    expect(() => detector.observe({ ...snap(60, []), source: 'demo' })).toThrow(/demo snapshot/);
  });

  it('detects the demo feed’s planned departures, polled every FREE_POLL_SEC for an hour', () => {
    const start = T0.getTime();
    const end = start + 3600_000;
    const detector = new DepartureDetector('demo');
    const records: DepartureRecord[] = [];
    for (let ms = start; ms <= end; ms += FREE_POLL_SEC * 1000)
      records.push(...detector.observe(snapshotAt(SEED, new Date(ms))));

    const runs = planDay(SEED, MONDAY).filter((run) => {
      const departure = run.departure.getTime();
      return departure > start && departure <= end; // seen at the terminus at `start`, and gone by `end`
    });
    expect(runs.length).toBeGreaterThan(8);
    expect(records).toHaveLength(runs.length);
    for (const run of runs) {
      const record = records.find((r) => r.vehId === run.vehicle.vehId && r.routeNo === run.routeNo);
      expect(record).toMatchObject({ source: 'demo', serviceDate: MONDAY, gapSec: FREE_POLL_SEC, backfilled: false });
      const { departedAt, arrivedAt } = record as DepartureRecord;
      expect(Math.abs(departedAt.getTime() - run.departure.getTime())).toBeLessThanOrEqual((FREE_POLL_SEC * 1000) / 2);
      const passed = run.upStops[0].getTime();
      // The arrival list's last word before the bus passed (its prediction then, seconds away).
      if (passed > start) expect(Math.abs((arrivedAt as Date).getTime() - passed)).toBeLessThan(5000);
    }
  });
});
