// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import type { VehicleMarker } from '../../contract/bus';
import { ProgressLine } from '~/components/progress-line';

const at = (routeNo: string, direction: 'up' | 'down', stopIndex: number): VehicleMarker => ({
  routeNo,
  plateNo: null,
  section: { direction, stopIndex },
});

const stops = () => screen.getAllByRole('listitem').filter((item) => item.classList.contains('stop'));

afterEach(cleanup);

describe('ProgressLine', () => {
  it('shows the five up stops and highlights the one with buses, with route chips', () => {
    render(
      <ProgressLine direction="up" vehicles={[at('1150', 'up', 2), at('1117', 'up', 2), at('1005', 'down', 0)]} />,
    );
    const items = stops();
    expect(items.map((item) => item.querySelector('.stop__name')?.textContent)).toEqual([
      '외대사거리',
      '모현사거리',
      '외대 기숙사',
      '외대 도서관',
      '파란지붕',
    ]);
    expect(items.map((item) => item.classList.contains('stop--active'))).toEqual([false, false, true, false, false]);
    expect([...items[2].querySelectorAll('.chip')].map((chip) => chip.textContent)).toEqual([
      '1150번 버스',
      '1117번 버스',
    ]);
    expect(screen.getByText('이 구간에 버스 2대')).toBeTruthy();
    expect(screen.queryByText('1005번 버스')).toBeNull();
  });

  it('shows the four down stops with the down vehicles', () => {
    render(<ProgressLine direction="down" vehicles={[at('1005', 'down', 3)]} />);
    const items = stops();
    expect(items.map((item) => item.querySelector('.stop__name')?.textContent)).toEqual([
      '파란지붕',
      '기숙사',
      '모현사거리',
      '외대사거리',
    ]);
    expect(items[3].classList.contains('stop--active')).toBe(true);
    expect(items[3].querySelector('.chip')?.textContent).toBe('1005번 버스');
  });

  it("tells each bus by its plate's last four digits (the whole plate to screen readers), and says the up line's buses have passed the crossroads", () => {
    render(<ProgressLine direction="up" vehicles={[{ ...at('1150', 'up', 1), plateNo: '경기70아5678' }]} />);
    const chip = stops()[1].querySelector('.chip')!;
    expect(chip.querySelector('.chip__plate')?.textContent).toBe('5678');
    expect(chip.querySelector('.sr-only')?.textContent).toBe('번 버스, 차량 경기70아5678');
    expect(
      screen.getByText(
        '노선도의 버스는 외대사거리를 지나 캠퍼스 안에 있는 버스이고, 도착 정보는 외대사거리로 오는 버스입니다.',
      ),
    ).toBeTruthy();
    cleanup();
    render(<ProgressLine direction="down" vehicles={[]} />);
    expect(screen.queryByText(/노선도의 버스는/)).toBeNull();
  });

  it('says so when no bus is in the section', () => {
    render(<ProgressLine direction="up" vehicles={[at('1005', 'down', 0)]} />);
    expect(screen.getByText('현재 이 구간에 버스가 없습니다.')).toBeTruthy();
    expect(stops().some((item) => item.classList.contains('stop--active'))).toBe(false);
  });

  it('says how old the positions are from a minute on', () => {
    render(<ProgressLine direction="up" vehicles={[at('1150', 'up', 2)]} vehiclesAgeSec={59} />);
    expect(screen.getByText('이 구간에 버스 1대')).toBeTruthy();
    cleanup();
    render(<ProgressLine direction="up" vehicles={[at('1150', 'up', 2)]} vehiclesAgeSec={150} />);
    expect(screen.getByText('이 구간에 버스 1대 (2분 전 위치)')).toBeTruthy();
    cleanup();
    render(<ProgressLine direction="down" vehicles={[]} vehiclesAgeSec={300} />);
    expect(screen.getByText('5분 전 기준 이 구간에 버스가 없습니다.')).toBeTruthy();
    expect(screen.queryByText('현재 이 구간에 버스가 없습니다.')).toBeNull();
  });

  it('makes no claim about buses when the data could not be loaded', () => {
    render(<ProgressLine direction="up" vehicles={null} />);
    expect(screen.queryByText('현재 이 구간에 버스가 없습니다.')).toBeNull();
    expect(stops()).toHaveLength(5);
  });
});
