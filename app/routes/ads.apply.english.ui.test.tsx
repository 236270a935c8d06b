// @vitest-environment happy-dom
/**
 * /ads/apply in English in the browser (docs/product.md §1 Languages, §2.5): the labels, hints,
 * price box and price line in English, "KRW × months" amounts, the ad's language offered in its own
 * words, the checks' messages in English in the spec's order, and no Korean outside `lang="ko"`.
 * The action in English: ads.apply.english.test.ts.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import AdApply, { meta } from '~/routes/ads.apply';
import { englishCatalog } from '~/i18n/i18n';
import { hangulOutsideKorean, renderRouteInEnglish } from '../../tests/setup/english-route';

afterEach(cleanup);

const renderApply = (bankAccount: object | null = null, statusLink: object | null = null) =>
  renderRouteInEnglish(AdApply, { url: '/ads/apply', loaderData: { bankAccount, statusLink } });

describe('/ads/apply in English', () => {
  it('labels every field, states the price and the payment in English, and shows no Korean', async () => {
    const { container } = renderApply();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Advertise');
    for (const label of ['Ad title', 'Your name', 'Phone number', 'E-mail', 'Ad image', 'Ad message'])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByText('Link').textContent).toBe('Link (optional)');
    expect(screen.getByRole('group', { name: 'Ad type' }).textContent).toBe(
      'Ad typeWeb banner adimage 350×100Chatbot adimage 350×175',
    );
    expect(container.querySelector('.notice-box p')?.textContent).toBe(
      'An ad costs 26,000 KRW a month (30 days). After sending the application, please pay by bank transfer. ' +
        'We approve the ad once we find your deposit, and its period starts on the day of approval.',
    );
    expect(container.querySelector('.notice-box strong')?.textContent).toBe('26,000 KRW a month (30 days)');
    expect(screen.getByText('The reviewer e-mails you the bank account once your application arrives.')).toBeTruthy();
    expect(
      screen.getByText(/^JPG, PNG, GIF · up to 5MB · recommended size web 350×100, chatbot 350×175$/),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeTruthy();
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('prices each duration and the chosen one as "26,000 KRW × 2 months = 52,000 KRW"', async () => {
    const { container } = renderApply();
    const durations = await screen.findByRole('group', { name: 'Ad duration' });
    expect([...durations.querySelectorAll('label')].map((label) => label.textContent)).toEqual([
      '1 month26,000 KRW',
      '2 months52,000 KRW',
      '3 months78,000 KRW',
    ]);
    expect(container.querySelector('.total')?.textContent).toBe('Choose a duration to see the total.');
    await act(async () => void fireEvent.click(screen.getByLabelText(/^2 months/)));
    expect(container.querySelector('.total')?.textContent).toBe('Total: 26,000 KRW × 2 months = 52,000 KRW');
    expect(container.querySelector('.total strong')?.textContent).toBe('52,000 KRW');
    await act(async () => void fireEvent.click(screen.getByLabelText(/^1 month/)));
    expect(container.querySelector('.total')?.textContent).toBe('Total: 26,000 KRW × 1 month = 26,000 KRW');
  });

  it('offers the ad’s language in its own words, each marked with its language, Korean checked', async () => {
    renderApply();
    const languages = await screen.findByRole('group', { name: 'Language of your ad' });
    const options = [...languages.querySelectorAll('label')].map((label) => ({
      text: label.textContent,
      lang: label.querySelector('[lang]')?.getAttribute('lang'),
      checked: label.querySelector('input')?.checked,
      value: label.querySelector('input')?.value,
    }));
    expect(options).toEqual([
      { text: '한국어', lang: 'ko', checked: true, value: 'ko' },
      { text: 'English', lang: 'en', checked: false, value: 'en' },
    ]);
    expect(document.getElementById(languages.getAttribute('aria-describedby')!)?.textContent).toBe(
      "Choose the language you write the ad's title and message in. Ads are shown as written, never translated.",
    );
  });

  it('checks an empty form in the browser with English messages, in the spec’s order, the image first (the ad message only for a chatbot ad)', async () => {
    const { container } = renderApply();
    await act(async () => void fireEvent.click(await screen.findByRole('button', { name: 'Apply' })));
    expect(screen.getByRole('alert').querySelector('.error-summary__title')?.textContent).toBe(
      'Please check what you entered',
    );
    expect([...container.querySelectorAll('.error-summary li')].map((item) => item.textContent)).toEqual([
      'Please upload an image.',
      'Please choose an ad type.',
      'Please enter a title.',
      'Please enter your name.',
      'Please enter a phone number.',
      'Please enter an e-mail address.',
      'Please choose how long the ad runs.',
    ]);
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('tells a taken application, its status link and the bank account in English', async () => {
    const url = 'https://bus.example.com/ads/status/tok';
    const bank = { bank: 'Nonghyup', number: '351-1234-5678-90', holder: 'Campus Bus' };
    const { container } = renderApply(bank, { url, emailed: true });
    expect((await screen.findByRole('status')).textContent).toBe(
      'We received your ad application. We review it once your deposit arrives.',
    );
    const notice = screen.getByRole('region', { name: "Your application's link" });
    expect(notice.textContent).toContain(
      'Follow the review at the link below. It is shown only this once, so please save it. ' +
        'We also sent it to the e-mail address you gave.',
    );
    expect(notice.querySelector('a')?.getAttribute('href')).toBe(url);
    expect(container.querySelector('.bank-account')?.textContent).toBe(
      'Bank account: Nonghyup 351-1234-5678-90 (account holder: Campus Bus)',
    );
    expect(container.querySelector('.bank-account strong')?.textContent).toBe('351-1234-5678-90');
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('titles and describes the page in English', async () => {
    await englishCatalog();
    const matches = [{ id: 'root', data: { locale: 'en' } }];
    expect(meta({ matches } as unknown as Parameters<typeof meta>[0])).toEqual([
      { title: 'Advertise — HUFS Bus' },
      {
        name: 'description',
        content: 'Advertise your shop on the HUFS Bus screens and its KakaoTalk chatbot, for 26,000 KRW a month.',
      },
    ]);
  });
});
