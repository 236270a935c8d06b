/**
 * The expected departure times modal of the down tab (docs/product.md §2 "Expected departure times modal",
 * §3.3 Predicted times, §4.2 Expected times modal, §8, §9): its URL state, its copy, and the rules for
 * grouping, sorting and the next upcoming time. Isomorphic: the home loader (no JavaScript), the
 * resource route and the dialog all use it.
 */
import home from '~/i18n/compiled/ko/home.js';
import type { DepartureRange, FeedStatus } from '../../contract/bus';
import { ROUTE_NOS } from '../../contract/transit';
import { NOSCRIPT_REFRESH_PARAM } from '~/utils/countdown';

/** docs/product.md §9: the route filter's options, in docs/product.md's order. */
export const ROUTE_FILTERS = ['all', ...ROUTE_NOS] as const;
export type RouteFilter = (typeof ROUTE_FILTERS)[number];

/**
 * docs/product.md §8: the times' answer when they cannot be loaded, in Korean as the api's messages
 * are; the modal says it in the page's language (times.loadFailed).
 */
export const TIMES_LOAD_FAILED = home['times.loadFailed']();

/** The modal's state in the URL: `?dir=down&times=<filter>[&sort=time]` (sort only with `all`). */
export type TimesModalState = { route: RouteFilter; sorted: boolean };

/**
 * A route's times for the modal: its expected departures today, ascending ISO date-times in KST
 * (contract KstDateTime); `ranges`, parallel to `times`, the 80 % range of each (null where the
 * api states none); `timetableOnly`: they rest on the timetable alone (too little history).
 */
export type RouteTimes = {
  routeNo: string;
  times: string[];
  ranges: (DepartureRange | null)[];
  timetableOnly: boolean;
};

/**
 * What the modal shows for one filter: the routes' times (one entry for a single route; every route
 * for `all`, in ROUTE_FILTERS order, then any other route the api knows), or the docs/product.md §8 failure.
 */
export type TimesAnswer = { route: RouteFilter; routes: RouteTimes[] } | { route: RouteFilter | null; message: string };

/** `value` as a route filter; undefined for anything that is not one of the docs/product.md §9 options. */
export function parseRouteFilter(value: string | null): RouteFilter | undefined {
  return ROUTE_FILTERS.find((option) => option === value);
}

/**
 * The modal's state read from the home URL: null (closed) unless the down tab is shown and `times`
 * is present. An unknown `times` value opens the modal on `all`.
 */
export function timesModalFromSearch(params: URLSearchParams): TimesModalState | null {
  if (params.get('dir') !== 'down' || !params.has('times')) return null;
  const route = parseRouteFilter(params.get('times')) ?? 'all';
  return { route, sorted: route === 'all' && params.get('sort') === 'time' };
}

/**
 * The home URL of a modal state (null: closed on the down tab), its parameters in homeViewSearch's
 * order; with `refreshOff`, the no-JavaScript reload stays stopped (docs/product.md §2.3 Countdown).
 */
export function timesModalHref(state: TimesModalState | null, refreshOff: boolean): string {
  const params = new URLSearchParams({ dir: 'down' });
  if (state) params.set('times', state.route);
  if (state?.route === 'all' && state.sorted) params.set('sort', 'time');
  if (refreshOff) params.set(NOSCRIPT_REFRESH_PARAM, 'off');
  return `/?${params}`;
}

/** Same-origin resource route of the times (app/routes/bus.predicted.ts). */
export function timesResourceHref(route: RouteFilter): string {
  return `/bus/predicted?route=${route}`;
}

/**
 * `ranges` (an api answer's, parallel to `times`, possibly absent) as one entry per time: null
 * where the api states no range.
 */
export function rangesOf(
  times: readonly string[],
  ranges: readonly (DepartureRange | null)[] | undefined,
): (DepartureRange | null)[] {
  return times.map((_, index) => ranges?.[index] ?? null);
}

/**
 * The routes of a GET /api/bus/predicted/all answer in docs/product.md order (ROUTE_FILTERS, then
 * the rest ascending), each with its times' ranges (`ranges`, keyed by routeNo like the times).
 */
export function orderRoutes(
  predictedDownTimes: Record<string, string[]>,
  timetableOnly: readonly string[] = [],
  ranges: Record<string, (DepartureRange | null)[]> = {},
): RouteTimes[] {
  const rank = (routeNo: string) => {
    const index = ROUTE_FILTERS.indexOf(routeNo as RouteFilter);
    return index === -1 ? ROUTE_FILTERS.length : index;
  };
  return (
    Object.entries(predictedDownTimes)
      .map(([routeNo, times]) => ({
        routeNo,
        times,
        ranges: rangesOf(times, ranges[routeNo]),
        timetableOnly: timetableOnly.includes(routeNo),
      }))
      // Code-unit order, not localeCompare: route numbers are ASCII, and a collator would start ICU.
      .sort((a, b) => rank(a.routeNo) - rank(b.routeNo) || (a.routeNo < b.routeNo ? -1 : a.routeNo > b.routeNo ? 1 : 0))
  );
}

/** Every route's times in one chronological list, each with its range (null: none); equal times keep the routes' order. */
export function mergeByTime(
  routes: readonly (Pick<RouteTimes, 'routeNo' | 'times'> & { ranges?: RouteTimes['ranges'] })[],
): { routeNo: string; time: string; range: DepartureRange | null }[] {
  return routes
    .flatMap(({ routeNo, times, ranges }) =>
      times.map((time, index) => ({ routeNo, time, range: ranges?.[index] ?? null, at: Date.parse(time) })),
    )
    .sort((a, b) => a.at - b.at)
    .map(({ routeNo, time, range }) => ({ routeNo, time, range }));
}

/** Index of the next upcoming time: the first one at or after `now` (epoch ms); -1 when all have passed. */
export function nextTimeIndex(times: readonly string[], now: number): number {
  return times.findIndex((time) => Date.parse(time) >= now);
}

/**
 * "Now" as the api sees it (epoch ms): the feed's takenAt plus its age. The predictions are for the
 * api's today, so the next time is judged by the api's clock (a demo may start it at a fixed hour,
 * CLOCK_START), not the phone's. Falls back to `fallback` when the feed has no snapshot.
 */
export function apiNow(feed: FeedStatus | null | undefined, fallback: number): number {
  if (!feed?.takenAt || feed.ageSec === null) return fallback;
  return Date.parse(feed.takenAt) + feed.ageSec * 1000;
}
