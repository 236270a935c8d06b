import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { kstInstant } from '../../../time';
import { createTestDatabase, testDatabaseKinds } from '../../../../tests/setup/db';
import { FakeClock, FeedError, ScriptedSource, recordingLogger, pollerFeed } from '../../../../tests/setup/fakes';
import { planDay, snapshotAt } from '../../feed/demo/simulator';
import {
  backfillDemoHistory,
  departureRecorder,
  MAX_UNSAVED_DEPARTURES,
  DepartureDetector,
  loadDepartures,
  MAX_DEPARTURE_GAP_SEC,
  saveDepartures,
  type DepartureRecord,
} from './detector';
import { FREE_POLL_SEC } from '../../feed/poll-plan';
import type { FeedSnapshot, VehiclePosition } from '../../feed/snapshot';
import { CAMPUS_TERMINUS } from '../../feed/transit-config';

const MONDAY = '2026-11-23';
const T0 = kstInstant(MONDAY, 8 * 60); // 08:00 KST
const SEED = 20261123;

/** Where a test vehicle is: on a progress line (direction, stop index), at the terminus, or on the road. */
type Place = ['up' | 'down', number] | 'terminus' | 'road';

/** Route 1150's vehicle `vehId` at `place` with GBIS stationSeq and stateCd (1 arrived, 2 left). */
function bus(place: Place, stationSeq: number, stateCd: number | null = 1, vehId = 'V1'): VehiclePosition {
  const position = { routeNo: '1150', vehId, plateNo: null, stationSeq, stateCd };
  if (place === 'terminus') return { ...position, stationId: CAMPUS_TERMINUS.stationId, section: null };
  if (place === 'road') return { ...position, stationId: `road-${stationSeq}`, section: null };
  const [direction, stopIndex] = place;
  return { ...position, stationId: `${direction}-${stopIndex}`, section: { direction, stopIndex } };
}

/** A gbis snapshot taken `seconds` after T0 (or after `base`). */
function snap(seconds: number, vehicles: VehiclePosition[], base = T0): FeedSnapshot {
  const takenAt = new Date(base.getTime() + seconds * 1000).toISOString();
  return { source: 'gbis', takenAt, arrivals: [], vehicles };
}

function detect(snapshots: FeedSnapshot[]): DepartureRecord[] {
  const detector = new DepartureDetector('gbis');
  return snapshots.flatMap((snapshot) => detector.observe(snapshot));
}

const after = (seconds: number, base = T0) => new Date(base.getTime() + seconds * 1000);

/** A run coming up and leaving: campus crossroads at 0 s, terminus 120–200 s, left at 200 s, down at 260 s. */
const NORMAL_RUN = [
  snap(0, [bus(['up', 0], 30)]),
  snap(60, [bus(['up', 4], 34)]),
  snap(120, [bus('terminus', 35)]),
  snap(180, [bus('terminus', 35)]),
  snap(200, [bus('terminus', 35, 2)]),
  snap(260, [bus(['down', 0], 36)]),
  snap(320, [bus(['down', 1], 37)]),
];

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
      snap(1200, [bus('road', 4)]), // its next trip, from the far end
      snap(2000, [bus(['up', 1], 31)]), // first seen past the campus crossroads
      snap(2100, [bus('terminus', 35)]),
      snap(2600, [bus('terminus', 35, 2)]),
      snap(3000, [bus('road', 2)]), // a third trip
      snap(3600, [bus('terminus', 35)]), // not seen coming up
      snap(3900, [bus(['down', 0], 36)]),
    ]);
    expect(records.map((r) => [r.departedAt, r.arrivedAt])).toEqual([
      [after(190), T0],
      [after(2350), after(2000)],
      [after(3750), null],
    ]);
  });

  it('detects the departure of a route that starts at the campus, whose stationSeq restarts at the terminus', () => {
    const records = detect([
      snap(0, [bus(['up', 4], 58)]),
      snap(60, [bus('terminus', 1)]),
      snap(120, [bus('terminus', 1, 2)]),
      snap(180, [bus(['down', 0], 2)]),
      snap(600, [bus('road', 8)]),
      snap(5400, [bus(['up', 0], 54)]), // back after its trip: a new run
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

    const trips = planDay(SEED, MONDAY).filter((trip) => {
      const departure = trip.departure.getTime();
      return departure > start && departure <= end; // seen at the terminus at `start`, and gone by `end`
    });
    expect(trips.length).toBeGreaterThan(8);
    expect(records).toHaveLength(trips.length);
    for (const trip of trips) {
      const record = records.find((r) => r.vehId === trip.vehicle.vehId && r.routeNo === trip.routeNo);
      expect(record).toMatchObject({ source: 'demo', serviceDate: MONDAY, gapSec: FREE_POLL_SEC, backfilled: false });
      const { departedAt, arrivedAt } = record as DepartureRecord;
      expect(Math.abs(departedAt.getTime() - trip.departure.getTime())).toBeLessThanOrEqual((FREE_POLL_SEC * 1000) / 2);
      const passed = trip.upStops[0].getTime();
      if (passed > start) {
        expect((arrivedAt as Date).getTime() - passed).toBeGreaterThanOrEqual(0);
        expect((arrivedAt as Date).getTime() - passed).toBeLessThan(FREE_POLL_SEC * 1000);
      }
    }
  });
});

describe.each(testDatabaseKinds)('departure storage on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(() => database.close());

  it('is idempotent: two detectors over the same snapshots agree, and saving twice stores once', async () => {
    const first = detect(NORMAL_RUN);
    const second = detect(NORMAL_RUN);
    expect(second).toEqual(first);
    expect(await saveDepartures(database.db, first)).toBe(1);
    expect(await saveDepartures(database.db, second)).toBe(0);
    expect(await saveDepartures(database.db, [])).toBe(0);
    expect(await loadDepartures(database.db, { source: 'gbis', fromDate: MONDAY, toDate: MONDAY })).toEqual(first);
  });

  it('stores a departure seen again at other poll instants (a replayed clock) once', async () => {
    const [departure] = detect(NORMAL_RUN);
    const [replayed] = detect(
      NORMAL_RUN.map((s) => snap((Date.parse(s.takenAt) - T0.getTime()) / 1000 + 7, s.vehicles)),
    );
    expect(replayed.departedAt).toEqual(after(197));
    expect(await saveDepartures(database.db, [departure])).toBe(1);
    expect(await saveDepartures(database.db, [replayed])).toBe(0);
    const later = new Date(departure.departedAt.getTime() + MAX_DEPARTURE_GAP_SEC * 1000);
    expect(
      await saveDepartures(database.db, [
        { ...replayed, vehId: 'V2' },
        { ...replayed, departedAt: later },
      ]),
    ).toBe(2);
  });

  it('loads one source’s service dates, both ends inclusive, ordered by departedAt', async () => {
    const record = (serviceDate: string, hour: number, source: DepartureRecord['source'] = 'gbis') => ({
      source,
      routeNo: '1117',
      vehId: 'V9',
      serviceDate,
      departedAt: kstInstant(serviceDate, hour * 60),
      gapSec: 30,
      arrivedAt: null,
      backfilled: false,
    });
    const records = [
      record('2026-11-24', 9),
      record('2026-11-22', 9),
      record('2026-11-23', 12),
      record('2026-11-23', 7),
      record('2026-11-25', 9),
      record('2026-11-23', 8, 'demo'),
    ];
    expect(await saveDepartures(database.db, records)).toBe(6);
    const loaded = await loadDepartures(database.db, { source: 'gbis', fromDate: '2026-11-23', toDate: '2026-11-24' });
    expect(loaded).toEqual([records[3], records[2], records[0]]);
  });

  it('back-fills 28 days of the demo plan once; a second call writes nothing', async () => {
    const now = kstInstant('2026-11-24', 24 * 60 + 10); // 00:10 on the 25th: service day the 24th
    const written = await backfillDemoHistory(database.db, { seed: SEED, now });
    const days = Array.from({ length: 28 }, (_, i) => kstInstant('2026-10-27', 12 * 60 + i * 24 * 60));
    const planned = days.flatMap((day) => planDay(SEED, day.toISOString().slice(0, 10)));
    expect(written).toBe(planned.length);
    expect(await backfillDemoHistory(database.db, { seed: SEED, now })).toBe(0);

    const loaded = await loadDepartures(database.db, { source: 'demo', fromDate: '2026-10-01', toDate: '2026-12-31' });
    expect(loaded).toHaveLength(written);
    expect(loaded[0].serviceDate).toBe('2026-10-27');
    expect(loaded.at(-1)?.serviceDate).toBe('2026-11-23');
    const trip = planned.filter((t) => t.serviceDate === '2026-11-23' && t.routeNo === '1303')[3];
    expect(loaded.find((r) => r.departedAt.getTime() === trip.departure.getTime())).toEqual({
      source: 'demo',
      routeNo: '1303',
      vehId: trip.vehicle.vehId,
      serviceDate: '2026-11-23',
      departedAt: trip.departure,
      gapSec: FREE_POLL_SEC,
      arrivedAt: trip.upStops[0],
      backfilled: true,
    });
  });

  it('is fed by the poller with each good snapshot, and a failed poll in between changes nothing', async () => {
    const clock = new FakeClock(T0);
    const source = new ScriptedSource();
    const { poller } = pollerFeed({
      source,
      db: database.db,
      clock,
      onSnapshot: departureRecorder(database.db, 'gbis', recordingLogger()),
    });
    for (const [i, snapshot] of NORMAL_RUN.entries()) {
      clock.set(snapshot.takenAt);
      if (i === 4) {
        source.fail(new FeedError('timeout', 'no answer'));
        await poller.pollOnce();
      }
      source.answer(() => snapshot);
      await poller.pollOnce();
    }
    expect(await loadDepartures(database.db, { source: 'gbis', fromDate: MONDAY, toDate: MONDAY })).toEqual(
      detect(NORMAL_RUN),
    );
  });

  it('records from the poller hook, logs a storage failure once and stores the departure when storing works again', async () => {
    const logger = recordingLogger();
    const record = departureRecorder(database.db, 'gbis', logger);
    await database.db.execute(sql`ALTER TABLE departures RENAME TO departures_away`);
    for (const snapshot of NORMAL_RUN) await record(snapshot);
    expect(logger.lines.filter((line) => line.includes('cannot detect or store'))).toHaveLength(1);

    await database.db.execute(sql`ALTER TABLE departures_away RENAME TO departures`);
    await record(snap(400, [bus(['down', 2], 38)]));
    expect(logger.lines.filter((line) => line.includes('works again'))).toHaveLength(1);
    expect(await loadDepartures(database.db, { source: 'gbis', fromDate: MONDAY, toDate: MONDAY })).toEqual(
      detect(NORMAL_RUN),
    );
  });

  it('keeps at most MAX_UNSAVED_DEPARTURES while storing fails (the newest), and says how many were dropped', async () => {
    const logger = recordingLogger();
    const record = departureRecorder(database.db, 'gbis', logger);
    await database.db.execute(sql`ALTER TABLE departures RENAME TO departures_away`);
    const fleet = (count: number, from: number) => Array.from({ length: count }, (_, i) => `V${from + i}`);
    // Two waves of buses leave while the table is away: 400, then 200 more.
    for (const [start, ids] of [
      [0, fleet(400, 0)],
      [600, fleet(200, 400)],
    ] as const) {
      await record(
        snap(
          start,
          ids.map((id) => bus('terminus', 35, 1, id)),
        ),
      );
      await record(
        snap(
          start + 60,
          ids.map((id) => bus(['down', 0], 36, 1, id)),
        ),
      );
    }
    await database.db.execute(sql`ALTER TABLE departures_away RENAME TO departures`);
    await record(snap(1200, []));
    const stored = await loadDepartures(database.db, { source: 'gbis', fromDate: MONDAY, toDate: MONDAY });
    expect(stored).toHaveLength(MAX_UNSAVED_DEPARTURES);
    expect(stored.some((departure) => departure.vehId === 'V599')).toBe(true); // the newest kept
    expect(stored.some((departure) => departure.vehId === 'V0')).toBe(false);
    expect(logger.lines.filter((line) => line.includes('100 departures detected meanwhile were dropped'))).toHaveLength(
      1,
    );
  });
});
