// @vitest-environment happy-dom
/**
 * The home's notices and line in English (docs/product.md §1 Languages): the catalog's words,
 * plurals by count, the stops' English names beside their signs' Korean, and no Korean left.
 * The cards in English: arrival-cards.test.tsx.
 */
import { cleanup, screen } from '@testing-library/react';
import { FeedNotices } from '~/components/feed-notices';
import { ProgressLine } from '~/components/progress-line';
import { HANGUL, renderInEnglish } from '../../tests/setup/english';

afterEach(cleanup);

describe('the home’s notices and line in English', () => {
  it('says the notices and the line in English', () => {
    const feed = { source: 'demo', idsUnknown: false, stale: true, ageSec: 130, inService: false } as const;
    const { container } = renderInEnglish(
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
