import { languageCookie, localeOf } from './locale.server';

const cookieOf = async (locale: string) => (await languageCookie(false).serialize(locale)).split(';')[0];

describe('localeOf', () => {
  it('follows the phone: English for en-US, Korean for ko-KR, for none and for a language the site lacks', async () => {
    expect(await localeOf('/', { acceptLanguage: 'en-US,en;q=0.9' })).toBe('en');
    expect(await localeOf('/', { acceptLanguage: 'ko-KR,ko;q=0.9,en-US;q=0.8' })).toBe('ko');
    expect(await localeOf('/', { acceptLanguage: 'fr-FR,fr;q=0.9,en;q=0.5' })).toBe('en');
    expect(await localeOf('/', { acceptLanguage: 'fr-FR' })).toBe('ko');
    expect(await localeOf('/', {})).toBe('ko');
    expect(await localeOf('/', { acceptLanguage: ';;q=x,,' })).toBe('ko');
  });

  it('takes the switch’s choice over the phone’s, and ignores a cookie it did not set', async () => {
    expect(await localeOf('/faq', { cookie: await cookieOf('ko'), acceptLanguage: 'en-US' })).toBe('ko');
    expect(await localeOf('/faq', { cookie: await cookieOf('en'), acceptLanguage: 'ko-KR' })).toBe('en');
    expect(await localeOf('/faq', { cookie: 'lang=%%%', acceptLanguage: 'en' })).toBe('en');
    expect(await localeOf('/faq', { cookie: await cookieOf('fr'), acceptLanguage: 'ko' })).toBe('ko');
  });

  it('answers the admin pages in Korean whatever is asked', async () => {
    for (const path of ['/admin-only', '/admin-only/feed', '/admin-only_/login']) {
      expect(await localeOf(path, { cookie: await cookieOf('en'), acceptLanguage: 'en' }), path).toBe('ko');
    }
    expect(await localeOf('/admin-onlyx', { acceptLanguage: 'en' })).toBe('en');
  });
});
