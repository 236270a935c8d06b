/** GET /language/:locale (the language switch, docs/product.md §1 Languages): remembered, and back to the page. */
import type { AppLoadContext } from '@remix-run/node';
import { loader, sameSitePath } from '~/routes/language.$locale';
import { localeOf } from '~/i18n/locale.server';

const context = { admin: { secureCookie: true } } as unknown as AppLoadContext;
const switchTo = (locale: string, query = '') =>
  loader({ request: new Request(`http://web.test/language/${locale}${query}`), params: { locale }, context });

describe('GET /language/:locale', () => {
  it('remembers the choice for a year and sends the rider back to the page, in that language', async () => {
    const response = await switchTo('en', `?back=${encodeURIComponent('/faq?x=1#top')}`);
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/faq?x=1#top');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const cookie = response.headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(/^lang=[^;]+; Max-Age=31536000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(await localeOf('/faq', { cookie: cookie.split(';')[0], acceptLanguage: 'ko-KR' })).toBe('en');
    const back = await switchTo('ko', '?back=%2F');
    expect(await localeOf('/', { cookie: back.headers.get('Set-Cookie')!.split(';')[0], acceptLanguage: 'en' })).toBe(
      'ko',
    );
  });

  it('goes back only to a path of this site', () => {
    for (const back of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      'javascript:x',
      '/\t/evil.example',
    ])
      expect(sameSitePath(back), String(back)).toBe('/');
    expect(sameSitePath('/?dir=down&refresh=off')).toBe('/?dir=down&refresh=off');
  });

  it('answers 404 for a language the site does not have, and sets nothing', async () => {
    const response = await switchTo('fr', '?back=/faq');
    expect(response.status).toBe(404);
    expect(response.headers.get('Set-Cookie')).toBeNull();
  });
});
