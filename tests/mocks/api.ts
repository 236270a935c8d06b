/**
 * msw handlers standing in for the Campus Bus API in web tests: the web's loaders reach it through
 * `apiContext()`, whose `api.fetch` is the global fetch that msw intercepts.
 */
import type { AppLoadContext } from '@remix-run/node';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createTimeLeftAnswers, type TimeLeftAnswers } from '../../app/server/time-left-cache.server';
import type { ApiBinding } from '../../app/models/upstream.server';
import { DEFAULT_SERVICE_NOTICE, type ServiceNotice } from '../../contract/admin';
import type { AdBanner } from '../../contract/ads';
import type { PredictedAllResponse, PredictionAccuracy, TimeLeftResponse } from '../../contract/bus';

export const API_BASE_URL = 'http://api.test';

/** A load context whose api is reached over HTTP at API_BASE_URL (server.ts's API_BASE_URL mode). */
export function apiContext(): AppLoadContext {
  const api: ApiBinding = { baseUrl: API_BASE_URL, fetch: (request) => fetch(request) };
  return { api, timeLeft: timeLeftAnswersOn(api) };
}

/** The refresh route's shared answer as server.ts builds it on `api`, each failure logged with console.error. */
export function timeLeftAnswersOn(api: ApiBinding): TimeLeftAnswers {
  return createTimeLeftAnswers({
    api,
    headers: {},
    failures: { fail: (error) => console.error('[bus/time-left] the api fails:', error), ok: () => undefined },
  });
}

/**
 * A contract-valid GET /api/bus/timeLeft answer from the demo feed: three up arrivals (soon, normal,
 * no information), one down prediction (08:10, 80 % range 08:09~08:13), and one vehicle per direction.
 */
export const timeLeftBody: TimeLeftResponse = {
  data: [
    {
      type: 'up',
      routes: [
        {
          routeNo: '1150',
          time: 3,
          location: 2,
          predictTimeSec: 170,
          plateNo: '경기70아1234',
          remainSeatCnt: 12,
          lowPlate: 1,
          stationName: '모현사거리',
        },
        {
          routeNo: '1117',
          time: 12,
          location: 6,
          predictTimeSec: 700,
          plateNo: null,
          remainSeatCnt: null,
          lowPlate: 0,
          stationName: null,
        },
        {
          routeNo: '1303',
          time: 0,
          location: 0,
          predictTimeSec: 0,
          plateNo: null,
          remainSeatCnt: null,
          lowPlate: null,
          stationName: null,
        },
      ],
    },
    {
      type: 'down',
      routes: [
        {
          routeNo: '1150',
          data: {
            dayBefore: '2026-09-03T08:05:00+09:00',
            weekBefore: null,
            estimate: '2026-09-03T08:10:00+09:00',
          },
          basis: 'history',
          range: { lowerAt: '2026-09-03T08:09:00+09:00', upperAt: '2026-09-03T08:13:00+09:00' },
        },
      ],
    },
  ],
  vehicles: [
    { routeNo: '1150', plateNo: '경기70아1234', section: { direction: 'up', stopIndex: 1 } },
    { routeNo: '1005', plateNo: null, section: { direction: 'down', stopIndex: 2 } },
  ],
  feed: {
    source: 'demo',
    takenAt: '2026-09-02T23:00:00.000Z',
    ageSec: 2,
    stale: false,
    inService: true,
  },
};

const TIME_LEFT_URL = `${API_BASE_URL}/api/bus/timeLeft`;

/** The api answering /api/bus/timeLeft with `body` (default: timeLeftBody). */
export function timeLeftHandler(body: TimeLeftResponse = timeLeftBody) {
  return http.get(TIME_LEFT_URL, () => HttpResponse.json(body));
}

/** The api failing /api/bus/timeLeft with HTTP 503, as when it cannot reach its database. */
export const timeLeftFailureHandler = http.get(TIME_LEFT_URL, () =>
  HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 }),
);

/** An 80 % range (contract DepartureRange) on 2026-09-03 from `lower` to `upper`, "HH:mm:ss" KST. */
const range = (lower: string, upper: string) => ({
  lowerAt: `2026-09-03T${lower}+09:00`,
  upperAt: `2026-09-03T${upper}+09:00`,
});

/**
 * A contract-valid GET /api/bus/predicted/all answer for the morning of 2026-09-03 (KST), keyed as
 * JSON objects order integer-like keys (ascending), not in the spec's route order. The ranges:
 * wider than 2 minutes for 1150's 07:45 and 08:05 and 1117's 08:12 and 08:40 (shown); exactly 2
 * minutes for 1150's 08:25 and 90 seconds for 1117's 08:00 (not shown); none for 1005 (timetable).
 */
export const predictedAllBody: PredictedAllResponse = {
  predictedDownTimes: {
    '1005': ['2026-09-03T07:50:00+09:00', '2026-09-03T08:20:00+09:00'],
    '1117': ['2026-09-03T08:00:00+09:00', '2026-09-03T08:12:00+09:00', '2026-09-03T08:40:00+09:00'],
    '1150': ['2026-09-03T07:45:00+09:00', '2026-09-03T08:05:00+09:00', '2026-09-03T08:25:00+09:00'],
    '1303': [],
  },
  timetableOnly: ['1005'],
  ranges: {
    '1005': [null, null],
    '1117': [range('07:59:30', '08:01:00'), range('08:11:00', '08:15:30'), range('08:39:00', '08:44:00')],
    '1150': [range('07:44:00', '07:48:00'), range('08:04:00', '08:08:00'), range('08:24:00', '08:26:00')],
    '1303': [],
  },
};

const PREDICTED_URL = `${API_BASE_URL}/api/bus/predicted`;

/**
 * The api answering /api/bus/predicted/all with `body` (default: predictedAllBody, 1005 from the
 * timetable alone) and /api/bus/predicted/{routeNo} with that route's times, or 404 `{ message }`
 * for a route it lacks.
 */
export function predictedHandlers(body: PredictedAllResponse = predictedAllBody) {
  return [
    http.get(`${PREDICTED_URL}/all`, () => HttpResponse.json(body)),
    http.get(`${PREDICTED_URL}/:routeNo`, ({ params }) => {
      const routeNo = String(params.routeNo);
      const times = body.predictedDownTimes[routeNo];
      return times
        ? HttpResponse.json({
            routeNo,
            predictedDownTimes: times,
            timetableOnly: body.timetableOnly?.includes(routeNo) ?? false,
            ...(body.ranges && { ranges: body.ranges[routeNo] ?? [] }),
          })
        : HttpResponse.json({ message: `unknown route: ${routeNo}` }, { status: 404 });
    }),
  ];
}

/** The api failing every /api/bus/predicted call with HTTP 503. */
export const predictedFailureHandler = http.get(`${PREDICTED_URL}/*`, () =>
  HttpResponse.json({ message: 'Service Unavailable' }, { status: 503 }),
);

/** The api answering GET /api/web/ads with `data` (default: no ads, so the default banner shows). */
export function webAdsHandler(data: AdBanner[] = []) {
  return http.get(`${API_BASE_URL}/api/web/ads`, () => HttpResponse.json({ data }));
}

/** The api answering GET /api/notice: off by default, or on with the docs/product.md §4 preset (or `notice`). */
export function noticeHandler(enabled = false, notice: Omit<ServiceNotice, 'enabled'> = DEFAULT_SERVICE_NOTICE) {
  return http.get(`${API_BASE_URL}/api/notice`, () => HttpResponse.json({ enabled, ...notice }));
}

/** GET /api/bus/accuracy with 14 days of GBIS history (spread.ts ETA_BUCKETS as the tolerances): MAE 104 s. */
export const accuracyBody = {
  source: 'gbis',
  computedAt: '2026-11-22T15:40:00.000Z',
  window: { days: 14, firstDate: '2026-11-09', lastDate: '2026-11-22' },
  estimate: { etaScore: 64.8, maeSec: 104, queries: 38664 },
  dayBefore: { etaScore: 41.4, maeSec: 328, queries: 38664 },
  tolerances: [
    { fromSec: 0, toSec: 180, earlySec: 30, lateSec: 90 },
    { fromSec: 180, toSec: 360, earlySec: 60, lateSec: 150 },
    { fromSec: 360, toSec: 600, earlySec: 60, lateSec: 210 },
    { fromSec: 600, toSec: 900, earlySec: 90, lateSec: 270 },
  ],
} satisfies PredictionAccuracy;

export const ACCURACY_URL = `${API_BASE_URL}/api/bus/accuracy`;

export function accuracyHandler(body: PredictionAccuracy = accuracyBody) {
  return http.get(ACCURACY_URL, () => HttpResponse.json(body));
}

/** Every handler of the healthy api. */
export const apiHandlers = [
  timeLeftHandler(),
  ...predictedHandlers(),
  webAdsHandler(),
  noticeHandler(),
  accuracyHandler(),
];

/**
 * An msw server standing in for the api in this test file, started before its tests and reset
 * after each (handlers and spies); `server.use(...)` overrides a handler for one test.
 */
export function setupApiServer(...handlers: Parameters<typeof setupServer>) {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    vi.restoreAllMocks();
  });
  afterAll(() => server.close());
  return server;
}

/**
 * The home loader's data for UI tests rendering the route without a server: no ads, no third-party
 * slots; `accuracy` is the down tab's sentence (none by default).
 */
export function homeData(
  timeLeft: TimeLeftResponse | null,
  departureTimes: unknown = null,
  notice: Omit<ServiceNotice, 'enabled'> | null = null,
  accuracy: string | null = null,
) {
  return { timeLeft, departureTimes, banners: [], adSlots: { adfitUnit: null, adsense: null }, notice, accuracy };
}
