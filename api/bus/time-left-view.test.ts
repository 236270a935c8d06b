import { emptyFeedState } from './feed/store';
import { TimeLeftResponseSchema } from '../../contract/bus';
import { snapshotAt } from '../../tests/setup/fakes';
import type { FeedState } from './feed/store';
import type { RoutePredictions } from './predictions/day-plan';
import { lastRunNear, STALE_GRACE_SEC, timeLeftView } from './time-left-view';
import { groupRoutes } from '../../contract/time-left-groups';
import { IDS_UNKNOWN_MESSAGE, ROUTES } from './feed/transit-config';

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
      stale: false,
      inService: true,
    });
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

  it('down group: per route the first yesterday, last-week and estimated departure not yet past, with its basis and range', () => {
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
          lastRun: null,
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
  // 2026-11-23 is a Monday (weekday timetable: 1150 last 23:30 with an 8-minute layover, 1303 last
  // 22:50); 2026-11-28 a Saturday (1150: 23:20).
  it('marks the down route from 30 minutes before its last departure until it leaves, with that time in KST', () => {
    const at = (iso: string) => lastRunNear(route('1150'), 'down', new Date(iso));
    expect(at('2026-11-23T22:59:59+09:00')).toBeNull();
    expect(at('2026-11-23T23:00:00+09:00')).toBe('2026-11-23T23:30:00+09:00');
    expect(at('2026-11-23T23:30:00+09:00')).toBe('2026-11-23T23:30:00+09:00');
    expect(at('2026-11-23T23:30:01+09:00')).toBeNull();
    expect(lastRunNear(route('1303'), 'down', new Date('2026-11-23T23:00:00+09:00'))).toBeNull();
    expect(lastRunNear(route('1303'), 'down', new Date('2026-11-23T22:30:00+09:00'))).toBe('2026-11-23T22:50:00+09:00');
  });

  it('marks the up route until its last run is due at campus: the last departure less the layover', () => {
    const at = (iso: string) => lastRunNear(route('1150'), 'up', new Date(iso));
    expect(at('2026-11-23T22:51:59+09:00')).toBeNull();
    expect(at('2026-11-23T22:52:00+09:00')).toBe('2026-11-23T23:22:00+09:00');
    expect(at('2026-11-23T23:22:00+09:00')).toBe('2026-11-23T23:22:00+09:00');
    expect(at('2026-11-23T23:22:01+09:00')).toBeNull();
  });

  it("follows the day type's timetable", () => {
    expect(lastRunNear(route('1150'), 'down', new Date('2026-11-28T23:00:00+09:00'))).toBe('2026-11-28T23:20:00+09:00');
  });

  it('is carried by both groups of the answer', () => {
    const now = new Date('2026-11-23T23:10:00+09:00');
    const state = { ...stateWith([['1150', 300, 3]]), snapshot: snapshotAt(now, [['1150', 300, 3]]) };
    const view = timeLeftView(state, now, predictions);
    expect(TimeLeftResponseSchema.parse(view)).toEqual(view);
    expect(groupRoutes(view, 'up')[0].lastRun).toBe('2026-11-23T23:22:00+09:00');
    expect(groupRoutes(view, 'down').map((r) => [r.routeNo, r.lastRun])).toEqual([
      ['1150', '2026-11-23T23:30:00+09:00'],
      ['1303', null],
    ]);
  });
});
