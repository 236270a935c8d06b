// @vitest-environment happy-dom
/**
 * The home's notices and line in English (docs/product.md §1 Languages): the catalog's words,
 * plurals by count, the stops' English names beside their signs' Korean, and no Korean left.
 * The service notice in the admins' English, else in Korean marked so. The cards in English:
 * arrival-cards.test.tsx.
 */
import { cleanup, screen } from '@testing-library/react';
import { FeedNotices } from '~/components/feed-notices';
import { ProgressLine } from '~/components/progress-line';
import { ServiceNoticeModal } from '~/components/service-notice-modal';
import { MemoryRouter } from 'react-router-dom';
import { DEFAULT_SERVICE_NOTICE, type PublicNotice } from '../../contract/admin';
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

  it('says a bus on the line with its plate marked as Korean', () => {
    const bus = { routeNo: '1150', plateNo: '경기70아1234', section: { direction: 'up', stopIndex: 1 } } as const;
    const { container } = renderInEnglish(<ProgressLine direction="up" vehicles={[bus]} vehiclesAgeSec={0} />);
    expect(container.querySelector('.chip .sr-only')?.textContent).toBe(' bus, plate 경기70아1234');
    expect(container.querySelector('.chip [lang="ko"]')?.textContent).toBe('경기70아1234');
    container.querySelectorAll('[lang="ko"]').forEach((korean) => korean.remove());
    expect(container.textContent).not.toMatch(HANGUL);
  });
});

describe('the service notice on an English page', () => {
  // A Remix link needs a router around it; the notice's text is what is tested here.
  const renderNotice = (notice: PublicNotice) =>
    renderInEnglish(
      <MemoryRouter>
        <ServiceNoticeModal notice={notice} />
      </MemoryRouter>,
    );

  it('shows the admins’ English when they gave one', () => {
    renderNotice(DEFAULT_SERVICE_NOTICE);
    const dialog = screen.getByRole('alertdialog', { name: 'Service temporarily suspended' });
    expect(dialog.textContent).toContain('so live bus information is suspended');
    expect(dialog.textContent).toContain('Questions? Contact us.');
    expect(dialog.querySelector('[lang]')).toBeNull();
    expect(dialog.textContent).not.toMatch(HANGUL);
  });

  it('shows the Korean, marked as Korean, when no English was given (or only half of it)', () => {
    renderNotice({ title: '점검 안내', text: '오늘 밤 점검합니다.', titleEn: 'Maintenance', textEn: null });
    const dialog = screen.getByRole('alertdialog', { name: '점검 안내' });
    expect([...dialog.querySelectorAll('[lang="ko"]')].map((korean) => korean.textContent)).toEqual([
      '점검 안내',
      '오늘 밤 점검합니다.',
    ]);
    dialog.querySelectorAll('[lang="ko"]').forEach((korean) => korean.remove());
    expect(dialog.textContent).not.toMatch(HANGUL);
  });
});
