// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { RefreshCountdown } from '~/components/refresh-countdown';
import { useRefreshCountdown } from '~/hooks/use-refresh-countdown';

describe('useRefreshCountdown', () => {
  // In a router: the first render, before the hydrated switch, has the no-JavaScript refresh link.
  function Countdown({ onRefresh }: { onRefresh: () => Promise<unknown> }) {
    return (
      <MemoryRouter>
        <RefreshCountdown secondsLeft={useRefreshCountdown(4, onRefresh)} />
      </MemoryRouter>
    );
  }

  function setVisibility(state: DocumentVisibilityState) {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    document.dispatchEvent(new Event('visibilitychange'));
  }

  /** An onRefresh whose promise the test settles. */
  function pendingRefresh() {
    let settle = () => {};
    const onRefresh = vi.fn(() => new Promise<void>((resolve) => (settle = resolve)));
    return { onRefresh, settle: () => settle() };
  }

  const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    setVisibility('visible');
  });

  it('counts 00:04 down to the refreshing text, refreshes, then starts again', async () => {
    const { onRefresh, settle } = pendingRefresh();
    render(<Countdown onRefresh={onRefresh} />);
    expect(screen.getByText('00:04')).toBeTruthy();

    await tick(1000);
    expect(screen.getByText('00:03')).toBeTruthy();
    await tick(2000);
    expect(screen.getByText('00:01')).toBeTruthy();
    expect(onRefresh).not.toHaveBeenCalled();

    await tick(1000);
    expect(screen.getByText('새로고침 중...')).toBeTruthy();
    expect(onRefresh).toHaveBeenCalledTimes(1);

    // Still refreshing: the count waits for the answer instead of starting a second refresh.
    await tick(5000);
    expect(screen.getByText('새로고침 중...')).toBeTruthy();
    expect(onRefresh).toHaveBeenCalledTimes(1);

    await act(async () => settle());
    expect(screen.getByText('00:04')).toBeTruthy();
    await tick(4000);
    expect(onRefresh).toHaveBeenCalledTimes(2);
  });

  it('starts again after a failed refresh, which is only logged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onRefresh = vi.fn(() => Promise.reject(new Error('offline')));
    render(<Countdown onRefresh={onRefresh} />);

    await tick(4000);
    await act(async () => {});
    expect(screen.getByText('00:04')).toBeTruthy();
    expect(log).toHaveBeenCalledWith('[refresh] failed:', expect.any(Error));
    log.mockRestore();
  });

  it('pauses while the tab is hidden and refreshes as soon as it is visible again', async () => {
    const { onRefresh } = pendingRefresh();
    render(<Countdown onRefresh={onRefresh} />);
    await tick(1000);

    act(() => setVisibility('hidden'));
    await tick(60_000);
    expect(screen.getByText('00:03')).toBeTruthy();
    expect(onRefresh).not.toHaveBeenCalled();

    act(() => setVisibility('visible'));
    await act(async () => {});
    expect(screen.getByText('새로고침 중...')).toBeTruthy();
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });
});
