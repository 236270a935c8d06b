import type { Locale } from '../../contract/locales';
import { languageCookie, localeOf } from './locale.server';

const cookieOf = (locale: string) => languageCookie(locale as Locale, false).split(';')[0];

describe('localeOf', () => {
  it('follows the phone: English for en-US, Korean for ko-KR, for none and for a language the site lacks', async () => {
    expect(localeOf('/', { acceptLanguage: 'en-US,en;q=0.9' })).toBe('en');
    expect(localeOf('/', { acceptLanguage: 'ko-KR,ko;q=0.9,en-US;q=0.8' })).toBe('ko');
    expect(localeOf('/', { acceptLanguage: 'fr-FR,fr;q=0.9,en;q=0.5' })).toBe('en');
    expect(localeOf('/', { acceptLanguage: 'fr-FR' })).toBe('ko');
    expect(localeOf('/', {})).toBe('ko');
    expect(localeOf('/', { acceptLanguage: ';;q=x,,' })).toBe('ko');
  });

  it('takes the switch’s choice over the phone’s, and ignores a cookie it did not set', async () => {
    expect(localeOf('/faq', { cookie: cookieOf('ko'), acceptLanguage: 'en-US' })).toBe('ko');
    expect(localeOf('/faq', { cookie: cookieOf('en'), acceptLanguage: 'ko-KR' })).toBe('en');
    expect(localeOf('/faq', { cookie: 'lang=%%%', acceptLanguage: 'en' })).toBe('en');
    expect(localeOf('/faq', { cookie: cookieOf('fr'), acceptLanguage: 'ko' })).toBe('ko');
  });

  it('answers the admin pages in Korean whatever is asked', async () => {
    for (const path of ['/admin-only', '/admin-only/feed', '/admin-only_/login']) {
      expect(localeOf(path, { cookie: cookieOf('en'), acceptLanguage: 'en' }), path).toBe('ko');
    }
    expect(localeOf('/admin-onlyx', { acceptLanguage: 'en' })).toBe('en');
  });
});
