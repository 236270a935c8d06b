// @vitest-environment happy-dom
/**
 * /privacypolicy in English (docs/product.md §1 Languages, §2.9 Privacy policy): the note that the
 * Korean text binds, first; the numbered articles, the periods and the effective date in English;
 * no Korean.
 */
import { cleanup, screen } from '@testing-library/react';
import PrivacyPolicy, { meta } from '~/routes/privacypolicy';
import { englishCatalog } from '~/i18n/i18n';
import { hangulOutsideKorean, renderRouteInEnglish } from '../../tests/setup/english-route';

afterEach(cleanup);

const officer = { name: 'Hong Gildong', email: 'privacy@example.com' };

/** The page in English with the loader's `privacyOfficer` and `analytics`. */
async function page(loaderData: { privacyOfficer: typeof officer | null; analytics: boolean }) {
  const { container } = renderRouteInEnglish(PrivacyPolicy, { url: '/privacypolicy', loaderData });
  await screen.findByRole('heading', { level: 1 });
  const article = (number: number) => container.querySelector(`section[aria-labelledby="article-${number}"]`)!;
  return { container, article };
}

describe('/privacypolicy in English', () => {
  it('says first, under the title, that it is a translation and the Korean text binds, linking to it', async () => {
    const { container } = await page({ privacyOfficer: null, analytics: false });
    const note = container.querySelector('h1 + [role="note"]')!;
    expect(note.textContent).toBe(
      'This English translation is provided for convenience; the Korean version is the binding one.',
    );
    const korean = note.querySelector('a')!;
    expect([korean.getAttribute('href'), korean.getAttribute('hreflang')]).toEqual([
      '/language/ko?back=%2Fprivacypolicy',
      'ko',
    ]);
  });

  it('numbers its twelve articles in English, with the periods and the effective date, and shows no Korean', async () => {
    const { container, article } = await page({ privacyOfficer: null, analytics: false });
    const headings = [...container.querySelectorAll('h2')].map((h) => h.textContent);
    expect(headings).toHaveLength(12);
    expect(headings[0]).toBe('Article 1 (Personal data we process)');
    expect(headings[11]).toBe('Article 12 (Changes to this policy)');
    expect(article(1).textContent).toContain('deleted within 2 hours of the last request)');
    expect(article(1).textContent).toContain('the IP address for 1 year only');
    expect(article(1).textContent).toContain('The service uses no analytics tool');
    const periods = [...article(3).querySelectorAll('li strong')].map((strong) => strong.textContent);
    expect(periods).toEqual([
      '3 years',
      '30 days',
      '1 year',
      '1 year',
      '2 hours',
      '25 hours',
      '25 hours',
      '30 days',
      '30 days',
      '24 hours',
    ]);
    expect(article(6).textContent).toContain('They are encrypted so that only your browser can read them');
    expect(article(8).textContent).toContain('We set no cookies for ordinary visitors. Only an admin');
    expect(article(10).querySelector('a')?.getAttribute('href')).toBe('/contact');
    expect(article(12).querySelector('strong')?.textContent).toBe('7 days before');
    const effective = container.querySelector('.policy__effective')!;
    expect(effective.textContent).toBe('Effective: Jun 4, 2024');
    expect(effective.querySelector('time')?.getAttribute('datetime')).toBe('2024-06-04');
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('with analytics and an officer configured: the analytics data and cookies, the officer, in English', async () => {
    const { container, article } = await page({ privacyOfficer: officer, analytics: true });
    expect(article(1).textContent).toContain(
      'of the last request), and analytics data for usage statistics (pages visited, device and browser type, approximate region and the like)',
    );
    expect(article(2).textContent).toContain('Analytics data: understanding how the service is used');
    expect(article(8).textContent).toContain(
      'We set no cookies for ordinary visitors (except the analytics cookies below).',
    );
    expect(article(8).textContent).toContain('The service uses Google Analytics for usage statistics.');
    expect([...article(10).querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Name', 'Email']);
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('is titled and described in English', async () => {
    await englishCatalog();
    expect(meta({ matches: [{ id: 'root', data: { locale: 'en' } }] } as never)).toEqual([
      { title: 'Privacy policy — HUFS Bus' },
      {
        name: 'description',
        content:
          'The personal data HUFS Bus processes, why, how long it is kept and how it is destroyed, your rights, cookies and analytics, and the privacy officer.',
      },
    ]);
  });
});
