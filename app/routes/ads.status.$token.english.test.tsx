// @vitest-environment happy-dom
/**
 * /ads/status/{token} in English (docs/product.md §1 Languages, §11): the facts, states, notes,
 * payment, counters and charts in English with "Nov 23, 2026" dates and KRW amounts, the
 * advertiser's title marked with the language they wrote it in, the 404 and 429 pages and the
 * title in English. The Korean page: ads.status.$token.test.tsx.
 */
import { cleanup, screen } from '@testing-library/react';
import AdStatusPage, { ErrorBoundary, meta } from '~/routes/ads.status.$token';
import { englishCatalog } from '~/i18n/i18n';
import type { AdStatus } from '../../contract/ads';
import { renderInEnglish } from '../../tests/setup/english';
import { hangulOutsideKorean, renderRouteInEnglish } from '../../tests/setup/english-route';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';

afterEach(cleanup);

const pending: AdStatus = {
  type: 'web',
  title: '캠퍼스 카페',
  appliedAt: '2026-11-22T16:00:00.000Z',
  duration: 2,
  status: 'pending',
  rejectReason: null,
  period: null,
  counts: null,
  takenDownAt: null,
};
const days = Array.from({ length: 30 }, (_, index) => ({
  day: `2026-11-${String(index + 1).padStart(2, '0')}`,
  impressions: index === 27 ? 1_234 : 0,
  clicks: index === 27 ? 5 : 0,
}));
const approved: AdStatus = {
  ...pending,
  title: 'Campus Cafe',
  lang: 'en',
  status: 'approved',
  period: { startsAt: '2026-11-23T01:00:00.000Z', endsAt: '2027-01-22T01:00:00.000Z' },
  counts: { days, impressions: 1_234, clicks: 5 },
};

const open = (status: AdStatus, bankAccount: object | null = null) =>
  renderRouteInEnglish(AdStatusPage, { url: '/ads/status/tok', loaderData: { status, bankAccount } });

/** The facts list as term → description. */
const facts = (container: HTMLElement) =>
  Object.fromEntries(
    [...container.querySelectorAll('.ad-status__facts div')].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('dd')?.textContent,
    ]),
  );

describe('/ads/status/:token in English', () => {
  it('tells a pending application in English, its Korean title marked Korean, with what to pay and how', async () => {
    const { container } = open(pending);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Your ad application');
    expect(facts(container)).toEqual({
      'Ad type': 'Web banner ad',
      'Ad title': '캠퍼스 카페',
      'Applied on': 'Nov 23, 2026',
      Duration: '2 months',
      Price: '52,000 KRW',
      Status: 'In review',
    });
    expect(screen.getByText('캠퍼스 카페').getAttribute('lang')).toBe('ko');
    const [state, payment] = [...container.querySelectorAll('.ad-status__note')].map((note) => note.textContent);
    expect(state).toBe(
      'We approve the ad once we find your deposit, and its period starts on the day of approval. ' +
        'Once the review is done, this page shows the result.',
    );
    expect(payment).toBe(
      'Please pay 26,000 KRW × 2 months = 52,000 KRW. After sending the application, please pay by bank transfer. ' +
        'The reviewer e-mails you the bank account once your application arrives. ' +
        "Please send the transfer under the applicant's name. " +
        'An application whose deposit is not found within 30 days of applying is deleted with its image.',
    );
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('tells an approved English ad its period and its counters in English', async () => {
    const { container } = open(approved);
    await screen.findByRole('heading', { level: 1 });
    expect(facts(container)).toMatchObject({
      'Ad title': 'Campus Cafe',
      Status: 'Approved',
      'Ad period': 'Nov 23, 2026 – Jan 22, 2027',
    });
    expect(screen.getByText('Campus Cafe').getAttribute('lang')).toBe('en');
    expect(container.querySelector('.ad-status__counts p')?.textContent).toBe(
      'Impressions 1,234 · Clicks 5 (by date in Korea, today included)',
    );
    expect(screen.getAllByRole('img').map((chart) => chart.getAttribute('aria-label'))).toEqual([
      'Bar chart of Impressions by day, Nov 1 to Nov 30. Total 1,234, the most on Nov 28: 1,234.',
      'Bar chart of Clicks by day, Nov 1 to Nov 30. Total 5, the most on Nov 28: 5.',
    ]);
    expect(container.querySelector('.ad-status-days tbody th')?.textContent).toBe('Nov 1');
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('tells a rejection and a taken-down ad in English', async () => {
    const rejected = open({ ...pending, status: 'rejected', rejectReason: 'Blurry image' });
    expect((await screen.findByText('Blurry image')).closest('div')?.querySelector('dt')?.textContent).toBe(
      'Reason for rejection',
    );
    expect(rejected.container.querySelector('.ad-status__note')?.textContent).toBe(
      'Your ad was not approved. If you have questions, please ask us through the contact page. Contact us',
    );
    cleanup();
    const takenDown = open({ ...approved, takenDownAt: '2026-12-01T03:00:00.000Z' });
    await screen.findByRole('heading', { level: 1 });
    expect(takenDown.container.querySelector('.ad-status__note')?.textContent).toMatch(
      /^This ad stopped running on Dec 1, 2026\. /,
    );
    expect(facts(takenDown.container).Status).toBe('Taken down');
  });

  it('answers an unknown token and a phone that asked too often in English, and titles the page in English', async () => {
    const router = (status: number) =>
      createMemoryRouter(
        [
          {
            path: '/ads/status/:token',
            Component: AdStatusPage,
            ErrorBoundary,
            loader: () => {
              throw new Response('', { status });
            },
          },
        ],
        { initialEntries: ['/ads/status/x'] },
      );
    renderInEnglish(<RouterProvider router={router(404)} />);
    expect(await screen.findByText('Application not found.')).toBeTruthy();
    cleanup();
    renderInEnglish(<RouterProvider router={router(429)} />);
    expect(await screen.findByText('Please open it again in a moment.')).toBeTruthy();
    await englishCatalog();
    const matches = [{ id: 'root', data: { locale: 'en' } }];
    expect(meta({ matches } as unknown as Parameters<typeof meta>[0])).toContainEqual({
      title: 'Your ad application — HUFS Bus',
    });
  });
});
