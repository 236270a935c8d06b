import { backtest, bucketOf, DEVELOPMENT_KEY_CADENCE, isAccurate, QUERY_LEADS_SEC, type Cadence } from './backtest';
import type { ObservedDeparture } from './day-plan';

/** A 1150 departure at KST `time` ("HH:mm:ss") of `date`, seen at the crossroads `turnaroundSec` before when given. */
function run(date: string, time: string, turnaroundSec?: number): ObservedDeparture {
  const departedAt = new Date(`${date}T${time}+09:00`);
  const arrivedAt = turnaroundSec === undefined ? null : new Date(departedAt.getTime() - turnaroundSec * 1000);
  return { routeNo: '1150', serviceDate: date, departedAt, arrivedAt };
}

// Mon–Wed 16–18 Nov 2026 at 08:00/08:30/09:00 (Wednesday a minute late), 15 min after passing the
// crossroads: the history estimate for Thursday 19 Nov is 08:00/08:30/09:00, the day before 08:01/08:31/09:01.
const prior = [
  ...['2026-11-16', '2026-11-17'].flatMap((date) => ['08:00:00', '08:30:00', '09:00:00'].map((t) => run(date, t, 900))),
  ...['08:01:00', '08:31:00', '09:01:00'].map((t) => run('2026-11-18', t, 900)),
];

describe('ETA accuracy windows of the TransitApp benchmark', () => {
  it('puts leads in the 0–3, 3–6, 6–10, 10–15 min buckets', async () => {
    expect([0, 179, 180, 359, 360, 599, 600, 899, 900].map(bucketOf)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, -1]);
    expect(QUERY_LEADS_SEC.map(bucketOf)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]);
  });

  it('counts actual − predicted inside [−early, +late] as accurate, bounds included', async () => {
    const edges = [
      [0, -30, 90],
      [1, -60, 150],
      [2, -60, 210],
      [3, -90, 270],
    ] as const;
    for (const [bucket, early, late] of edges) {
      expect([early - 1, early, 0, late, late + 1].map((error) => isAccurate(bucket, error))).toEqual([
        false,
        true,
        true,
        true,
        false,
      ]);
    }
  });
});

describe('backtest', () => {
  it('scores history estimates and baselines with known errors', async () => {
    // Thursday's buses leave 45 s after the estimate and were not seen at the crossroads: each run,
    // due and unseen, may have passed unseen and still be waiting (live.ts GONE_ODDS), so it stays
    // the answer until it leaves, its point cut at the query: every answer is its own bus's.
    const thursday = ['08:00:45', '08:30:45', '09:00:45'].map((time) => run('2026-11-19', time));
    const report = await backtest([...prior, ...thursday], { days: 1, before: '2026-11-20' });
    expect(report.days).toEqual(['2026-11-19']);
    const route = report.routes.find((r) => r.routeNo === '1150')!;
    expect(route.departures).toBe(3);

    const { estimate, dayBefore, weekBefore } = route.methods;
    expect(estimate).toMatchObject({ queries: 45, answered: 45, bucketPercent: [100, 100, 100, 100], etaScore: 100 });
    expect(estimate.maeSec).toBeLessThanOrEqual(45);

    // The day before's times are 15 s late for Thursday: inside every window, always answered.
    expect(dayBefore).toMatchObject({ answered: 45, maeSec: 15, bucketPercent: [100, 100, 100, 100], etaScore: 100 });
    // Nothing on Thursday 12 Nov: the week before never answers.
    expect(weekBefore).toMatchObject({ queries: 45, answered: 0, maeSec: null, etaScore: 0 });

    const empty = report.routes.find((r) => r.routeNo === '1303')!;
    expect(empty.methods.estimate).toMatchObject({ queries: 0, maeSec: null, etaScore: null });
    expect(report.overall.departures).toBe(3);
    expect(report.overall.methods.estimate).toEqual(estimate);
  });

  it('a bus no run explains (an extra run) leaves the turnaround learnt from history after passing', async () => {
    // An extra 08:10 run, at the crossroads at 07:55, 10 min after the 08:00 run's usual passage:
    // no run is that late. Once the 08:00 run's time has passed, every query answers 08:10.
    const report = await backtest([...prior, run('2026-11-19', '08:10:00', 900)], { days: 1, before: '2026-11-20' });
    const { estimate, dayBefore } = report.routes[0].methods;
    // Asked 10.5 to 14.5 min before (07:55:30–07:59:30) the 08:00 run is the next; at 08:00:30 too,
    // as it may have passed unseen and still be waiting (its slot's spread reaches 08:01:25); from
    // 08:01:30 on, 08:10.
    expect(estimate).toMatchObject({ queries: 15, answered: 15, bucketPercent: [100, 100, 75, 0] });
    // The six answers of the 08:00 run miss by 9–10 min; the nine of the extra run leave at 08:10
    // with the 15-min turnaround every bus took.
    expect(estimate.maeSec).toBeGreaterThan((6 * 540) / 15);
    expect(estimate.maeSec).toBeLessThanOrEqual((6 * 600) / 15);
    expect(dayBefore.etaScore).toBe(0); // 08:01 then 08:31
  });

  it('models the cadence it is given: a departure seen later helps the next queries later', async () => {
    // Thursday's 08:00 run leaves on time, and an extra bus leaves at 08:05. Until the 08:00 bus is
    // seen leaving, the estimate takes it to be still waiting (it may have passed unseen), and
    // answers 08:00 to the queries for 08:05.
    const day = [...prior, run('2026-11-19', '08:00:00', 900), run('2026-11-19', '08:05:00', 900)];
    const scoreAt = async (cadence: Cadence) =>
      (await backtest(day, { days: 1, before: '2026-11-20', cadence })).routes[0].methods.estimate.maeSec ?? NaN;
    const ideal = await scoreAt({ seenAfterSec: 0 });
    const minuteLate = await scoreAt({ seenAfterSec: 60 });
    const fourMinutesLate = await scoreAt({ seenAfterSec: 240 });
    expect(ideal).toBeLessThan(minuteLate);
    expect(minuteLate).toBeLessThan(fourMinutesLate);
    // The development key's plan reads a route every ~4 min while its bus may leave: in between.
    const developmentKey = await scoreAt(DEVELOPMENT_KEY_CADENCE);
    expect(developmentKey).toBeGreaterThanOrEqual(ideal);
    expect(developmentKey).toBeLessThanOrEqual(fourMinutesLate);
    // The default is the development key's.
    expect((await backtest(day, { days: 1, before: '2026-11-20' })).routes[0].methods.estimate.maeSec).toBe(
      developmentKey,
    );
  });

  it('a bus early at the crossroads waits for its run, as early buses did in the history', async () => {
    // The 08:00 run passed the crossroads 14–22 min before leaving on the earlier days, and left
    // at 08:00 all the same: early buses wait. Today's passes at 07:40 (early): it leaves at 08:00.
    const waited = [
      '2026-11-09',
      '2026-11-10',
      '2026-11-11',
      '2026-11-12',
      '2026-11-13',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
    ].flatMap((date, day) => [
      run(date, '08:00:00', 840 + day * 60),
      run(date, '08:30:00', 900),
      run(date, '09:00:00', 900),
    ]);
    const report = await backtest([...waited, run('2026-11-19', '08:00:00', 1200)], { days: 1, before: '2026-11-20' });
    const { estimate } = report.routes[0].methods;
    expect(estimate).toMatchObject({ queries: 15, answered: 15 });
    expect(estimate.maeSec).toBeLessThan(30);
    expect(estimate.coverage).toBe(100);
  });

  it("drops a query whose rider's next bus is an earlier departure", async () => {
    const report = await backtest([...prior, run('2026-11-19', '08:00:00'), run('2026-11-19', '08:02:00')], {
      days: 1,
      before: '2026-11-20',
    });
    // 15 queries for 08:00; for 08:02 only those after 08:00 (30 s and 90 s ahead).
    expect(report.routes[0].methods.timetable.queries).toBe(17);
  });

  it('evaluates the last N days with observations before `before`, each from earlier days only', async () => {
    const report = await backtest(prior, { days: 2, before: '2026-11-18' });
    expect(report.days).toEqual(['2026-11-16', '2026-11-17']);
    // 16 Nov has no earlier day: no history, no day before; the timetable still answers.
    expect(report.overall.methods.timetable.answered).toBeGreaterThan(0);
  });

  // 3 calibration days are evaluated before the scored ones: they feed the range calibration only.
  it('learns the range calibration on 3 unscored days before the scored ones', async () => {
    // Eight weekdays (9–18 Nov) at 08:00/08:30/09:00, each day up to a minute off; then Sunday 22 Nov,
    // whose estimate is the timetable's (no Sunday history): no spread, so no level of its own.
    const weekdays = ['09', '10', '11', '12', '13', '16', '17', '18'].flatMap((day, k) =>
      ['08:00', '08:30', '09:00'].map((hhmm) =>
        run(`2026-11-${day}`, `${hhmm}:${String((k * 23) % 60).padStart(2, '0')}`, 900),
      ),
    );
    const sunday = ['08:10:00', '09:10:00'].map((time) => run('2026-11-22', time));
    const report = await backtest([...weekdays, ...sunday], { days: 1, before: '2026-11-23' });
    expect(report.days).toEqual(['2026-11-22']);
    expect(report.overall.departures).toBe(2);
    expect(report.overall.methods.estimate.coverage).toBeNull(); // the Sunday's estimate states no range
    // So the calibration is that of 16–18 Nov, each predicted from the weekdays before it.
    expect(report.rangeCalibration).toHaveLength(21);
  });

  // The calibration is a map from 0 to 1, increasing; none without a spread to learn it from.
  it('reports the range calibration, null when no estimate had a spread', async () => {
    const thursday = ['08:00:45', '08:30:45', '09:00:45'].map((time) => run('2026-11-19', time));
    const { rangeCalibration } = await backtest([...prior, ...thursday], { days: 1, before: '2026-11-20' });
    expect(rangeCalibration).toHaveLength(21);
    expect([rangeCalibration![0], rangeCalibration![20]]).toEqual([0, 1]);
    rangeCalibration!.slice(1).forEach((level, k) => expect(level).toBeGreaterThan(rangeCalibration![k]));
    // 16–17 Nov, never seen at the crossroads: timetable estimates (17 Nov has one day of history), no live ones.
    const unseen = prior.slice(0, 6).map((d) => ({ ...d, arrivedAt: null }));
    expect((await backtest(unseen, { days: 2, before: '2026-11-18' })).rangeCalibration).toBeNull();
  });

  it('reports the slots learnt per route and day type, with their spread', async () => {
    // 08:00/08:30/09:00 a minute later each day, Mon–Wed: Thursday's slots sit at the weighted
    // median (08:01, 08:31, 09:01; Wednesday weighs 1, Tuesday 0.8, Monday 0.64), each a minute
    // from two of its three days: a spread of 60 s.
    const drifting = ['2026-11-16', '2026-11-17', '2026-11-18'].flatMap((date, k) =>
      ['08:00', '08:30', '09:00'].map((hhmm) =>
        run(date, `${hhmm.slice(0, 3)}${String(Number(hhmm.slice(3)) + k).padStart(2, '0')}:00`),
      ),
    );
    const report = await backtest([...drifting, run('2026-11-19', '08:01:00')], { days: 1, before: '2026-11-20' });
    // The other routes have no history: timetable estimates, no slots.
    expect(report.slots).toEqual([
      { routeNo: '1150', dayType: 'weekday', serviceDate: '2026-11-19', count: 3, spreadSec: 60 },
    ]);
  });

  it("scores the estimate on the day type the day's departures follow, the history part on the calendar's", async () => {
    // 1150: weekdays every 20 min from 06:00, Sundays every 40 min from 06:10; Thursday 19 Nov runs
    // the Sunday times (a holiday at short notice), with no arrivedAt, so only the day type differs.
    const times = (date: string, from: string, stepMin: number, count: number) =>
      Array.from({ length: count }, (_, k) => {
        const at = new Date(new Date(`${date}T${from}:00+09:00`).getTime() + k * stepMin * 60_000);
        return run(date, at.toLocaleTimeString('en-GB', { timeZone: 'Asia/Seoul' }));
      });
    const history = [
      ...['2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18'].flatMap((date) =>
        times(date, '06:00', 20, 46),
      ),
      ...['2026-11-08', '2026-11-15'].flatMap((date) => times(date, '06:10', 40, 23)),
      ...times('2026-11-19', '06:10', 40, 23),
    ];
    const report = await backtest(history, { days: 1, before: '2026-11-20' });
    const { estimate, history: dayPlan } = report.routes.find((r) => r.routeNo === '1150')!.methods;
    // The day plan offers weekday runs every 20 min all day: half of them never come.
    expect(dayPlan.maeSec!).toBeGreaterThan(300);
    // Once the runs miscount the weekday's by 6, the estimate answers from the Sunday slots.
    expect(estimate.maeSec!).toBeLessThan(dayPlan.maeSec! / 2);
  });
});
