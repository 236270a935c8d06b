import { kstInstant } from '../../../../contract/kst';
import type { FeedSnapshot } from '../../../../contract/feed-snapshot';
import { ROUTES } from '../transit-config';
import { planDay, snapshotAt, type Run } from './simulator';

const SEED = 20261123;
const MONDAY = '2026-11-23';
const SUNDAY = '2026-11-29';
const MIN = 60_000;

/** The instant at "HH:mm" KST of a calendar date (hours may exceed 23). */
function at(date: string, hhmm: string): Date {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return kstInstant(date, hours * 60 + minutes);
}

function runsOf(routeNo: string, date = MONDAY): Run[] {
  return planDay(SEED, date).filter((run) => run.routeNo === routeNo);
}

function vehicleOf(snapshot: FeedSnapshot, run: Run) {
  return snapshot.vehicles.find((vehicle) => vehicle.vehId === run.vehicle.vehId);
}

function arrivalOf(snapshot: FeedSnapshot, run: Run) {
  return snapshot.arrivals.find((arrival) => arrival.vehId === run.vehicle.vehId);
}

function between(from: Date, to: Date): Date {
  return new Date((from.getTime() + to.getTime()) / 2);
}

describe('demo simulator', () => {
  it('is a pure function of seed and instant', () => {
    const instant = at(MONDAY, '08:00');
    expect(snapshotAt(SEED, instant)).toEqual(snapshotAt(SEED, instant));
    expect(planDay(SEED, MONDAY)).toEqual(planDay(SEED, MONDAY));
    expect(snapshotAt(SEED + 1, instant)).not.toEqual(snapshotAt(SEED, instant));
  });

  it('shows every route arriving at a weekday 08:00, nearest first, with sane values', () => {
    const instant = at(MONDAY, '08:00');
    const snapshot = snapshotAt(SEED, instant);
    expect(snapshot.source).toBe('demo');
    expect(snapshot.takenAt).toBe(instant.toISOString());

    for (const route of ROUTES) {
      const count = snapshot.arrivals.filter((arrival) => arrival.routeNo === route.routeNo).length;
      expect(count, route.routeNo).toBeGreaterThanOrEqual(1);
      expect(count, route.routeNo).toBeLessThanOrEqual(2);
    }
    const predictions = snapshot.arrivals.map((arrival) => arrival.predictTimeSec);
    expect(predictions).toEqual([...predictions].sort((a, b) => a - b));

    for (const arrival of snapshot.arrivals) {
      expect(Number.isInteger(arrival.predictTimeSec)).toBe(true);
      expect(arrival.predictTimeSec).toBeGreaterThan(0);
      expect(arrival.locationNo).toBeGreaterThanOrEqual(1);
      expect(arrival.locationNo).toBeLessThanOrEqual(35);
      // Road stops are 40–70 min / 20–35 stops apart (68–210 s), predictions off by at most 12 %.
      expect(arrival.predictTimeSec).toBeLessThanOrEqual(Math.ceil(arrival.locationNo * 210 * 1.12));
      expect(arrival.predictTimeSec).toBeGreaterThanOrEqual(Math.floor((arrival.locationNo - 1) * 68 * 0.88));
      expect(arrival.stationName).toMatch(/\S/);
      expect(arrival.plateNo).toMatch(/^경기70[아바사자]\d{4}$/);
      expect(arrival.vehId).toMatch(/^\d+$/);
      expect([0, 1]).toContain(arrival.lowPlate);
      expect(arrival.remainSeatCnt).toBeGreaterThanOrEqual(0);
      expect(arrival.remainSeatCnt).toBeLessThanOrEqual(45);
      expect(arrival.crowded).toBeNull();
    }
  });

  it('lists exactly the runs between entering and leaving the feed', () => {
    const instant = at(MONDAY, '08:00');
    const running = planDay(SEED, MONDAY).filter((run) => run.appearAt <= instant && instant < run.leaveAt);
    const vehicles = snapshotAt(SEED, instant).vehicles;
    expect(vehicles.map((vehicle) => vehicle.vehId).sort()).toEqual(running.map((run) => run.vehicle.vehId).sort());
    expect(vehicles.some((vehicle) => vehicle.section !== null)).toBe(true);
  });

  it('runs nothing outside service hours', () => {
    for (const instant of [at(MONDAY, '03:00'), at(MONDAY, '04:59'), at(MONDAY, '24:30')]) {
      const snapshot = snapshotAt(SEED, instant);
      expect(snapshot.vehicles).toEqual([]);
      expect(snapshot.arrivals).toEqual([]);
    }
  });

  it('follows the day type timetable: first and last departures, headways', () => {
    for (const route of ROUTES) {
      const counts = [MONDAY, SUNDAY].map((date) => {
        const timetable = route.timetable[date === MONDAY ? 'weekday' : 'holiday'];
        const scheduled = runsOf(route.routeNo, date).map((run) => run.scheduledDeparture.getTime());
        expect(scheduled[0]).toBe(at(date, timetable.first).getTime());
        const last = at(date, timetable.last).getTime();
        expect(scheduled.at(-1)).toBeLessThanOrEqual(last);
        expect(scheduled.at(-1)).toBeGreaterThan(last - timetable.maxHeadwayMin * MIN);
        for (let i = 1; i < scheduled.length; i++) {
          const headwayMin = (scheduled[i] - scheduled[i - 1]) / MIN;
          expect(headwayMin).toBeGreaterThanOrEqual(timetable.minHeadwayMin);
          expect(headwayMin).toBeLessThanOrEqual(timetable.maxHeadwayMin);
        }
        return scheduled.length;
      });
      expect(counts[0], route.routeNo).toBeGreaterThan(counts[1]);
    }
  });

  it('plans each run in order: road, up stops, terminus, layover, down stops, road', () => {
    for (const run of planDay(SEED, MONDAY)) {
      const layoverMin = ROUTES.find((route) => route.routeNo === run.routeNo)!.layoverMin;
      const times = [run.appearAt, ...run.upStops, run.terminusArrival].map((date) => date.getTime());
      const downTimes = [run.departure, ...run.downStops, run.leaveAt].map((date) => date.getTime());
      for (const sequence of [times, downTimes]) {
        sequence.slice(1).forEach((time, i) => expect(time).toBeGreaterThan(sequence[i]));
      }
      expect(run.upStops).toHaveLength(5);
      expect(run.downStops).toHaveLength(4);
      expect(run.upStops[0].getTime() - run.appearAt.getTime()).toBeGreaterThanOrEqual(40 * MIN);
      expect(run.departure.getTime() - run.terminusArrival.getTime()).toBeGreaterThanOrEqual(layoverMin * MIN - 90_000);
      expect(run.departure.getTime()).toBeGreaterThanOrEqual(run.scheduledDeparture.getTime());
      expect(run.departure.getTime() - run.scheduledDeparture.getTime()).toBeLessThanOrEqual(15 * MIN);
    }
  });

  it('reuses a vehicle for successive runs, never for two at once', () => {
    for (const route of ROUTES) {
      const runs = runsOf(route.routeNo);
      const byVehicle = new Map<string, Run[]>();
      for (const run of runs) byVehicle.set(run.vehicle.vehId, [...(byVehicle.get(run.vehicle.vehId) ?? []), run]);
      expect(byVehicle.size).toBeLessThan(runs.length);
      for (const vehicleRuns of byVehicle.values()) {
        expect(new Set(vehicleRuns.map((run) => run.vehicle.plateNo)).size).toBe(1);
        for (let i = 1; i < vehicleRuns.length; i++) {
          expect(vehicleRuns[i].appearAt.getTime()).toBeGreaterThanOrEqual(
            vehicleRuns[i - 1].leaveAt.getTime() + 10 * MIN,
          );
        }
      }
      expect(new Set(runs.map((run) => run.vehicle.plateNo)).size).toBe(byVehicle.size);
    }
  });

  it('places a vehicle on the progress line between two of its stop times', () => {
    const run = runsOf('1150')[10];
    const onUp = vehicleOf(snapshotAt(SEED, between(run.upStops[1], run.upStops[2])), run);
    expect(onUp).toMatchObject({ section: { direction: 'up', stopIndex: 1 }, stationId: 'demo-up-1', stateCd: 2 });

    const waiting = vehicleOf(snapshotAt(SEED, between(run.terminusArrival, run.departure)), run);
    expect(waiting).toMatchObject({ section: null, stationId: 'demo-terminus', stateCd: 1 });

    const onDown = vehicleOf(snapshotAt(SEED, between(run.downStops[2], run.downStops[3])), run);
    expect(onDown).toMatchObject({ section: { direction: 'down', stopIndex: 2 }, stationId: 'demo-down-2' });

    const onRoad = vehicleOf(snapshotAt(SEED, new Date(run.upStops[0].getTime() - 1000)), run);
    expect(onRoad).toMatchObject({ section: null, stationId: 'demo-road' });

    const seqs = [onRoad, onUp, waiting, onDown].map((vehicle) => vehicle!.stationSeq);
    expect(seqs).toEqual([35, 37, 41, 44]);
  });

  it('counts a bus down as it nears the campus crossroads', () => {
    const [previous, run] = runsOf('1117').slice(20, 22);
    // After the previous run reached the crossroads, this one is the next bus.
    const first = new Date(Math.max(previous.upStops[0].getTime(), run.upStops[0].getTime() - 20 * MIN) + 1000);
    const later = new Date(first.getTime() + 5 * MIN);
    const [a, b] = [first, later].map((instant) => arrivalOf(snapshotAt(SEED, instant), run)!);
    expect(b.predictTimeSec).toBeLessThan(a.predictTimeSec);
    expect(b.locationNo).toBeLessThanOrEqual(a.locationNo);
    expect(b.remainSeatCnt).toBeLessThanOrEqual(a.remainSeatCnt!);

    const errorAt = (instant: Date, predictTimeSec: number) =>
      Math.abs(predictTimeSec - (run.upStops[0].getTime() - instant.getTime()) / 1000);
    expect(errorAt(later, b.predictTimeSec)).toBeLessThanOrEqual(errorAt(first, a.predictTimeSec));

    expect(arrivalOf(snapshotAt(SEED, new Date(run.upStops[0].getTime() + 1000)), run)).toBeUndefined();
  });

  it('keeps a run that crosses midnight on its service date', () => {
    const instant = at(MONDAY, '24:10'); // 00:10 KST on Tuesday
    const snapshot = snapshotAt(SEED, instant);
    expect(snapshot.vehicles.length).toBeGreaterThan(0);
    const monday = planDay(SEED, MONDAY);
    for (const vehicle of snapshot.vehicles) {
      const run = monday.find((t) => t.vehicle.vehId === vehicle.vehId && t.appearAt <= instant && instant < t.leaveAt);
      expect(run?.serviceDate).toBe(MONDAY);
    }
    expect(planDay(SEED, '2026-11-24').every((run) => run.appearAt > instant)).toBe(true);
  });
});
