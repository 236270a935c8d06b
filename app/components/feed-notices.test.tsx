// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import type { FeedStatus } from '../../contract/bus';
import { FeedNotices } from '~/components/feed-notices';

const feed = (fields: Partial<FeedStatus>): FeedStatus => ({
  source: 'gbis',
  takenAt: '2026-09-02T23:00:00.000Z',
  ageSec: 5,
  stale: false,
  inService: true,
  ...fields,
});

afterEach(cleanup);

describe('FeedNotices', () => {
  it('says nothing about fresh live data, in a polite live region', () => {
    render(<FeedNotices failed={false} feed={feed({})} />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
  });

  it('labels demo data as simulated', () => {
    render(<FeedNotices failed={false} feed={feed({ source: 'demo' })} />);
    expect(screen.getByText('데모 데이터')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('실제 버스 위치가 아닙니다.');
  });

  it('shows stale data with its age in minutes', () => {
    render(<FeedNotices failed={false} feed={feed({ stale: true, ageSec: 185 })} />);
    expect(screen.getByText('실시간 정보가 지연되고 있습니다 (3분 전 정보)')).toBeTruthy();
  });

  it('never shows stale data as less than a minute old', () => {
    render(<FeedNotices failed={false} feed={feed({ stale: true, ageSec: 20 })} />);
    expect(screen.getByText('실시간 정보가 지연되고 있습니다 (1분 전 정보)')).toBeTruthy();
  });

  it('shows stale data without an age when the age is unknown', () => {
    render(<FeedNotices failed={false} feed={feed({ stale: true, ageSec: null })} />);
    expect(screen.getByText('실시간 정보가 지연되고 있습니다')).toBeTruthy();
  });

  it('says when it is outside service hours', () => {
    render(<FeedNotices failed={false} feed={feed({ inService: false })} />);
    expect(screen.getByText('운행 시간이 아닙니다 (05:00–24:30)')).toBeTruthy();
  });

  it("says the connection is lost and how old the data shown is, in place of the feed's own delay", () => {
    render(<FeedNotices failed={false} lostAgeSec={150} feed={feed({ source: 'demo', stale: true, ageSec: 140 })} />);
    const region = screen.getByRole('status');
    expect(screen.getByText('연결이 끊겨 2분 전 정보입니다')).toBeTruthy();
    expect(region.textContent).not.toContain('실시간 정보가 지연되고 있습니다');
    expect(region.textContent).toContain('데모 데이터');
  });

  it("never says a lost connection's data is less than a minute old", () => {
    render(<FeedNotices failed={false} lostAgeSec={9} feed={feed({})} />);
    expect(screen.getByText('연결이 끊겨 1분 전 정보입니다')).toBeTruthy();
  });

  it('shows the load failure when there is no data', () => {
    render(<FeedNotices failed />);
    expect(screen.getByText('버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.')).toBeTruthy();
  });
});
