// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { DepartureTimeList } from '~/components/departure-time-list';
import { orderRoutes } from '~/utils/departure-times';
import { predictedAllBody } from '../../tests/mocks/api';

const routes = orderRoutes(predictedAllBody.predictedDownTimes);
/** 08:03 KST: 1150's next is 08:05, 1117's 08:12, 1005's 08:20; 1303 has none. */
const NOW = Date.parse('2026-09-03T08:03:00+09:00');

const texts = (elements: HTMLElement[]) => elements.map((element) => element.textContent);
const current = () => document.querySelectorAll<HTMLElement>('[aria-current="time"]');

afterEach(cleanup);

describe('DepartureTimeList', () => {
  it('shows one route its times in KST with the next one highlighted', () => {
    render(<DepartureTimeList routes={[routes[0]]} sorted={false} now={NOW} />);
    const list = screen.getByRole('list', { name: '1150번' });
    expect(texts(within(list).getAllByRole('listitem'))).toEqual(['07:45', '08:05다음 출발', '08:25']);
    expect(current()).toHaveLength(1);
    expect(current()[0].className).toContain('times-chip--next');
    expect(current()[0].querySelector('time')?.getAttribute('datetime')).toBe('2026-09-03T08:05:00+09:00');
    // A single list marks its next time as the target of the no-JavaScript URL fragment.
    expect(current()[0].id).toBe('times-next');
  });

  it('groups all routes under their headings, each with its own next time', () => {
    render(<DepartureTimeList routes={routes} sorted={false} now={NOW} />);
    expect(texts(screen.getAllByRole('heading'))).toEqual(['1150번', '1117번', '1303번', '1005번']);
    expect(texts(within(screen.getByRole('list', { name: '1117번' })).getAllByRole('listitem'))).toEqual([
      '08:00',
      '08:12다음 출발',
      '08:40',
    ]);
    expect([...current()].map((item) => item.textContent)).toEqual([
      '08:05다음 출발',
      '08:12다음 출발',
      '08:20다음 출발',
    ]);
    // The dialog opens at the next departure of all: 1150's 08:05, before 1117's and 1005's.
    expect(document.getElementById('times-next')).toBe(current()[0]);
    // A route without times says so under its heading.
    expect(within(screen.getByRole('region', { name: '1303번' })).getByText('예상 출발 시간이 없습니다.')).toBeTruthy();
  });

  it("marks the next departure of all in its route's group, also when that is not the first group", () => {
    // 08:06: 1150's next is 08:25, 1117's 08:12, 1005's 08:20.
    render(<DepartureTimeList routes={routes} sorted={false} now={Date.parse('2026-09-03T08:06:00+09:00')} />);
    const target = document.getElementById('times-next');
    expect(target?.closest('section')?.querySelector('h3')?.textContent).toBe('1117번');
    expect(target?.textContent).toBe('08:12다음 출발');
    expect(document.querySelectorAll('[id="times-next"]')).toHaveLength(1);
  });

  it('sorts all routes into one chronological list with the route beside each time', () => {
    render(<DepartureTimeList routes={routes} sorted now={NOW} />);
    expect(screen.queryAllByRole('heading')).toHaveLength(0);
    const items = within(screen.getByRole('list', { name: '전체 노선 시간순' })).getAllByRole('listitem');
    expect(texts(items)).toEqual([
      '07:451150번',
      '07:501005번',
      '08:001117번',
      '08:051150번다음 출발',
      '08:121117번',
      '08:201005번',
      '08:251150번',
      '08:401117번',
    ]);
    expect(current()).toHaveLength(1);
    expect(current()[0]).toBe(items[3]);
    expect(items[3].id).toBe('times-next');
  });

  it('highlights nothing once every time has passed', () => {
    render(<DepartureTimeList routes={routes} sorted now={Date.parse('2026-09-03T09:00:00+09:00')} />);
    expect(current()).toHaveLength(0);
    expect(screen.queryByText('다음 출발')).toBeNull();
  });

  it('says so when there are no times at all', () => {
    render(
      <DepartureTimeList
        routes={[{ routeNo: '1303', times: [], ranges: [], timetableOnly: false }]}
        sorted={false}
        now={NOW}
      />,
    );
    expect(screen.getByText('예상 출발 시간이 없습니다.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    cleanup();
    render(<DepartureTimeList routes={[]} sorted now={NOW} />);
    expect(screen.getByText('예상 출발 시간이 없습니다.')).toBeTruthy();
  });

  it('says which routes rest on the timetable alone, in the groups and in the chronological list', () => {
    const fromTimetable = orderRoutes(predictedAllBody.predictedDownTimes, ['1117', '1005']);
    const note = '운행 기록이 모자라 시간표로 계산한 시간입니다.';
    render(<DepartureTimeList routes={fromTimetable} sorted={false} now={NOW} />);
    const groups = screen.getAllByRole('region');
    expect(groups.map((group) => within(group).queryByText(note) !== null)).toEqual([false, true, false, true]);
    cleanup();

    render(<DepartureTimeList routes={fromTimetable} sorted now={NOW} />);
    expect(screen.getByText(`1117번, 1005번: ${note}`)).toBeTruthy();
    cleanup();

    render(<DepartureTimeList routes={routes} sorted now={NOW} />);
    expect(screen.queryByText(note, { exact: false })).toBeNull();
  });
});

describe('DepartureTimeList with the 80 % ranges', () => {
  const ranged = orderRoutes(
    predictedAllBody.predictedDownTimes,
    predictedAllBody.timetableOnly,
    predictedAllBody.ranges,
  );
  /** Per list item: its time, the range shown after it ('' for none) and what screen readers hear of the range. */
  const marks = (list: HTMLElement) =>
    within(list)
      .getAllByRole('listitem')
      .map((item) => ({
        time: item.querySelector('time')?.textContent,
        shown: item.querySelector('.times-range')?.textContent ?? '',
        hidden: item.querySelector('.times-range')?.getAttribute('aria-hidden') ?? null,
        said: item.querySelector('.sr-only')?.textContent ?? '',
      }));

  it('marks each time whose range is wider than 2 minutes with it, small after the time, said to screen readers', () => {
    render(<DepartureTimeList routes={ranged} sorted={false} now={NOW} />);
    expect(marks(screen.getByRole('list', { name: '1150번' }))).toEqual([
      { time: '07:45', shown: '(07:44~07:48)', hidden: 'true', said: ', 대개 7시 44분에서 7시 48분 사이' },
      { time: '08:05', shown: '(08:04~08:08)', hidden: 'true', said: ', 대개 8시 4분에서 8시 8분 사이' },
      // Exactly 2 minutes: the time alone.
      { time: '08:25', shown: '', hidden: null, said: '' },
    ]);
    expect(marks(screen.getByRole('list', { name: '1117번' }))).toEqual([
      { time: '08:00', shown: '', hidden: null, said: '' }, // 90 seconds
      { time: '08:12', shown: '(08:11~08:15)', hidden: 'true', said: ', 대개 8시 11분에서 8시 15분 사이' },
      { time: '08:40', shown: '(08:39~08:44)', hidden: 'true', said: ', 대개 8시 39분에서 8시 44분 사이' },
    ]);
    // The timetable's times state none.
    expect(marks(screen.getByRole('list', { name: '1005번' })).map(({ shown }) => shown)).toEqual(['', '']);
    // The next time keeps its mark and its 다음 출발.
    expect([...current()].map((item) => item.textContent)).toEqual([
      '08:05(08:04~08:08), 대개 8시 4분에서 8시 8분 사이다음 출발',
      '08:12(08:11~08:15), 대개 8시 11분에서 8시 15분 사이다음 출발',
      '08:20다음 출발',
    ]);
  });

  it('keeps each range with its time in the chronological list, the order and the next time unchanged', () => {
    render(<DepartureTimeList routes={ranged} sorted now={NOW} />);
    const list = screen.getByRole('list', { name: '전체 노선 시간순' });
    expect(marks(list).map(({ time, shown }) => `${time} ${shown}`.trim())).toEqual([
      '07:45 (07:44~07:48)',
      '07:50',
      '08:00',
      '08:05 (08:04~08:08)',
      '08:12 (08:11~08:15)',
      '08:20',
      '08:25',
      '08:40 (08:39~08:44)',
    ]);
    const items = within(list).getAllByRole('listitem');
    expect(current()).toHaveLength(1);
    expect(current()[0]).toBe(items[3]);
    expect(items[3].id).toBe('times-next');
    expect(items[3].textContent).toBe('08:05(08:04~08:08), 대개 8시 4분에서 8시 8분 사이1150번다음 출발');
  });
});
