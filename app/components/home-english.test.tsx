// @vitest-environment happy-dom
/**
 * The home's parts in English (docs/product.md §1 Languages): the catalog's words, plurals by
 * count, times said as English says them, and no Korean left.
 */
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { DownRoute, UpRoute } from '../../contract/bus';
import { ArrivalCards, DepartureCards } from '~/components/arrival-cards';
import { FeedNotices } from '~/components/feed-notices';
import { ProgressLine } from '~/components/progress-line';
import { I18nProvider } from '~/i18n/i18n';
import en from '~/i18n/compiled/en.js';

afterEach(cleanup);

const inEnglish = (page: ReactNode) =>
  render(
    <I18nProvider locale="en" english={en}>
      {page}
    </I18nProvider>,
  );
const HANGUL = /[\uac00-\ud7a3]/;

const upRoute = (fields: Partial<UpRoute>): UpRoute => ({
  routeNo: '1150',
  time: 10,
  location: 5,
  predictTimeSec: 600,
  plateNo: null,
  remainSeatCnt: null,
  lowPlate: null,
  stationName: null,
  ...fields,
});

describe('the home in English', () => {
  it('says an up card in English, one and many by count', () => {
    const { container } = inEnglish(
      <ArrivalCards
        routes={[
          upRoute({ time: 3, location: 1, remainSeatCnt: 1, lowPlate: 1, plateNo: '경기70아1234' }),
          upRoute({ routeNo: '1005', time: 12, location: 6, remainSeatCnt: 20 }),
        ]}
      />,
    );
    expect(screen.getByText('3 min').className).toContain('card__time--soon');
    expect(screen.getByText('1 stop away')).toBeTruthy();
    expect(screen.getByText('6 stops away')).toBeTruthy();
    expect(
      screen.getByText(
        'Bus 1150, arrives in 3 minutes, 1 stop away, Arriving soon, 1 seat left, low-floor bus, bus plate 경기70아1234',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Bus 1005, arrives in 12 minutes, 6 stops away, 20 seats left')).toBeTruthy();
    // The plate is the vehicle's own name, as GBIS spells it.
    expect(container.textContent?.replaceAll('경기70아1234', '')).not.toMatch(HANGUL);
  });

  it('says a down card, its range and its basis in English, times as English says them', () => {
    const route: DownRoute = {
      routeNo: '1150',
      data: { dayBefore: '2026-11-27T22:39:00+09:00', weekBefore: null, estimate: '2026-11-28T22:41:00+09:00' },
      basis: 'history',
      range: { lowerAt: '2026-11-28T22:40:00+09:00', upperAt: '2026-11-28T22:44:00+09:00' },
      lastRun: '2026-11-28T22:41:00+09:00',
    } as DownRoute;
    const { container } = inEnglish(<DepartureCards routes={[route]} />);
    for (const text of ['Yesterday', '7 days ago', 'Expected', 'from past runs', 'no information'])
      expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByText('22:41. It usually leaves between 22:40 and 22:44.')).toBeTruthy();
    expect(container.querySelector('.card__last-run')?.textContent).toBe('Last bus 22:41 leaves');
    expect(container.textContent).not.toMatch(HANGUL);
  });

  it('says the notices and the line in English', () => {
    const feed = { source: 'demo', idsUnknown: false, stale: true, ageSec: 130, inService: false } as const;
    const { container } = inEnglish(
      <>
        <FeedNotices failed={false} lostAgeSec={65} feed={feed as never} />
        <ProgressLine direction="down" vehicles={[]} vehiclesAgeSec={61} />
      </>,
    );
    expect(screen.getByText('Connection lost: this is from 1 minute ago')).toBeTruthy();
    expect(screen.getByText('Out of service hours (05:00–24:30)')).toBeTruthy();
    expect(screen.getByText('No bus on this stretch as of 1 minute ago.')).toBeTruthy();
    expect(container.querySelector('.notice .badge')?.textContent).toBe('Demo data');
    // Each stop in English, with the Korean of its sign marked as Korean; nothing else Korean.
    const stops = [...container.querySelectorAll('.stop__name')];
    expect(stops.map((stop) => stop.firstChild?.textContent)).toEqual([
      'Paranjibung (Blue Roof)',
      'Dormitory',
      'Mohyeon Crossroads',
      'HUFS Crossroads',
    ]);
    container.querySelectorAll('[lang="ko"]').forEach((korean) => korean.remove());
    expect(container.textContent).not.toMatch(HANGUL);
  });
});
