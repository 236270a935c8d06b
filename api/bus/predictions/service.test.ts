import { FakeClock, recordingLogger, snapshotAt, vehicleAt } from '../../../tests/setup/fakes';
import { formatKstIso } from '../../../contract/kst';
import { createPredictionService, LiveTracker, PLAN_RETRY_MS, type HistoryLoader } from './service';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';
import { PLAN_REFRESH_MS, type ObservedDeparture } from './day-plan';
import { inThreadJobs } from './jobs';
import type { ServedPlan } from './worker';

/** Each day's lateness at the crossroads (seconds), oldest day first: the most recent days near 0. */
const LATENESS = [-240, 180, -180, 120, -120, 60, -60, 30, -30, 0];
const DAYS = ['05', '06', '09', '10', '11', '12', '13', '16', '17', '18'].map((d) => `2026-11-${d}`);
/**
 * 1150 on ten weekdays (5–18 Nov 2026) at 08:00/08:30/09:00: each bus passes the crossroads 15 min
 * before its run plus the day's lateness, and leaves on time. The 08:30 run was skipped on four
 * days, so a run may go missing.
 */
const history: ObservedDeparture[] = DAYS.flatMap((date, day) =>
  ['08:00', '08:30', '09:00'].flatMap((hhmm) => {
    if (hhmm === '08:30' && [1, 3, 6, 8].includes(day)) return [];
    const departedAt = new Date(`${date}T${hhmm}:00+09:00`);
    const arrivedAt = new Date(departedAt.getTime() - 900_000 + LATENESS[day] * 1000);
    return [{ routeNo: '1150', serviceDate: date, departedAt, arrivedAt }];
  }),
);

function setup(load: HistoryLoader = async () => history, rangeCalibration?: () => Promise<Float64Array | null>) {
  const clock = new FakeClock(new Date('2026-11-19T07:50:00+09:00')); // Thursday
  const loads: { fromDate: string; toDate: string }[] = [];
  const logger = recordingLogger();
  const service = createPredictionService({
    jobs: inThreadJobs,
    loadHistory: (range) => {
      loads.push(range);
      return load(range);
    },
    logger,
    rangeCalibration,
  });
  const estimates = async (routeNo = '1150') =>
    (await service.today(clock.now())).routes
      .find((r) => r.routeNo === routeNo)!
      .estimate.map((e) => `${formatKstIso(e.at).slice(11, 19)} ${e.basis}`);
  /** The feed's snapshot at the clock's time, arrivals as in snapshotAt. */
  const poll = (arrivals: Parameters<typeof snapshotAt>[1] = []) => {
    const snapshot = snapshotAt(clock.now(), arrivals);
    service.observe(snapshot);
    return snapshot;
  };
  return { clock, loads, logger, service, estimates, poll };
}

describe('prediction service', () => {
  it("loads the date's history window once and serves every request from memory", async () => {
    const { service, clock, loads, estimates } = setup();
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.today(clock.now())));
    expect(loads).toEqual([{ fromDate: '2026-10-15', toDate: '2026-11-19' }]);
    expect(answers[0].serviceDate).toBe('2026-11-19');
    expect(answers[0].routes.map((r) => r.routeNo)).toEqual(['1150', '1117', '1303', '1005']);
    expect(await estimates()).toEqual(['08:00:00 history', '08:30:00 history', '09:00:00 history']);
    expect(await estimates('1117')).toContain('08:05:00 timetable');
    expect(loads).toHaveLength(1);
  });

  it('recomputes the plan in the background every 10 minutes, and at once for a new service date', async () => {
    let current = history;
    const { service, clock, loads, estimates } = setup(async () => current);
    await service.today(clock.now());
    current = history.filter((d) => d.departedAt.getUTCMinutes() !== 30); // the 08:30 runs are gone
    clock.advance(PLAN_REFRESH_MS / 1000 - 1);
    await service.today(clock.now());
    expect(loads).toHaveLength(1);
    clock.advance(1);
    expect(await estimates()).toHaveLength(3); // the old plan, while the new one loads
    expect(loads).toHaveLength(2);
    // The new plan once its load (the history, then the range calibration) is through.
    await vi.waitFor(async () => expect(await estimates()).toEqual(['08:00:00 history', '09:00:00 history']));

    clock.set('2026-11-20T05:00:00+09:00');
    const friday = await service.today(clock.now());
    expect(friday.serviceDate).toBe('2026-11-20');
    expect(loads.at(-1)).toEqual({ fromDate: '2026-10-16', toDate: '2026-11-20' });
  });

  it('applies live evidence from the polled snapshots: a bus coming, then past the crossroads, until it leaves', async () => {
    const { service, clock, poll, estimates } = setup();
    // 07:44: the 1150 bus reaches the crossroads in a minute, on time for the 08:00 run.
    clock.set('2026-11-19T07:44:00+09:00');
    poll([['1150', 60, 4]]);
    // 07:55: it has passed the crossroads, so the arrivals no longer list it; no request came in
    // between, and it is still waiting: on time buses left at their run's time.
    clock.set('2026-11-19T07:55:00+09:00');
    poll();
    expect(await estimates()).toEqual(['08:00:00 live', '08:30:00 history', '09:00:00 history']);

    // 08:01: seen on the down line: it has left, taking its run (the 08:00 estimate) with it.
    clock.set('2026-11-19T08:01:00+09:00');
    service.observe({
      ...snapshotAt(clock.now(), []),
      vehicles: [vehicleAt('1150', { direction: 'down', stopIndex: 0 }, 2)],
    });
    expect(await estimates()).toEqual(['08:30:00 history', '09:00:00 history']);
    expect((await service.today(clock.now())).routes[2].estimate.every((e) => e.basis === 'timetable')).toBe(true);
  });

  it("times a departure midway between its route's last location read and the read that saw it leave", () => {
    const tracker = new LiveTracker();
    const at = (time: string) => new Date(`2026-11-19T${time}+09:00`);
    const onLine = (time: string, direction: 'up' | 'down'): FeedSnapshot => ({
      ...snapshotAt(at('07:44:00'), [['1150', 60, 4]]), // the arrivals as last read: 07:45 at the crossroads
      vehicles: [vehicleAt('1150', { direction, stopIndex: 0 })],
      locationsTakenAt: { '1150': at(time).toISOString() },
    });
    tracker.observe(onLine('07:57:00', 'up'));
    tracker.observe(onLine('07:57:00', 'down')); // the same read again tells nothing new
    expect(tracker.passages('1150', '2026-11-19')).toEqual([{ at: at('07:45:00'), leftAt: null }]);
    tracker.observe(onLine('08:01:00', 'down'));
    expect(tracker.passages('1150', '2026-11-19')).toEqual([{ at: at('07:45:00'), leftAt: at('07:59:00') }]);

    // A previous read too long before says little: the departure is taken at the read that saw it.
    const late = new LiveTracker();
    late.observe(onLine('07:40:00', 'up'));
    late.observe(onLine('07:55:00', 'down'));
    expect(late.passages('1150', '2026-11-19')).toEqual([{ at: at('07:45:00'), leftAt: at('07:55:00') }]);
  });

  it('keeps a bus not seen leaving live until 2 min past the end of its range', async () => {
    const { clock, poll, estimates } = setup();
    clock.set('2026-11-19T07:44:00+09:00');
    // 07:45 at the crossroads: leaves at 08:00, as every bus did; the range ends 25.6 s after it
    // (the least kernel, 1.28 × 20 s), so the bus counts as waiting until 08:02:25.6.
    poll([['1150', 60, 4]]);
    clock.set('2026-11-19T08:02:25+09:00');
    poll();
    expect(await estimates()).toEqual(['08:02:25 live', '08:30:00 history', '09:00:00 history']);
    clock.set('2026-11-19T08:02:26+09:00');
    expect(await estimates()).toEqual(['08:30:00 history', '09:00:00 history']);
  });

  it("keeps the day's runs after they left: a vehicle's next run is another one, and the next day starts afresh", async () => {
    const { clock, poll, estimates } = setup();
    clock.set('2026-11-19T07:44:00+09:00');
    poll([['1150', 60, 4]]); // 07:45 at the crossroads: the 08:00 run
    clock.set('2026-11-19T08:20:00+09:00');
    // 08:20: the same vehicle is 24 min from the crossroads again (08:44): a second run, which takes
    // the 09:00 one; the first still holds the 08:00 run, so the 08:30 one stays.
    poll([['1150', 1440, 12]]);
    expect(await estimates()).toEqual(['08:30:00 history', '09:00:00 live']);
    // The next service day knows none of them.
    clock.set('2026-11-20T07:00:00+09:00');
    poll();
    expect(await estimates()).toEqual(['08:00:00 history', '08:30:00 history', '09:00:00 history']);
  });

  it('once it has watched for a turnaround, drops the estimates its live evidence rules out', async () => {
    const watching = setup();
    const fresh = setup();
    for (const time of ['07:50', '08:00', '08:10']) {
      watching.clock.set(`2026-11-19T${time}:00+09:00`);
      watching.poll();
    }
    // 08:20: a bus reaches the crossroads at 08:44, ready at 08:59, and waits for the 09:00 run.
    // Watched since 07:50, any bus leaving from 08:05 on would have been seen: none leaves at 08:30.
    watching.clock.set('2026-11-19T08:20:00+09:00');
    const snapshot = watching.poll([['1150', 1440, 12]]);
    expect(await watching.estimates()).toEqual(['08:00:00 history', '09:00:00 live']);
    // Just started: a bus may be waiting unseen, so the 08:30 estimate stays.
    fresh.clock.set('2026-11-19T08:20:00+09:00');
    fresh.service.observe(snapshot);
    expect(await fresh.estimates()).toEqual(['08:00:00 history', '08:30:00 history', '09:00:00 live']);
  });

  it("fills a plan's memos off the requests' way: once when the plan is made, and after each snapshot", async () => {
    // The plans as the worker thread hands them over, to look into route 1150's terminus model.
    const plans: ServedPlan[] = [];
    const service = createPredictionService({
      jobs: { ...inThreadJobs, planDay: async (input) => plans[plans.push(await inThreadJobs.planDay(input)) - 1] },
      loadHistory: async () => history,
      logger: recordingLogger(),
    });
    const remembered = () => plans.at(-1)?.routes.find((r) => r.routeNo === '1150')?.terminus?.remembered.size ?? 0;
    const clock = new FakeClock(new Date('2026-11-19T07:44:00+09:00'));
    // 07:45 at the crossroads; the plan is then made in the background (todayNow answers at once).
    service.observe(snapshotAt(clock.now(), [['1150', 60, 4]]));
    service.todayNow(clock.now());
    await vi.waitFor(() => expect(plans).toHaveLength(1));
    await vi.waitFor(() => expect(remembered()).toBeGreaterThan(0));
    const afterPlan = remembered();
    // 08:20: the same bus 24 min away again, on its next run; no request comes.
    clock.set('2026-11-19T08:20:00+09:00');
    service.observe(snapshotAt(clock.now(), [['1150', 1440, 12]]));
    await vi.waitFor(() => expect(remembered()).toBeGreaterThan(afterPlan));
  });

  it('todayNow answers at once: the timetable while the first history load of the day runs, then the history', async () => {
    let release: (departures: ObservedDeparture[]) => void = () => undefined;
    const { service, clock, loads, poll } = setup(() => new Promise((resolve) => (release = resolve)));
    clock.set('2026-11-19T07:44:00+09:00');
    poll([['1150', 60, 4]]);
    const first = service.todayNow(clock.now());
    expect(loads).toHaveLength(1);
    expect(first.serviceDate).toBe('2026-11-19');
    const route = first.routes[0];
    expect([route.dayBefore, route.weekBefore]).toEqual([[], []]);
    expect(route.estimate.map((e) => e.basis)).toContain('live'); // live evidence on the timetable
    expect(route.estimate.filter((e) => e.basis !== 'live').every((e) => e.basis === 'timetable')).toBe(true);
    const waiting = service.today(clock.now()); // joins the same load
    service.todayNow(clock.now());
    expect(loads).toHaveLength(1);

    release(history);
    expect((await waiting).routes[0].estimate.map((e) => e.basis)).toEqual(['live', 'history', 'history']);
    expect(service.todayNow(clock.now()).routes[0].estimate.map((e) => e.basis)).toEqual([
      'live',
      'history',
      'history',
    ]);
  });

  it('falls back to the timetable when the history cannot be loaded, logs once and retries', async () => {
    let fail = true;
    const { service, clock, loads, logger, estimates } = setup(async () => {
      if (fail) throw new Error('database down');
      return history;
    });
    expect((await estimates())[0]).toMatch(/timetable$/);
    await service.today(clock.now());
    expect(loads).toHaveLength(1);
    clock.advance(PLAN_RETRY_MS / 1000);
    await service.today(clock.now());
    expect(logger.lines.filter((line) => line.includes('cannot load'))).toHaveLength(1);
    fail = false;
    clock.advance(PLAN_RETRY_MS / 1000);
    await service.today(clock.now());
    await vi.waitFor(async () => expect(await estimates()).toContain('08:30:00 history'));
    expect(logger.lines.at(-1)).toMatch(/works again/);
  });

  // The backtest's calibration widens the told ranges; the point stays the uncalibrated spread's.
  it('states the ranges by the range calibration it is given, keeping the points', async () => {
    // The same history, each day's departures off by up to 2 min, so that the slots' spreads have tails.
    const jitter = [-90, 60, -30, 120, 0, -60, 30, 90, -120, 45];
    const varied = history.map((d) => ({
      ...d,
      departedAt: new Date(d.departedAt.getTime() + jitter[DAYS.indexOf(d.serviceDate)] * 1000),
    }));
    // Departures at both ends of their spreads as often as inside: G(u) = 0.25 + u / 2 between the ends.
    const widening = Float64Array.from({ length: 21 }, (_, k) => (k === 0 ? 0 : k === 20 ? 1 : 0.25 + k / 40));
    const told = async (rangeCalibration?: () => Promise<Float64Array | null>) => {
      const { service, clock } = setup(async () => varied, rangeCalibration);
      return (await service.today(clock.now())).routes[0].estimate[0];
    };
    const plain = await told();
    const wide = await told(async () => widening);
    expect(wide.at).toEqual(plain.at);
    expect(wide.lowerAt!.getTime()).toBeLessThan(plain.lowerAt!.getTime());
    expect(wide.upperAt!.getTime()).toBeGreaterThan(plain.upperAt!.getTime());
  });

  it("serves the estimates of the day type today's departures follow, from the departures stored so far", async () => {
    // 1150 and 1117: weekdays every 20 min from 06:00 to 10:00, Sundays (holiday day type) every 40 min from 06:10 to 10:10.
    const runs = (dates: string[], from: string, stepMin: number, count: number) =>
      dates.flatMap((date) =>
        ['1150', '1117'].flatMap((routeNo) =>
          Array.from({ length: count }, (_, k) => {
            const departedAt = new Date(new Date(`${date}T${from}:00+09:00`).getTime() + k * stepMin * 60_000);
            return { routeNo, serviceDate: date, departedAt, arrivedAt: null };
          }),
        ),
      );
    const weekdays = runs(['2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18'], '06:00', 20, 13);
    const sundays = runs(['2026-11-08', '2026-11-15'], '06:10', 40, 7);
    // Thursday 19 Nov runs the holiday timetable (a holiday declared at short notice): 06:10 … 08:50 so far.
    const today = runs(['2026-11-19'], '06:10', 40, 7).filter(
      (d) => d.departedAt <= new Date('2026-11-19T09:00:00+09:00'),
    );
    const { clock, estimates } = setup(async () => [...weekdays, ...sundays, ...today]);
    clock.set('2026-11-19T09:00:00+09:00');
    expect((await estimates()).filter((e) => e >= '09')).toEqual(['09:30:00 history', '10:10:00 history']);
  });
});
