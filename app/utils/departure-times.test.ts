import { homeViewSearch } from '~/utils/home-view';
import {
  apiNow,
  mergeByTime,
  nextTimeIndex,
  orderRoutes,
  parseRouteFilter,
  rangesOf,
  timesModalFromSearch,
  timesModalHref,
  timesResourceHref,
} from '~/utils/departure-times';
import { predictedAllBody } from '../../tests/mocks/api';

const search = (query: string) => new URLSearchParams(query);
/** 08:05's 80 % range, 08:04 to 08:08. */
const wide = { lowerAt: '2026-09-03T08:04:00+09:00', upperAt: '2026-09-03T08:08:00+09:00' };

describe('the modal state in the URL', () => {
  it('accepts exactly the docs/product.md §9 filter options', () => {
    expect(['all', '1150', '1117', '1303', '1005'].map(parseRouteFilter)).toEqual([
      'all',
      '1150',
      '1117',
      '1303',
      '1005',
    ]);
    expect(parseRouteFilter('9999')).toBeUndefined();
    expect(parseRouteFilter(null)).toBeUndefined();
  });

  it('is open only on the down tab with `times`', () => {
    expect(timesModalFromSearch(search('dir=down'))).toBeNull();
    expect(timesModalFromSearch(search('times=all'))).toBeNull();
    expect(timesModalFromSearch(search('dir=up&times=all'))).toBeNull();
    expect(timesModalFromSearch(search('dir=down&times=all'))).toEqual({ route: 'all', sorted: false });
    expect(timesModalFromSearch(search('dir=down&times=1303'))).toEqual({ route: '1303', sorted: false });
  });

  it('sorts chronologically only when all routes are shown', () => {
    expect(timesModalFromSearch(search('dir=down&times=all&sort=time'))).toEqual({ route: 'all', sorted: true });
    expect(timesModalFromSearch(search('dir=down&times=1150&sort=time'))).toEqual({ route: '1150', sorted: false });
  });

  it('opens on all for an unknown filter', () => {
    expect(timesModalFromSearch(search('dir=down&times=9999'))).toEqual({ route: 'all', sorted: false });
    expect(timesModalFromSearch(search('dir=down&times='))).toEqual({ route: 'all', sorted: false });
  });

  it('writes the state back as a home URL, closed on the down tab', () => {
    expect(timesModalHref(null, false)).toBe('/?dir=down');
    expect(timesModalHref({ route: 'all', sorted: false }, false)).toBe('/?dir=down&times=all');
    expect(timesModalHref({ route: 'all', sorted: true }, false)).toBe('/?dir=down&times=all&sort=time');
    expect(timesModalHref({ route: '1117', sorted: true }, false)).toBe('/?dir=down&times=1117');
    // The no-JavaScript reload stays stopped, spelt as the home's one URL of that view.
    expect(timesModalHref(null, true)).toBe('/?dir=down&refresh=off');
    expect(timesModalHref({ route: 'all', sorted: true }, true)).toBe('/?dir=down&times=all&sort=time&refresh=off');
    for (const href of [timesModalHref(null, true), timesModalHref({ route: '1303', sorted: false }, true)]) {
      expect(homeViewSearch(new URL(href, 'http://x').searchParams)).toBe(href.slice(2));
    }
    expect(timesResourceHref('1005')).toBe('/bus/predicted?route=1005');
  });
});

describe('the times', () => {
  it('orders the routes of /predicted/all as docs/product.md lists them, unknown routes last', () => {
    expect(orderRoutes(predictedAllBody.predictedDownTimes).map((route) => route.routeNo)).toEqual([
      '1150',
      '1117',
      '1303',
      '1005',
    ]);
    expect(orderRoutes({ '9000': [], '1005': [], '8000': [] }).map((route) => route.routeNo)).toEqual([
      '1005',
      '8000',
      '9000',
    ]);
  });

  it('keeps each time’s range with it, null where the api states none or states no ranges at all', () => {
    const routes = orderRoutes(predictedAllBody.predictedDownTimes, [], predictedAllBody.ranges);
    for (const { routeNo, times, ranges } of routes) {
      expect(ranges, routeNo).toHaveLength(times.length);
      expect(ranges, routeNo).toEqual(predictedAllBody.ranges?.[routeNo]);
    }
    expect(orderRoutes(predictedAllBody.predictedDownTimes).map((route) => route.ranges)).toEqual([
      [null, null, null],
      [null, null, null],
      [],
      [null, null],
    ]);
    // A list shorter than the times leaves the rest without a range.
    expect(rangesOf(['2026-09-03T08:05:00+09:00', '2026-09-03T08:25:00+09:00'], [wide])).toEqual([wide, null]);
  });

  it('merges the routes into one chronological list with their ranges, equal times in route order', () => {
    const merged = mergeByTime([
      { routeNo: '1150', times: ['2026-09-03T08:05:00+09:00', '2026-09-03T08:25:00+09:00'], ranges: [wide, null] },
      { routeNo: '1117', times: ['2026-09-03T08:00:00+09:00', '2026-09-03T08:05:00+09:00'] },
      // The same instant in UTC sorts by instant, not by text.
      { routeNo: '1005', times: ['2026-09-02T23:10:00Z'] },
    ]);
    expect(merged).toEqual([
      { routeNo: '1117', time: '2026-09-03T08:00:00+09:00', range: null },
      { routeNo: '1150', time: '2026-09-03T08:05:00+09:00', range: wide },
      { routeNo: '1117', time: '2026-09-03T08:05:00+09:00', range: null },
      { routeNo: '1005', time: '2026-09-02T23:10:00Z', range: null },
      { routeNo: '1150', time: '2026-09-03T08:25:00+09:00', range: null },
    ]);
  });

  it('finds the next time: the first at or after now', () => {
    const times = ['2026-09-03T07:45:00+09:00', '2026-09-03T08:05:00+09:00', '2026-09-03T08:25:00+09:00'];
    expect(nextTimeIndex(times, Date.parse('2026-09-03T07:00:00+09:00'))).toBe(0);
    expect(nextTimeIndex(times, Date.parse('2026-09-03T07:45:01+09:00'))).toBe(1);
    expect(nextTimeIndex(times, Date.parse('2026-09-03T08:05:00+09:00'))).toBe(1);
    expect(nextTimeIndex(times, Date.parse('2026-09-03T08:25:01+09:00'))).toBe(-1);
    expect(nextTimeIndex([], 0)).toBe(-1);
  });

  it("judges 'now' by the api's clock: the feed's takenAt plus its age", () => {
    const feed = {
      source: 'demo',
      takenAt: '2026-11-22T23:00:00.000Z',
      ageSec: 30,
      stale: false,
      inService: true,
    } as const;
    expect(apiNow(feed, 1)).toBe(Date.parse('2026-11-23T08:00:30+09:00'));
    expect(apiNow({ ...feed, takenAt: null, ageSec: null }, 1)).toBe(1);
    expect(apiNow(null, 1)).toBe(1);
  });
});
