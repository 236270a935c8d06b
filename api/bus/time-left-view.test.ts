import type { FeedSnapshot } from '../../contract/feed-snapshot';
import { emptyFeedState } from './feed/store';
import { LAST_RUN_NOTICE_MIN, PredictedRouteResponseSchema, TimeLeftResponseSchema } from '../../contract/bus';
import { FakeClock, recordingLogger, snapshotAt } from '../../tests/setup/fakes';
import type { ApiContext } from '../context';
import { busRoutes } from '../routes/bus';
import { addServiceDays } from '../time';
import { formatKstIso } from '../../contract/kst';
import type { FeedState } from './feed/store';
import { planDay, snapshotAt as demoSnapshotAt } from './feed/demo/simulator';
import { createLiveView } from './live-view';
import type { ObservedDeparture, RoutePredictions } from './predictions/day-plan';
import { createPredictionService } from './predictions/service';
import { lastRunNear, STALE_GRACE_SEC, timeLeftView } from './time-left-view';
import { groupRoutes } from '../../contract/time-left-groups';
import { IDS_UNKNOWN_MESSAGE, ROUTES, transitIdsNow } from './feed/transit-config';
import { inThreadJobs } from './predictions/jobs';

/** A route of the defaults, with its timetables. */
const route = (routeNo: string) => ROUTES.find((r) => r.routeNo === routeNo)!;

const taken = new Date('2026-11-23T08:00:00+09:00');
const later = (seconds: number) => new Date(taken.getTime() + seconds * 1000);

function stateWith(arrivals: [string, number, number][], lastError: string | null = null): FeedState {
  const snapshot = snapshotAt(taken, arrivals);
  snapshot.vehicles = [
    {
      routeNo: '1117',
      vehId: 'v1',
      plateNo: '경기70아1117',
      stationId: 'x',
      stationSeq: 3,
      stateCd: 1,
      section: { direction: 'up', stopIndex: 2 },
    },
    { routeNo: '1150', vehId: 'v2', plateNo: null, stationId: 'y', stationSeq: 9, stateCd: 1, section: null },
  ];
  return { source: 'gbis', snapshot, lastError, failingSince: lastError ? taken : null, nextPollAt: null };
}

/** Today's predictions of two routes: 1150 with every list, 1303 with estimates only, all past by 09:00. */
const predictions: RoutePredictions[] = [
  {
    routeNo: '1150',
    dayBefore: [new Date('2026-11-23T07:50:00+09:00'), new Date('2026-11-23T08:05:00+09:00')],
    weekBefore: [new Date('2026-11-23T08:00:00+09:00'), new Date('2026-11-23T08:30:00+09:00')],
    estimate: [
      { at: new Date('2026-11-23T07:55:00+09:00'), basis: 'history' },
      {
        at: new Date('2026-11-23T08:12:30+09:00'),
        basis: 'live',
        lowerAt: new Date('2026-11-23T08:11:40+09:00'),
        upperAt: new Date('2026-11-23T08:15:10+09:00'),
      },
      { at: new Date('2026-11-23T08:40:00+09:00'), basis: 'history' },
    ],
  },
  {
    routeNo: '1303',
    dayBefore: [],
    weekBefore: [],
    estimate: [{ at: new Date('2026-11-23T08:20:00+09:00'), basis: 'timetable' }],
  },
];

describe('timeLeftView', () => {
  it('gives the contract shape: one up entry per route in route order with minutes and stops, down empty', () => {
    const view = timeLeftView(
      stateWith([
        ['1005', 400, 4],
        ['1150', 660, 10],
      ]),
      taken,
    );
    expect(TimeLeftResponseSchema.parse(view)).toEqual(view);
    expect(groupRoutes(view, 'up').map((r) => [r.routeNo, r.time, r.location])).toEqual([
      ['1150', 11, 10],
      ['1005', 7, 4],
    ]);
    expect(view.data[1]).toEqual({ type: 'down', routes: [] });
    expect(view.vehicles).toEqual([
      { routeNo: '1117', plateNo: '경기70아1117', section: { direction: 'up', stopIndex: 2 } },
    ]);
    expect(view.feed).toEqual({
      source: 'gbis',
      takenAt: taken.toISOString(),
      ageSec: 0,
      vehiclesAgeSec: 0,
      stale: false,
      inService: true,
    });
  });

  it("says how old the vehicles' positions are: the oldest route's location read", () => {
    const state = stateWith([['1150', 660, 10]]);
    const snapshot = state.snapshot as FeedSnapshot;
    const read = (seconds: number) => new Date(taken.getTime() - seconds * 1000).toISOString();
    const paced = { ...state, snapshot: { ...snapshot, locationsTakenAt: { '1150': read(30), '1117': read(250) } } };
    expect(timeLeftView(paced, later(10)).feed).toMatchObject({ ageSec: 10, vehiclesAgeSec: 260 });
    // A snapshot read in one go: as old as its arrivals.
    expect(timeLeftView(state, later(10)).feed).toMatchObject({ ageSec: 10, vehiclesAgeSec: 10 });
  });

  it('advances remaining time by the seconds since the poll, rounding minutes up', () => {
    const view = timeLeftView(stateWith([['1150', 660, 10]]), later(90));
    expect(groupRoutes(view, 'up')[0]).toMatchObject({ predictTimeSec: 570, time: 10 });
    expect(view.feed.ageSec).toBe(90);
    expect(groupRoutes(timeLeftView(stateWith([['1150', 100, 1]]), later(70)), 'up')[0].time).toBe(1);
  });

  it("shows a route's second bus once the first should have arrived, else 0 minutes", () => {
    const state = stateWith([
      ['1150', 60, 1],
      ['1150', 900, 8],
    ]);
    expect(groupRoutes(timeLeftView(state, later(120)), 'up')[0]).toMatchObject({ time: 13, location: 8 });
    expect(groupRoutes(timeLeftView(stateWith([['1150', 60, 1]]), later(120)), 'up')[0]).toMatchObject({
      time: 0,
      predictTimeSec: 0,
    });
  });

  it('marks the data stale after a failed poll, with its age', () => {
    const view = timeLeftView(stateWith([['1150', 660, 10]], 'portal: quota'), later(600));
    expect(view.feed).toMatchObject({ stale: true, ageSec: 600 });
    expect(groupRoutes(view, 'up')[0].time).toBe(1);
  });

  it('says the feed is not set up, not late, while the GBIS ids are unknown; another failure stays stale', () => {
    const notSetUp = timeLeftView({ ...emptyFeedState('gbis'), lastError: `config: ${IDS_UNKNOWN_MESSAGE}` }, taken);
    expect(notSetUp.feed).toMatchObject({ stale: false, idsUnknown: true });
    const keyless = timeLeftView(
      { ...emptyFeedState('gbis'), lastError: 'config: the GBIS service key is empty' },
      taken,
    );
    expect(keyless.feed).not.toHaveProperty('idsUnknown');
    expect(timeLeftView(stateWith([['1150', 660, 10]], 'portal: quota'), later(600)).feed).not.toHaveProperty(
      'idsUnknown',
    );
  });

  it('is empty outside service hours and before the first poll', () => {
    const night = new Date('2026-11-24T02:00:00+09:00');
    const view = timeLeftView(stateWith([['1150', 660, 10]]), night);
    expect(groupRoutes(view, 'up')).toEqual([]);
    expect(view.vehicles).toEqual([]);
    expect(view.feed.inService).toBe(false);
    const empty = timeLeftView(emptyFeedState('demo'), taken);
    expect(empty.feed).toEqual({ source: 'demo', takenAt: null, ageSec: null, stale: false, inService: true });
  });

  it('down group: per route the first day-before, week-before and estimated departure not yet past, with its basis and range', () => {
    const view = timeLeftView(stateWith([['1150', 660, 10]]), taken, predictions);
    expect(TimeLeftResponseSchema.parse(view)).toEqual(view);
    expect(view.data[1]).toEqual({
      type: 'down',
      routes: [
        {
          routeNo: '1150',
          data: {
            dayBefore: '2026-11-23T08:05:00+09:00',
            weekBefore: '2026-11-23T08:00:00+09:00', // at `now` exactly: not yet past
            estimate: '2026-11-23T08:12:30+09:00',
          },
          basis: 'live',
          range: { lowerAt: '2026-11-23T08:11:40+09:00', upperAt: '2026-11-23T08:15:10+09:00' },
          lastRun: null,
        },
        {
          routeNo: '1303',
          data: { dayBefore: null, weekBefore: null, estimate: '2026-11-23T08:20:00+09:00' },
          basis: 'timetable',
          range: null, // a timetable estimate states none
          lastRun: '2026-11-23T08:20:00+09:00', // its day's one and last run, 20 minutes away
        },
      ],
    });
    const late = timeLeftView(stateWith([]), new Date('2026-11-23T09:00:00+09:00'), predictions);
    expect(groupRoutes(late, 'down')[0]).toEqual({
      routeNo: '1150',
      data: { dayBefore: null, weekBefore: null, estimate: null },
      basis: null,
      range: null,
      lastRun: null,
    });
  });

  it('down group: filled before the first poll, empty outside service hours', () => {
    const noPoll = emptyFeedState('demo');
    expect(groupRoutes(timeLeftView(noPoll, taken, predictions), 'down').map((r) => r.routeNo)).toEqual([
      '1150',
      '1303',
    ]);
    const night = new Date('2026-11-24T02:00:00+09:00');
    expect(groupRoutes(timeLeftView(stateWith([['1150', 660, 10]]), night, predictions), 'down')).toEqual([]);
  });
});

describe('staleness without a failed poll', () => {
  it('marks the snapshot stale once the planned next poll is over a minute late (a dead poller)', () => {
    const state = { ...stateWith([['1150', 660, 10]]), nextPollAt: later(300) };
    expect(timeLeftView(state, later(300 + STALE_GRACE_SEC)).feed.stale).toBe(false);
    expect(timeLeftView(state, later(300 + STALE_GRACE_SEC + 1)).feed.stale).toBe(true);
  });
});

describe('last run (막차): lastRun while the last run is near', () => {
  // 1150's day ends with its 23:30 estimate (8-minute layover); the plan of a day without history.
  const dayOf1150: RoutePredictions = {
    routeNo: '1150',
    dayBefore: [],
    weekBefore: [],
    estimate: [
      { at: new Date('2026-11-23T22:50:00+09:00'), basis: 'history' },
      { at: new Date('2026-11-23T23:30:00+09:00'), basis: 'history' },
    ],
  };

  it("marks the down route from 30 minutes before its day's last estimated departure until it leaves, in KST", () => {
    const at = (iso: string) => lastRunNear(dayOf1150, 'down', new Date(iso));
    expect(at('2026-11-23T22:59:59+09:00')).toBeNull();
    expect(at('2026-11-23T23:00:00+09:00')).toBe('2026-11-23T23:30:00+09:00');
    expect(at('2026-11-23T23:30:00+09:00')).toBe('2026-11-23T23:30:00+09:00');
    expect(at('2026-11-23T23:30:01+09:00')).toBeNull();
    expect(lastRunNear(undefined, 'down', new Date('2026-11-23T23:10:00+09:00'))).toBeNull();
    expect(lastRunNear({ ...dayOf1150, estimate: [] }, 'down', new Date('2026-11-23T23:10:00+09:00'))).toBeNull();
  });

  it('marks the up route until its last run is due at campus: the last departure less the layover', () => {
    const at = (iso: string) => lastRunNear(dayOf1150, 'up', new Date(iso), route('1150').layoverMin);
    expect(at('2026-11-23T22:51:59+09:00')).toBeNull();
    expect(at('2026-11-23T22:52:00+09:00')).toBe('2026-11-23T23:22:00+09:00');
    expect(at('2026-11-23T23:22:00+09:00')).toBe('2026-11-23T23:22:00+09:00');
    expect(at('2026-11-23T23:22:01+09:00')).toBeNull();
  });

  it('is carried by both groups of the answer, from the same predictions as the estimates', () => {
    const now = new Date('2026-11-23T23:10:00+09:00');
    const state = { ...stateWith([['1150', 300, 3]]), snapshot: snapshotAt(now, [['1150', 300, 3]]) };
    const view = timeLeftView(state, now, [...predictions.slice(1), dayOf1150]);
    expect(TimeLeftResponseSchema.parse(view)).toEqual(view);
    expect(groupRoutes(view, 'up')[0].lastRun).toBe('2026-11-23T23:22:00+09:00');
    expect(groupRoutes(view, 'down').map((r) => [r.routeNo, r.lastRun, r.data.estimate])).toEqual([
      ['1303', null, null], // its day ended at 08:20
      ['1150', '2026-11-23T23:30:00+09:00', '2026-11-23T23:30:00+09:00'],
    ]);
  });
});

describe('막차 on the demo feed: the mark, the estimate and the expected times modal agree', () => {
  // The demo's weekday timetable gives 1303's last bus as 22:50, but the simulator's buses, and so
  // the history the plan learns, end near 22:27. The home once marked "막차 22:50" (the timetable)
  // beside 예상 "–" from 22:27 on, while the modal (GET /bus/predicted) ended at 22:27.
  const SEED = 20240604; // DEMO_SEED's default (api/env.ts)
  const TODAY = '2026-11-23'; // a Monday
  /** What a fresh demo deployment back-fills (departures/store.ts backfillDemoHistory): 28 days before. */
  const history: ObservedDeparture[] = Array.from({ length: 28 }, (_, i) => addServiceDays(TODAY, i - 28)).flatMap(
    (date) =>
      planDay(SEED, date).map((run) => ({
        routeNo: run.routeNo,
        serviceDate: run.serviceDate,
        departedAt: run.departure,
        arrivedAt: run.upStops[0],
      })),
  );

  it('from 21:55 to 22:50, each minute: the card marks 막차 exactly when the modal’s last time is 30 minutes away or less, and then shows an estimate', async () => {
    const clock = new FakeClock(new Date(`${TODAY}T21:55:00+09:00`));
    const logger = recordingLogger();
    const transit = transitIdsNow();
    const predictions = createPredictionService({
      jobs: inThreadJobs,
      loadHistory: async ({ fromDate, toDate }) =>
        history.filter((d) => d.serviceDate >= fromDate && d.serviceDate <= toDate),
      logger,
      transit,
    });
    let state: FeedState = emptyFeedState('demo');
    const liveView = createLiveView({ feed: { current: () => state }, clock, predictions, transit, logger });
    const bus = busRoutes({ clock, logger, predictions, liveView } as unknown as ApiContext);
    await predictions.today(clock.now()); // the day's plan, learnt from the history

    const seen: { at: string; lastRun: string | null; estimate: string | null; modalLast: string }[] = [];
    for (let step = 0; step <= 55; step += 1) {
      if (step > 0) clock.advance(60);
      const now = clock.now();
      // The demo poller's snapshot of this instant, as live evidence and as the feed's state.
      const snapshot = demoSnapshotAt(SEED, now);
      predictions.observe(snapshot);
      state = { source: 'demo', snapshot, lastError: null, failingSince: null, nextPollAt: null };

      const card = groupRoutes((await liveView.current()).view, 'down').find((r) => r.routeNo === '1303')!;
      const modal = PredictedRouteResponseSchema.parse(await (await bus.request('/predicted/1303')).json());
      const modalLast = modal.predictedDownTimes.at(-1)!;
      const minutesAway = (Date.parse(modalLast) - now.getTime()) / 60_000;
      expect(card.lastRun).toBe(minutesAway >= 0 && minutesAway <= LAST_RUN_NOTICE_MIN ? modalLast : null);
      if (card.lastRun) expect(card.data.estimate).not.toBeNull();
      seen.push({
        at: formatKstIso(now).slice(11, 19),
        estimate: card.data.estimate,
        lastRun: card.lastRun ?? null,
        modalLast,
      });
    }
    const at = (hhmmss: string) => seen.find((s) => s.at === hhmmss)!;
    // Before the last run: the mark names the modal's last time, and the estimate is shown.
    expect(at('22:10:00').lastRun).toBe(at('22:10:00').modalLast);
    expect(at('22:10:00').modalLast.slice(11, 16)).toBe('22:26');
    expect(at('22:10:00').estimate).not.toBeNull();
    // 22:39–22:47, when the walk-through saw "막차 22:50" with 예상 "–": the day's last run has left,
    // and nothing claims a run to come.
    for (const moment of ['22:39:00', '22:43:00', '22:47:00']) {
      expect(at(moment)).toMatchObject({ lastRun: null, estimate: null });
      expect(Date.parse(at(moment).modalLast)).toBeLessThan(Date.parse(`${TODAY}T${moment}+09:00`));
    }
  }, 60_000);
});
