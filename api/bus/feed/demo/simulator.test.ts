import { kstInstant } from '../../../../contract/kst';
import type { FeedSnapshot } from '../../../../contract/feed-snapshot';
import { ROUTES } from '../transit-config';
import { planDay, snapshotAt, type Trip } from './simulator';

const SEED = 20261123;
const MONDAY = '2026-11-23';
const SUNDAY = '2026-11-29';
const MIN = 60_000;

/** The instant at "HH:mm" KST of a calendar date (hours may exceed 23). */
function at(date: string, hhmm: string): Date {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return kstInstant(date, hours * 60 + minutes);
}

function tripsOf(routeNo: string, date = MONDAY): Trip[] {
  return planDay(SEED, date).filter((trip) => trip.routeNo === routeNo);
}

function vehicleOf(snapshot: FeedSnapshot, trip: Trip) {
  return snapshot.vehicles.find((vehicle) => vehicle.vehId === trip.vehicle.vehId);
}

function arrivalOf(snapshot: FeedSnapshot, trip: Trip) {
  return snapshot.arrivals.find((arrival) => arrival.vehId === trip.vehicle.vehId);
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
    const running = planDay(SEED, MONDAY).filter((trip) => trip.appearAt <= instant && instant < trip.leaveAt);
    const vehicles = snapshotAt(SEED, instant).vehicles;
    expect(vehicles.map((vehicle) => vehicle.vehId).sort()).toEqual(running.map((trip) => trip.vehicle.vehId).sort());
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
        const scheduled = tripsOf(route.routeNo, date).map((trip) => trip.scheduledDeparture.getTime());
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
    for (const trip of planDay(SEED, MONDAY)) {
      const layoverMin = ROUTES.find((route) => route.routeNo === trip.routeNo)!.layoverMin;
      const times = [trip.appearAt, ...trip.upStops, trip.terminusArrival].map((date) => date.getTime());
      const downTimes = [trip.departure, ...trip.downStops, trip.leaveAt].map((date) => date.getTime());
      for (const sequence of [times, downTimes]) {
        sequence.slice(1).forEach((time, i) => expect(time).toBeGreaterThan(sequence[i]));
      }
      expect(trip.upStops).toHaveLength(5);
      expect(trip.downStops).toHaveLength(4);
      expect(trip.upStops[0].getTime() - trip.appearAt.getTime()).toBeGreaterThanOrEqual(40 * MIN);
      expect(trip.departure.getTime() - trip.terminusArrival.getTime()).toBeGreaterThanOrEqual(
        layoverMin * MIN - 90_000,
      );
      expect(trip.departure.getTime()).toBeGreaterThanOrEqual(trip.scheduledDeparture.getTime());
      expect(trip.departure.getTime() - trip.scheduledDeparture.getTime()).toBeLessThanOrEqual(15 * MIN);
    }
  });

  it('reuses a vehicle for successive runs, never for two at once', () => {
    for (const route of ROUTES) {
      const trips = tripsOf(route.routeNo);
      const byVehicle = new Map<string, Trip[]>();
      for (const trip of trips) byVehicle.set(trip.vehicle.vehId, [...(byVehicle.get(trip.vehicle.vehId) ?? []), trip]);
      expect(byVehicle.size).toBeLessThan(trips.length);
      for (const runs of byVehicle.values()) {
        expect(new Set(runs.map((trip) => trip.vehicle.plateNo)).size).toBe(1);
        for (let i = 1; i < runs.length; i++) {
          expect(runs[i].appearAt.getTime()).toBeGreaterThanOrEqual(runs[i - 1].leaveAt.getTime() + 10 * MIN);
        }
      }
      expect(new Set(trips.map((trip) => trip.vehicle.plateNo)).size).toBe(byVehicle.size);
    }
  });

  it('places a vehicle on the progress line between two of its stop times', () => {
    const trip = tripsOf('1150')[10];
    const onUp = vehicleOf(snapshotAt(SEED, between(trip.upStops[1], trip.upStops[2])), trip);
    expect(onUp).toMatchObject({ section: { direction: 'up', stopIndex: 1 }, stationId: 'demo-up-1', stateCd: 2 });

    const waiting = vehicleOf(snapshotAt(SEED, between(trip.terminusArrival, trip.departure)), trip);
    expect(waiting).toMatchObject({ section: null, stationId: 'demo-terminus', stateCd: 1 });

    const onDown = vehicleOf(snapshotAt(SEED, between(trip.downStops[2], trip.downStops[3])), trip);
    expect(onDown).toMatchObject({ section: { direction: 'down', stopIndex: 2 }, stationId: 'demo-down-2' });

    const onRoad = vehicleOf(snapshotAt(SEED, new Date(trip.upStops[0].getTime() - 1000)), trip);
    expect(onRoad).toMatchObject({ section: null, stationId: 'demo-road' });

    const seqs = [onRoad, onUp, waiting, onDown].map((vehicle) => vehicle!.stationSeq);
    expect(seqs).toEqual([35, 37, 41, 44]);
  });

  it('counts a bus down as it nears the campus crossroads', () => {
    const [previous, trip] = tripsOf('1117').slice(20, 22);
    // After the previous run reached the crossroads, this one is the next bus.
    const first = new Date(Math.max(previous.upStops[0].getTime(), trip.upStops[0].getTime() - 20 * MIN) + 1000);
    const later = new Date(first.getTime() + 5 * MIN);
    const [a, b] = [first, later].map((instant) => arrivalOf(snapshotAt(SEED, instant), trip)!);
    expect(b.predictTimeSec).toBeLessThan(a.predictTimeSec);
    expect(b.locationNo).toBeLessThanOrEqual(a.locationNo);
    expect(b.remainSeatCnt).toBeLessThanOrEqual(a.remainSeatCnt!);

    const errorAt = (instant: Date, predictTimeSec: number) =>
      Math.abs(predictTimeSec - (trip.upStops[0].getTime() - instant.getTime()) / 1000);
    expect(errorAt(later, b.predictTimeSec)).toBeLessThanOrEqual(errorAt(first, a.predictTimeSec));

    expect(arrivalOf(snapshotAt(SEED, new Date(trip.upStops[0].getTime() + 1000)), trip)).toBeUndefined();
  });

  it('keeps a run that crosses midnight on its service date', () => {
    const instant = at(MONDAY, '24:10'); // 00:10 KST on Tuesday
    const snapshot = snapshotAt(SEED, instant);
    expect(snapshot.vehicles.length).toBeGreaterThan(0);
    const monday = planDay(SEED, MONDAY);
    for (const vehicle of snapshot.vehicles) {
      const trip = monday.find(
        (t) => t.vehicle.vehId === vehicle.vehId && t.appearAt <= instant && instant < t.leaveAt,
      );
      expect(trip?.serviceDate).toBe(MONDAY);
    }
    expect(planDay(SEED, '2026-11-24').every((trip) => trip.appearAt > instant)).toBe(true);
  });
});
