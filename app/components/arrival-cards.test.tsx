// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import type { DownRoute, UpRoute } from '../../contract/bus';
import { ArrivalCards, DepartureCards } from '~/components/arrival-cards';
import { HANGUL, renderInEnglish } from '../../tests/setup/english';

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

afterEach(cleanup);

describe('ArrivalCards (up tab)', () => {
  it('shows route number, minutes and stops remaining', () => {
    render(<ArrivalCards routes={[upRoute({ time: 10, location: 5 })]} />);
    expect(screen.getByText('1150')).toBeTruthy();
    expect(screen.getByText('10분').className).toBe('card__time');
    expect(screen.getByText('5정거장 전')).toBeTruthy();
  });

  it('shows 4 minutes or less in red (docs/product.md §9)', () => {
    render(<ArrivalCards routes={[upRoute({ routeNo: '1117', time: 4 }), upRoute({ routeNo: '1005', time: 5 })]} />);
    expect(screen.getByText('4분').classList.contains('card__time--soon')).toBe(true);
    expect(screen.getByText('5분').classList.contains('card__time--soon')).toBe(false);
  });

  it('shows no arrival information at 0 minutes or less (docs/product.md §9)', () => {
    render(<ArrivalCards routes={[upRoute({ time: 0, location: 0, plateNo: '경기70아1234' })]} />);
    expect(screen.getByText('도착 정보 없음')).toBeTruthy();
    expect(screen.queryByText('0분')).toBeNull();
    expect(screen.queryByText('0정거장 전')).toBeNull();
    expect(screen.getByText('1150번, 도착 정보 없음')).toBeTruthy();
  });

  it('mutes the minutes while the connection is lost: never red, said as what they were before', () => {
    const { container } = render(<ArrivalCards routes={[upRoute({ time: 3, location: 2 })]} lost />);
    expect(container.querySelector('.cards')!.classList.contains('cards--lost')).toBe(true);
    expect(screen.getByText('3분').classList.contains('card__time--soon')).toBe(false);
    expect(screen.queryByText('곧 도착')).toBeNull();
    expect(screen.getByText('1150번, 연결이 끊기기 전 정보, 3분 후 도착, 2정거장 전')).toBeTruthy();
  });

  it("shows 'no bus currently available' for an empty list", () => {
    render(<ArrivalCards routes={[]} />);
    expect(screen.getByText('현재 운행 중인 버스가 없습니다.')).toBeTruthy();
  });

  it('shows seats, the low-floor mark and the plate when known, and says it all to screen readers', () => {
    render(
      <ArrivalCards
        routes={[upRoute({ time: 3, location: 2, remainSeatCnt: 12, lowPlate: 1, plateNo: '경기70아1234' })]}
      />,
    );
    expect(screen.getByText('잔여 12석 · 저상 · 경기70아1234')).toBeTruthy();
    expect(
      screen.getByText('1150번, 3분 후 도착, 2정거장 전, 곧 도착, 잔여 12석, 저상버스, 차량 경기70아1234'),
    ).toBeTruthy();
  });

  it('leaves the extras out when unknown', () => {
    const { container } = render(<ArrivalCards routes={[upRoute({ time: 3, location: 2 })]} />);
    expect(container.querySelector('.card__extras')).toBeNull();
    expect(screen.getByText('1150번, 3분 후 도착, 2정거장 전, 곧 도착')).toBeTruthy();
  });

  it('says 곧 도착 in words with the red, not by colour alone (docs/product.md §9)', () => {
    render(<ArrivalCards routes={[upRoute({ routeNo: '1117', time: 4 }), upRoute({ routeNo: '1005', time: 5 })]} />);
    expect(screen.getAllByText('곧 도착')).toHaveLength(1);
    expect(screen.getByText('1117번, 4분 후 도착, 5정거장 전, 곧 도착')).toBeTruthy();
    expect(screen.getByText('1005번, 5분 후 도착, 5정거장 전')).toBeTruthy();
  });

  it('marks a route near its last departure with 막차 and the time in KST', () => {
    render(
      <ArrivalCards
        routes={[
          upRoute({ routeNo: '1150', time: 7, location: 3, lastRun: '2026-11-23T23:22:00+09:00' }),
          upRoute({ routeNo: '1117', time: 9, location: 4, lastRun: null }),
        ]}
      />,
    );
    expect(screen.getByText('막차 23:22')).toBeTruthy();
    expect(screen.getAllByText(/막차/).filter((node) => !node.classList.contains('sr-only'))).toHaveLength(1);
    expect(screen.getByText('1150번, 7분 후 도착, 3정거장 전, 막차 23:22 캠퍼스 도착 예정')).toBeTruthy();
    expect(screen.getByText('1117번, 9분 후 도착, 4정거장 전')).toBeTruthy();
  });
});

describe('DepartureCards (down tab)', () => {
  it("shows the day before's, the week before's and the estimated time in KST", () => {
    const routes: DownRoute[] = [
      {
        routeNo: '1150',
        data: { dayBefore: '2026-09-03T08:05:00+09:00', weekBefore: null, estimate: '2026-09-03T08:10:00+09:00' },
        basis: 'history',
      },
    ];
    const { container } = render(<DepartureCards routes={routes} />);
    const labels = [...container.querySelectorAll('dt')].map((dt) => dt.textContent);
    const times = [...container.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(labels).toEqual(['어제', '7일 전', '예상']);
    expect(times).toEqual(['08:05', '–정보 없음', '08:10운행 기록 기준']);
    expect(container.textContent).not.toContain('막차');
  });

  it('marks a route near its last departure with 막차 and the time', () => {
    const routes: DownRoute[] = [
      {
        routeNo: '1303',
        data: { dayBefore: null, weekBefore: null, estimate: '2026-11-23T22:45:00+09:00' },
        basis: 'timetable',
        lastRun: '2026-11-23T22:50:00+09:00',
      },
    ];
    const { container } = render(<DepartureCards routes={routes} />);
    expect(container.querySelector('.card__head')?.textContent).toBe('1303번 버스막차 22:50 출발');
  });

  it('says what each estimate rests on: a live bus, the history or the timetable', () => {
    const route = (routeNo: string, basis: DownRoute['basis'], estimate: string | null): DownRoute => ({
      routeNo,
      data: { dayBefore: null, weekBefore: null, estimate },
      basis,
    });
    const { container } = render(
      <DepartureCards
        routes={[
          route('1150', 'live', '2026-09-03T08:10:00+09:00'),
          route('1117', 'timetable', '2026-09-03T08:20:00+09:00'),
          route('1303', null, null),
        ]}
      />,
    );
    const notes = [...container.querySelectorAll('.card__basis')].map((note) => note.textContent);
    // The line is kept empty when there is no estimate, so the cards stay the same height.
    expect(notes).toEqual(['실시간 반영', '시간표 기준', '']);
  });

  describe("the estimate's 80 % range", () => {
    const at = (time: string) => `2026-11-23T${time}+09:00`;
    const route = (routeNo: string, range: DownRoute['range'], basis: DownRoute['basis'] = 'history'): DownRoute => ({
      routeNo,
      data: { dayBefore: at('22:38:00'), weekBefore: at('22:43:00'), estimate: at('22:41:00') },
      basis,
      range,
    });
    /** The 예상 item's dd of each card. */
    const estimates = (container: HTMLElement) =>
      [...container.querySelectorAll('.card__time-item:last-child dd')] as HTMLElement[];

    it('shows a range wider than 2 minutes after the time, "22:41 (22:40~22:44)", hidden from screen readers', () => {
      const { container } = render(
        <DepartureCards routes={[route('1150', { lowerAt: at('22:40:00'), upperAt: at('22:44:30') })]} />,
      );
      const [estimate] = estimates(container);
      const shown = estimate.querySelector('.card__estimate');
      expect(shown?.textContent).toBe('22:41 (22:40~22:44)');
      expect(shown?.getAttribute('aria-hidden')).toBe('true');
      expect(shown?.querySelector('.card__range')?.textContent).toBe(' (22:40~22:44)');
      // One range line, and the basis line under it.
      expect(estimate.querySelectorAll('.card__range')).toHaveLength(1);
      expect(estimate.querySelector('.card__basis')?.textContent).toBe('운행 기록 기준');
    });

    it('says the time and the range as a sentence to screen readers', () => {
      render(<DepartureCards routes={[route('1150', { lowerAt: at('22:40:00'), upperAt: at('22:44:30') })]} />);
      const sentence = screen.getByText('22시 41분. 대개 22시 40분에서 22시 44분 사이에 출발합니다.');
      expect(sentence.className).toBe('sr-only');
      expect(sentence.closest('[aria-hidden]')).toBeNull();
    });

    it('shows the time alone for a range of 2 minutes or less, or none, keeping the range line empty', () => {
      const { container } = render(
        <DepartureCards
          routes={[
            route('1150', { lowerAt: at('22:40:00'), upperAt: at('22:42:00') }), // exactly 2 minutes
            route('1117', null, 'timetable'),
            route('1303', undefined), // an api that states no ranges
          ]}
        />,
      );
      const items = estimates(container);
      expect(items.map((dd) => dd.textContent)).toEqual([
        '22:41운행 기록 기준',
        '22:41시간표 기준',
        '22:41운행 기록 기준',
      ]);
      expect(container.querySelector('.card__estimate')).toBeNull();
      expect(container.textContent).not.toContain('~');
      expect(screen.queryByText(/출발합니다/)).toBeNull();
      // The reserved line is there all the same: each card is as tall as one with a range.
      expect(items.map((dd) => dd.querySelectorAll('.card__range').length)).toEqual([1, 1, 1]);
      expect(items.map((dd) => dd.querySelector('.card__range')?.textContent)).toEqual(['', '', '']);
    });

    it('shows no range without an estimate, and none beside the day before’s or the week before’s time', () => {
      const { container } = render(
        <DepartureCards
          routes={[
            {
              routeNo: '1005',
              data: { dayBefore: at('22:38:00'), weekBefore: null, estimate: null },
              basis: null,
              range: { lowerAt: at('22:40:00'), upperAt: at('22:44:00') },
            },
          ]}
        />,
      );
      expect(container.querySelector('.card__estimate')).toBeNull();
      expect([...container.querySelectorAll('dd')].map((dd) => dd.querySelectorAll('.card__range').length)).toEqual([
        0, 0, 1,
      ]);
    });
  });

  it('says the estimates are in preparation when there are none', () => {
    render(<DepartureCards routes={[]} />);
    expect(screen.getByText('출발 예상 시간을 준비 중입니다.')).toBeTruthy();
  });
});

describe('the cards in English (docs/product.md §1 Languages)', () => {
  it('says an up card in English, one and many by count', () => {
    const { container } = renderInEnglish(
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
    expect([...container.querySelectorAll('.sr-only')].map((spoken) => spoken.textContent)).toEqual([
      'Bus 1150, arrives in 3 minutes, 1 stop away, Arriving soon, 1 seat left, low-floor bus, bus plate 경기70아1234',
      'Bus 1005, arrives in 12 minutes, 6 stops away, 20 seats left',
    ]);
    // The plate is the vehicle's own name as painted on it (GBIS plateNo): Korean, read as Korean,
    // where it is said and where it is shown.
    const plates = [...container.querySelectorAll('[lang="ko"]')];
    expect(plates.map((plate) => plate.textContent)).toEqual(['경기70아1234', '경기70아1234']);
    plates.forEach((plate) => plate.remove());
    expect(container.textContent).not.toMatch(HANGUL);
  });

  it('says a down card, its range and its basis in English, times as English says them', () => {
    const route: DownRoute = {
      routeNo: '1150',
      data: { dayBefore: '2026-11-27T22:39:00+09:00', weekBefore: null, estimate: '2026-11-28T22:41:00+09:00' },
      basis: 'history',
      range: { lowerAt: '2026-11-28T22:40:00+09:00', upperAt: '2026-11-28T22:44:00+09:00' },
      lastRun: '2026-11-28T22:41:00+09:00',
    } as DownRoute;
    const { container } = renderInEnglish(<DepartureCards routes={[route]} />);
    for (const text of ['Yesterday', '7 days ago', 'Expected', 'from past runs', 'no information'])
      expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByText('22:41. It usually leaves between 22:40 and 22:44.')).toBeTruthy();
    expect(container.querySelector('.card__last-run')?.textContent).toBe('Last bus 22:41 leaves');
    expect(container.textContent).not.toMatch(HANGUL);
  });
});
