import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { kstInstant } from '../../../../contract/kst';
import { createTestDatabase, testDatabaseKinds } from '../../../../tests/setup/db';
import { FakeClock, FeedError, ScriptedSource, recordingLogger, pollerFeed } from '../../../../tests/setup/fakes';
import { planDay } from '../../feed/demo/simulator';
import { FREE_POLL_SEC } from '../../feed/poll-plan';
import { MAX_DEPARTURE_GAP_SEC, type DepartureRecord } from './detector';
import { after, bus, detect, NORMAL_RUN, snap, T0, MONDAY, SEED } from './runs.fixture';
import {
  backfillDemoHistory,
  departureRecorder,
  loadDepartures,
  MAX_UNSAVED_DEPARTURES,
  saveDepartures,
} from './store';
import { inThreadJobs } from '../jobs';

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
    // DEMO_HISTORY_DAYS 0: nothing, and a later start with days to fill still fills them.
    expect(await backfillDemoHistory(database.db, { seed: SEED, now, days: 0, jobs: inThreadJobs })).toBe(0);
    const written = await backfillDemoHistory(database.db, { seed: SEED, now, days: 28, jobs: inThreadJobs });
    const days = Array.from({ length: 28 }, (_, i) => kstInstant('2026-10-27', 12 * 60 + i * 24 * 60));
    const planned = days.flatMap((day) => planDay(SEED, day.toISOString().slice(0, 10)));
    expect(written).toBe(planned.length);
    expect(await backfillDemoHistory(database.db, { seed: SEED, now, days: 28, jobs: inThreadJobs })).toBe(0);

    const loaded = await loadDepartures(database.db, { source: 'demo', fromDate: '2026-10-01', toDate: '2026-12-31' });
    expect(loaded).toHaveLength(written);
    expect(loaded[0].serviceDate).toBe('2026-10-27');
    expect(loaded.at(-1)?.serviceDate).toBe('2026-11-23');
    const run = planned.filter((t) => t.serviceDate === '2026-11-23' && t.routeNo === '1303')[3];
    expect(loaded.find((r) => r.departedAt.getTime() === run.departure.getTime())).toEqual({
      source: 'demo',
      routeNo: '1303',
      vehId: run.vehicle.vehId,
      serviceDate: '2026-11-23',
      departedAt: run.departure,
      gapSec: FREE_POLL_SEC,
      arrivedAt: run.upStops[0],
      backfilled: true,
    });
  });

  it('is fed by the poller with each good snapshot, and a failed poll in between changes nothing', async () => {
    const clock = new FakeClock(T0);
    const source = new ScriptedSource({ metered: false }); // reads every route at each poll
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
