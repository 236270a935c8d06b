/**
 * GET /language/:locale?back=PATH: the language switch (docs/product.md §1 Languages; ADR 032).
 * Remembers the choice (the `lang` cookie, app/i18n/locale.server.ts) and sends the rider back to
 * the page they switched on, now in that language. A plain link, so it works without JavaScript.
 * `back` is taken only as a path of this site ("/…", not "//…"); anything else goes back to /.
 * A locale the site does not have answers 404.
 */
import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { languageCookie } from '~/i18n/locale.server';
import { isLocale } from '../../contract/locales';

/** `back` as a path of this site (WHATWG URL parsing, as the browser will), or '/' when it names another origin. */
export function sameSitePath(back: string | null): string {
  const base = 'http://site.invalid';
  if (!back?.startsWith('/')) return '/';
  const url = new URL(back, base);
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : '/';
}

export function loader({ request, params, context }: LoaderFunctionArgs) {
  if (!isLocale(params.locale)) {
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const back = sameSitePath(new URL(request.url).searchParams.get('back'));
  const cookie = languageCookie(params.locale, context.admin?.secureCookie ?? false);
  return redirect(back, { status: 303, headers: { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
}
