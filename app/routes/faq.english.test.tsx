// @vitest-environment happy-dom
/**
 * /faq in English (docs/product.md §1 Languages, §2.6 FAQ): the six questions, the refresh interval,
 * the price and payment, the stop beside its sign's Korean, the accuracy figure with its durations
 * and days written out in English ("1 min 44 s", "Nov 9"), and no other Korean.
 */
import { cleanup, screen } from '@testing-library/react';
import type { PredictionAccuracy } from '../../contract/bus';
import Faq, { meta } from '~/routes/faq';
import { englishCatalog } from '~/i18n/i18n';
import { accuracyBody } from '../../tests/mocks/api';
import { hangulOutsideKorean, renderRouteInEnglish } from '../../tests/setup/english-route';

afterEach(cleanup);

const bankAccount = { bank: 'NH Bank', number: '351-1234-5678-90', holder: 'Campus Bus' };

/** The page in English with the loader's `accuracy` and `bankAccount`. */
async function page(accuracy: PredictionAccuracy | null, account: typeof bankAccount | null = null) {
  const { container } = renderRouteInEnglish(Faq, { url: '/faq', loaderData: { accuracy, bankAccount: account } });
  await screen.findByRole('heading', { level: 1 });
  const items = [...container.querySelectorAll('details')];
  return { container, items, answer: (index: number) => items[index].querySelector('.faq__answer')!.textContent };
}

describe('/faq in English', () => {
  it('asks the six questions in English and answers them, with no Korean but the stop’s sign', async () => {
    const { container, items, answer } = await page(accuracyBody);
    expect(container.querySelector('h1')?.textContent).toBe('FAQ');
    expect(items.map((item) => item.querySelector('summary')?.textContent)).toEqual([
      'Where does the bus information come from?',
      'How often does the information refresh?',
      'How are the expected departures from campus computed? How accurate are they?',
      'How do I apply for an ad?',
      'I found a bug, or I have a suggestion.',
      'How is my personal data handled?',
    ]);
    expect(items[1].querySelector('strong')?.textContent).toBe('4 seconds');
    expect(answer(2)).toContain('When a bus on its way to campus passes HUFS Crossroads 외대사거리, the estimate');
    expect(items[2].querySelector('[lang="ko"]')?.textContent).toBe('외대사거리');
    expect(answer(3)).toContain('An ad costs 26,000 KRW a month (30 days), for 1, 2 or 3 months.');
    expect(answer(3)).toContain(
      'After sending the application, please pay by bank transfer. We approve the ad once we find your deposit',
    );
    expect(answer(3)).toContain('The reviewer e-mails you the bank account once your application arrives.');
    expect([...container.querySelectorAll('.faq__answer a')].map((a) => a.getAttribute('href'))).toEqual([
      '/ads/apply',
      '/contact',
      '/privacypolicy',
    ]);
    expect(container.querySelector('.faq__inquiry h2')?.textContent).toBe('Didn’t find your answer?');
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('states the accuracy in English: days, percentages, durations in minutes and seconds, the checking windows', async () => {
    const { container } = await page({ ...accuracyBody, source: 'demo' }, bankAccount);
    const figure = container.querySelector('#accuracy')!;
    const [sentence, backtest, tolerances] = [...figure.querySelectorAll('p')].map((p) => p.textContent);
    expect(sentence).toBe('Over the last 2 weeks, the expected departures were off by about 2 minutes on average.');
    expect(backtest).toBe(
      'From Nov 9 to Nov 22, checked against the real departures of those 14 days, the “Expected” times were 65% accurate. ' +
        'They were off from the real departure by 1 min 44 s on average. ' +
        'Using “Yesterday” as it was would have been 41% accurate over the same days, off by 5 min 28 s on average.',
    );
    expect(tolerances).toContain('from 15 minutes before it leaves until it leaves');
    expect(tolerances).toContain(
      'Within 3 minutes of departure, 30 s earlier to 1 min 30 s later than expected counts;',
    );
    expect(tolerances).toContain('(0–3 min before, 3–6 min before, 6–10 min before, 10–15 min before)');
    expect(tolerances).toMatch(/These figures come from simulated runs\.$/);
    expect(container.textContent).toContain(
      'The bank account is NH Bank 351-1234-5678-90 (account holder: Campus Bus).',
    );
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('says in English that there is no figure yet', async () => {
    const none = { ...accuracyBody, window: { days: 0, firstDate: null, lastDate: null } };
    const { container } = await page({ ...none, estimate: { etaScore: null, maeSec: null, queries: 0 } });
    expect(container.querySelector('#accuracy')?.textContent).toBe(
      'There is no accuracy figure yet. Once enough runs are recorded, it will be computed once a day over the last 14 days and shown here.',
    );
  });

  it('is titled and described in English', async () => {
    await englishCatalog();
    const [title, description] = meta({ matches: [{ id: 'root', data: { locale: 'en' } }] } as never) ?? [];
    expect(title).toEqual({ title: 'FAQ — HUFS Bus' });
    expect(description).toMatchObject({
      name: 'description',
      content: expect.stringMatching(/^Answers about HUFS Bus: /),
    });
  });
});
