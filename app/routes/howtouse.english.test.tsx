// @vitest-environment happy-dom
/** /howtouse in English (docs/product.md §1 Languages, §2.8 Usage guide): the steps, the stops beside their signs' Korean, no other Korean. */
import { cleanup, screen } from '@testing-library/react';
import HowToUse, { meta } from '~/routes/howtouse';
import { englishCatalog } from '~/i18n/i18n';
import { hangulOutsideKorean, renderRouteInEnglish } from '../../tests/setup/english-route';

afterEach(cleanup);

describe('/howtouse in English', () => {
  it('walks through the five steps in English, with the refresh interval and the links', async () => {
    const { container } = renderRouteInEnglish(HowToUse, { url: '/howtouse', loaderData: {} });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('How to use');
    const steps = [...container.querySelectorAll('ol > li')];
    expect(steps.map((step) => step.querySelector('h2')?.textContent)).toEqual([
      'Open the site',
      'Check the routes',
      'Read the live arrivals',
      'Check the expected departures',
      'Questions? FAQ and Contact',
    ]);
    expect(steps[1].querySelectorAll('strong')[0].textContent).toBe('To campus');
    expect(steps[1].querySelectorAll('strong')[1].textContent).toBe('From campus');
    expect(steps[1].textContent).toContain('(HUFS Crossroads 외대사거리 → Mohyeon Crossroads 모현사거리 →');
    expect(steps[2].querySelector('strong')?.textContent).toBe('4 seconds');
    expect(steps[3].textContent).toContain('HUFS Bus expects');
    expect([...steps[4].querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['FAQ', '/faq'],
      ['Contact', '/contact'],
    ]);
    expect(container.querySelector('[role="note"]')?.textContent).toMatch(/^Real arrival and departure times vary/);
  });

  it('explains the sample card’s fields in English, the stop’s sign in Korean beside it, and shows no other Korean', async () => {
    const { container } = renderRouteInEnglish(HowToUse, { url: '/howtouse', loaderData: {} });
    await screen.findByRole('heading', { level: 1 });
    const rows = [...container.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['routeNo', 'Route number', 'Bus 1150'],
      [
        'time',
        'Minutes until the bus reaches HUFS Crossroads 외대사거리. At 4 or less it turns red and says “Arriving soon”; at 0 or less it says “No arrival info”.',
        '3 min',
      ],
      ['location', 'Stops left before HUFS Crossroads 외대사거리', '2 stops away'],
    ]);
    expect(container.querySelector('td [lang="ko"]')?.textContent).toBe('외대사거리');
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('is titled and described in English', async () => {
    await englishCatalog();
    const matches = [{ id: 'root', data: { locale: 'en' } }];
    expect(meta({ matches } as never)).toEqual([
      { title: 'How to use — HUFS Bus' },
      {
        name: 'description',
        content:
          'How to use HUFS Bus: live arrivals to campus, expected departures from campus, and reading the information that refreshes every 4 seconds.',
      },
    ]);
  });
});
