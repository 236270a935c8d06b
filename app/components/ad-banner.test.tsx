// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { AdBanner as Ad } from '../../contract/ads';
import { AdBanner, BANNER_ROTATION_MS, bannerHref } from '~/components/ad-banner';

const ads: Ad[] = [
  { id: 1, src: '/images/web-a.png', url: 'https://a.example/', title: '가' },
  { id: 2, src: '/images/web-b.png', url: 'https://b.example/', title: '나' },
];

function renderBanner(list: readonly Ad[]) {
  const router = createMemoryRouter([{ path: '/', element: <AdBanner ads={list} /> }]);
  render(<RouterProvider router={router} />);
}
const visible = () =>
  screen
    .getAllByRole('img')
    .filter((image) => !image.closest('[hidden]'))
    .map((image) => image.getAttribute('alt'));
const setVisibility = (state: 'visible' | 'hidden') => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  fireEvent(document, new Event('visibilitychange'));
};

let beacon: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2026-11-23T10:00:00+09:00'));
  localStorage.clear();
  beacon = vi.fn(() => true);
  Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
  setVisibility('visible');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('AdBanner (docs/product.md §4.3 Ad banner)', () => {
  it('marks each image with the language its advertiser wrote the title in, Korean when none is named', () => {
    renderBanner([ads[0], { id: 3, src: '/images/web-c.png', url: '', title: 'Campus Cafe', lang: 'en' }]);
    const langs = screen.getAllByRole('img', { hidden: true }).map((image) => image.getAttribute('lang'));
    expect(langs).toEqual(['ko', 'en']);
  });

  it('shows the default banner, linking to the ad application, when there is no ad', () => {
    renderBanner([]);
    expect(screen.getByRole('link', { name: /이 자리에 가게를 알려보세요/ }).getAttribute('href')).toBe('/ads/apply');
    expect(beacon).not.toHaveBeenCalled();
  });

  it('rotates every 6 seconds, in order, and back to the first', () => {
    renderBanner(ads);
    expect(visible()).toEqual(['광고: 가']);
    act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS - 1));
    expect(visible()).toEqual(['광고: 가']);
    act(() => vi.advanceTimersByTime(1));
    expect(visible()).toEqual(['광고: 나']);
    act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS));
    expect(visible()).toEqual(['광고: 가']);
  });

  it('pauses while the page is hidden and while the visitor paused it', () => {
    renderBanner(ads);
    act(() => setVisibility('hidden'));
    act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS * 3));
    expect(visible()).toEqual(['광고: 가']);
    act(() => setVisibility('visible'));
    act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS));
    expect(visible()).toEqual(['광고: 나']);
    fireEvent.click(screen.getByRole('button', { name: '광고 넘기기 멈춤' }));
    act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS * 3));
    expect(visible()).toEqual(['광고: 나']);
    fireEvent.click(screen.getByRole('button', { name: '광고 넘기기 다시 시작' }));
    act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS));
    expect(visible()).toEqual(['광고: 가']);
  });

  it('counts each ad once per KST day, when first shown and visible', () => {
    renderBanner(ads);
    for (let turn = 0; turn < 4; turn++) act(() => vi.advanceTimersByTime(BANNER_ROTATION_MS));
    const ids = beacon.mock.calls.map(([url, body]) => [url, String(body)]);
    expect(ids).toEqual([
      ['/ads/impressions', 'id=1'],
      ['/ads/impressions', 'id=2'],
    ]);
    cleanup();
    renderBanner(ads);
    expect(beacon).toHaveBeenCalledTimes(2);
    vi.setSystemTime(new Date('2026-11-24T00:00:01+09:00')); // a new KST day
    cleanup();
    renderBanner(ads);
    expect(beacon).toHaveBeenCalledTimes(3);
  });

  it('counts nothing for a page opened in a background tab until it is shown', () => {
    setVisibility('hidden');
    renderBanner(ads);
    expect(beacon).not.toHaveBeenCalled();
    act(() => setVisibility('visible'));
    expect(beacon.mock.calls.map(([, body]) => String(body))).toEqual(['id=1']);
  });

  it('opens http(s) links only, in a new tab, through the counting redirect', () => {
    expect(bannerHref({ id: 4, src: 'x', url: 'https://shop.example/' })).toBe('/ads/click/4');
    expect(bannerHref({ src: 'x', url: 'http://shop.example/' })).toBe('http://shop.example/');
    for (const url of ['', 'javascript:alert(1)', 'data:text/html,x', '/relative', 'ftp://x.example/']) {
      expect(bannerHref({ id: 4, src: 'x', url })).toBeNull();
    }
    renderBanner([{ id: 5, src: '/images/web-c.png', url: 'javascript:alert(1)', title: '다' }]);
    expect(screen.queryByRole('link')).toBeNull();
    cleanup();
    renderBanner([ads[0]]);
    const link = screen.getByRole('link', { name: /광고: 가/ });
    expect(link.getAttribute('href')).toBe('/ads/click/1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.queryByRole('button')).toBeNull(); // one ad: nothing to pause
  });
});
