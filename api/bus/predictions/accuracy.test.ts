import { PredictionAccuracySchema } from '../../../contract/bus';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { predictionAccuracy, settings } from '../../db/schema';
import { testDatabaseFor, testDatabaseKinds } from '../../../tests/setup/db';
import { FakeClock } from '../../../tests/setup/fakes';
import { addServiceDays } from '../../time';
import { ACCURACY_READ_TTL_MS, createAccuracyService } from './accuracy';
import type { HistoryLoader } from './service';
import type { ObservedDeparture } from './day-plan';
import { inThreadJobs } from './jobs';

/** 1150 leaving at `times` (KST "HH:mm:ss") on `date`, seen at the crossroads 15 min before. */
const runs = (date: string, times: string[]): ObservedDeparture[] =>
  times.map((time) => {
    const departedAt = new Date(`${date}T${time}+09:00`);
    return { routeNo: '1150', serviceDate: date, departedAt, arrivedAt: new Date(departedAt.getTime() - 900_000) };
  });

// Monday 23 Nov 2026: 20 days of history before it (3 Nov – 22 Nov), a minute later every other day.
const TODAY = '2026-11-23';
const history = Array.from({ length: 20 }, (_, k) => addServiceDays(TODAY, -20 + k)).flatMap((date, k) =>
  runs(date, k % 2 ? ['08:01:00', '08:31:00', '09:01:00'] : ['08:00:00', '08:30:00', '09:00:00']),
);

/** The `count` service dates from `first` on. */
const addServiceDaysRange = (first: string, count: number) =>
  Array.from({ length: count }, (_, k) => addServiceDays(first, k));

/** A loader over `records` that records the ranges asked. */
function recordingLoader(records: ObservedDeparture[]) {
  const ranges: { fromDate: string; toDate: string }[] = [];
  const load: HistoryLoader = async (range) => {
    ranges.push(range);
    return records.filter((d) => d.serviceDate >= range.fromDate && d.serviceDate <= range.toDate);
  };
  return { load, ranges };
}

describe.each(testDatabaseKinds)('prediction accuracy service on %s', (kind) => {
  let database: Database;
  let clock: FakeClock;
  const sharedDatabase = testDatabaseFor(kind);
  beforeEach(async () => {
    database = sharedDatabase();
    clock = new FakeClock(new Date(`${TODAY}T01:00:00+09:00`));
  });

  /** An api instance's service over the shared database. */
  const instance = (loadHistory: HistoryLoader, source: 'gbis' | 'demo' = 'gbis') =>
    createAccuracyService({ db: database.db, clock, loadHistory, source, jobs: inThreadJobs });

  it('keeps the whole report of the day beside the figure, for that service day only', async () => {
    const { load } = recordingLoader(history);
    const leader = instance(load);
    expect(await leader.report(TODAY)).toBeNull();
    await leader.refresh(clock.now());
    const report = await instance(load).report(TODAY);
    expect(report?.days).toEqual(addServiceDaysRange('2026-11-09', 14));
    expect(report?.overall.methods.estimate).toMatchObject({ queries: 630, etaScore: 100 });
    expect(await leader.report('2026-11-24')).toBeNull();
  });

  // The live predictions' calibration: the last stored report's, on any later day too; null before.
  it("serves the last stored report's range calibration whatever the service date asked on", async () => {
    const { load } = recordingLoader(history);
    const leader = instance(load);
    expect(await leader.rangeCalibration()).toBeNull();
    await leader.refresh(clock.now());
    clock.set('2026-11-25T09:00:00+09:00'); // two days on: no report of that date is stored
    const other = instance(load);
    expect(await other.report('2026-11-25')).toBeNull();
    const calibration = await other.rangeCalibration();
    expect(calibration).toBeInstanceOf(Float64Array);
    expect(Array.from(calibration!)).toEqual((await leader.report(TODAY))!.rangeCalibration);
    expect(calibration).toHaveLength(21);
    expect([calibration![0], calibration![20]]).toEqual([0, 1]);
    for (let k = 1; k <= 20; k++) expect(calibration![k]).toBeGreaterThan(calibration![k - 1]);
  });

  it('the lease holder backtests the 14 service days before today for the estimate and the day before, rounded for display', async () => {
    const { load, ranges } = recordingLoader(history);
    const leader = instance(load);
    expect(await leader.refresh(clock.now())).toBe(true);
    const accuracy = await leader.get();

    // 14 days of the backtest, 3 calibration days before them, 35 days of history the first is predicted from.
    expect(ranges).toEqual([{ fromDate: '2026-10-02', toDate: '2026-11-22' }]);
    expect(PredictionAccuracySchema.parse(accuracy)).toEqual(accuracy);
    expect(accuracy.source).toBe('gbis');
    expect(accuracy.computedAt).toBe(new Date(`${TODAY}T01:00:00+09:00`).toISOString());
    expect(accuracy.window).toEqual({ days: 14, firstDate: '2026-11-09', lastDate: '2026-11-22' });
    // 15 leads (0–15 min) per run, runs 30 min apart so none is dropped: 14 × 3 × 15 queries.
    // The estimate knows each run from its crossroads passage and the learnt 15-min turnaround.
    expect(accuracy.estimate).toEqual({ etaScore: 100, maeSec: 0, queries: 630 });
    // Yesterday is a minute off. Early days (08:00 after 08:01): −60 s misses the 0–3 min window
    // (−30 s…+90 s) only. Late days: +60 s fits, except 30 s before, when yesterday's time has passed
    // (08:01, 08:31: the next slot, −1740 s; 09:01: none). 0–3 min: 42 of 126 → (33.33 + 3 × 100) / 4.
    // MAE: (7 × (42 × 60 + 2 × 1740) + 7 × 45 × 60) / 623 answered = 97.8 s.
    expect(accuracy.dayBefore).toEqual({ etaScore: 83.3, maeSec: 98, queries: 630 });
    expect(accuracy.tolerances[0]).toEqual({ fromSec: 0, toSec: 180, earlySec: 30, lateSec: 90 });
    expect(accuracy.tolerances.at(-1)).toEqual({ fromSec: 600, toSec: 900, earlySec: 90, lateSec: 270 });
  });

  it('every other instance serves the stored figure and never computes it; before the first computation it is empty', async () => {
    const follower = vi.fn<HistoryLoader>(async () => history);
    const other = instance(follower);
    const empty = await other.get();
    expect(empty).toMatchObject({
      source: 'gbis',
      computedAt: null,
      window: { days: 0, firstDate: null, lastDate: null },
      estimate: { etaScore: null, maeSec: null, queries: 0 },
    });
    expect(PredictionAccuracySchema.parse(empty)).toEqual(empty);

    const leader = instance(recordingLoader(history).load);
    await leader.refresh(clock.now());
    // The other instance read the empty row a moment ago: it reads again once that is ACCURACY_READ_TTL_MS old.
    expect((await other.get()).computedAt).toBeNull();
    clock.advance(ACCURACY_READ_TTL_MS / 1000);
    expect(await other.get()).toEqual(await leader.get());
    expect(follower).not.toHaveBeenCalled();
  });

  it('serves no figure or report stored by an older release in another shape, and the lease holder computes them again', async () => {
    const leader = instance(recordingLoader(history).load);
    await leader.refresh(clock.now());
    const current = await leader.get();
    // The shape before the glossary's names: the day-before baseline was `yesterday`, and `lastWeek`
    // the week before's.
    const { dayBefore, ...rest } = current;
    await database.db.update(predictionAccuracy).set({ accuracy: { ...rest, yesterday: dayBefore } as never });
    const [row] = await database.db.select().from(settings).where(eq(settings.key, 'backtest-report:gbis'));
    const old = JSON.stringify(row.value)
      .replaceAll('"dayBefore"', '"yesterday"')
      .replaceAll('"weekBefore"', '"lastWeek"');
    await database.db
      .update(settings)
      .set({ value: JSON.parse(old) })
      .where(eq(settings.key, 'backtest-report:gbis'));

    const restarted = instance(recordingLoader(history).load);
    expect(await restarted.get()).toMatchObject({ computedAt: null, window: { days: 0 } });
    expect(await restarted.report(TODAY)).toBeNull();
    expect(await restarted.refresh(clock.now())).toBe(true);
    expect(await restarted.get()).toEqual(current);
    expect((await restarted.report(TODAY))?.overall.methods.dayBefore).toBeDefined();
  });

  it("keeps one figure per feed: the demo's is not the GBIS one", async () => {
    await instance(recordingLoader(history).load, 'gbis').refresh(clock.now());
    const demo = instance(async () => [], 'demo');
    expect((await demo.get()).computedAt).toBeNull();
    await demo.refresh(clock.now());
    expect(await demo.get()).toMatchObject({ source: 'demo', window: { days: 0 }, estimate: { queries: 0 } });
    expect((await instance(async () => [], 'gbis').get()).window.days).toBe(14);
  });

  it('computes once per service day: 00:20 still belongs to the day before, 00:30 starts the next', async () => {
    const { load, ranges } = recordingLoader(history);
    const leader = instance(load);
    clock.set(`${TODAY}T05:00:00+09:00`);
    expect(await leader.refresh(clock.now())).toBe(true);
    const first = await leader.get();
    clock.set(`${TODAY}T23:59:00+09:00`);
    expect(await leader.refresh(clock.now())).toBe(false);
    clock.set('2026-11-24T00:20:00+09:00');
    expect(await leader.refresh(clock.now())).toBe(false);
    expect(ranges).toHaveLength(1);
    expect(await leader.get()).toEqual(first);

    clock.set('2026-11-24T00:30:00+09:00');
    expect(await leader.refresh(clock.now())).toBe(true);
    expect(ranges).toEqual([
      { fromDate: '2026-10-02', toDate: '2026-11-22' },
      { fromDate: '2026-10-03', toDate: '2026-11-23' },
    ]);
    // The history ends on 22 Nov: the same 14 days, computed anew.
    expect(await leader.get()).toEqual({ ...first, computedAt: new Date('2026-11-24T00:30:00+09:00').toISOString() });
  });

  it('shares one computation among concurrent refreshes', async () => {
    const pending: ((records: ObservedDeparture[]) => void)[] = [];
    const load = vi.fn<HistoryLoader>(() => new Promise((resolve) => pending.push(resolve)));
    const leader = instance(load);
    const runs = [leader.refresh(clock.now()), leader.refresh(clock.now())];
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    for (const release of pending) release(history);
    expect(await Promise.all(runs)).toEqual([true, true]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('stores nothing when the history load fails: the next refresh tries again', async () => {
    const load = vi
      .fn<HistoryLoader>()
      .mockRejectedValueOnce(new Error('database unreachable'))
      .mockResolvedValue(history);
    const leader = instance(load);
    await expect(leader.refresh(clock.now())).rejects.toThrow('database unreachable');
    expect((await leader.get()).computedAt).toBeNull();
    expect(await leader.refresh(clock.now())).toBe(true);
    expect((await leader.get()).window.days).toBe(14);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
