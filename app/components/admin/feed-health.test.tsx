// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import type { AdminFeedStatus } from '../../../contract/admin-feed';
import { FeedHealth } from '~/components/admin/feed-health';

const status = (fields: Partial<AdminFeedStatus>): AdminFeedStatus => ({
  source: 'gbis',
  takenAt: '2026-11-23T01:00:00.000Z',
  ageSec: 12,
  stale: false,
  inService: true,
  lastError: null,
  role: 'leader',
  callsToday: { arrivals: 310, locations: 402 },
  dailyQuota: 1000,
  plan: {
    arrivals: { callsPerDay: 950, meanIntervalSec: 74 },
    locations: { callsPerDay: 950, meanIntervalSec: 296 },
  },
  timetableChanges: [],
  timetableRestarts: [],
  ...fields,
});

afterEach(cleanup);

describe('FeedHealth', () => {
  it("states each GBIS dataset's calls today and its plan of the day", () => {
    render(<FeedHealth feed={status({})} />);
    const definition = (term: string) => screen.getByText(term).nextElementSibling?.textContent;
    expect(definition('도착 정보 API')).toBe(
      '오늘 호출 310 / 1000회. 계획: 하루 950회, 평균 74초마다 (버스가 멀거나 없을 때는 덜 자주)',
    );
    expect(definition('위치 정보 API')).toBe(
      '오늘 호출 402 / 1000회. 계획: 하루 950회, 노선마다 평균 296초마다 (캠퍼스에서 출발할 무렵에 더 자주)',
    );
  });

  it('states each timetable change the predictions follow, or that none was seen', () => {
    render(<FeedHealth feed={status({})} />);
    expect(screen.getByText('시간표 변경').nextElementSibling?.textContent).toBe('감지된 변경 없음');
    cleanup();
    const timetableChanges = [
      {
        routeNo: '1150',
        since: '2026-10-22',
        dayTypes: ['weekday' as const, 'saturday' as const],
        before: { first: '05:40', headwayMin: 20 },
        after: { first: '06:15', headwayMin: 14 },
      },
      { routeNo: '1303', since: '2026-10-23', dayTypes: ['weekday' as const], before: null, after: null },
    ];
    render(<FeedHealth feed={status({ timetableChanges })} />);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1150번: 2026-10-22부터 평일·토요일 (첫차 05:40 → 06:15, 배차 간격 약 20분 → 14분)',
      '1303번: 2026-10-23부터 평일',
    ]);
  });

  it('has no plan to state for the free demo simulator', () => {
    render(<FeedHealth feed={status({ source: 'demo', plan: null, dailyQuota: null })} />);
    expect(screen.getByText('도착 정보 API').nextElementSibling?.textContent).toBe('오늘 호출 310회');
  });
});
