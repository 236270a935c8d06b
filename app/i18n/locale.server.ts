/**
 * The language a request is answered in (docs/product.md §1 Languages; ADR 032): the one the rider
 * chose with the switch (the `lang` cookie, set by /language/{locale}), else the first of the
 * phone's Accept-Language that the site has (negotiator, "en-US" taking "en"), else Korean. The
 * admin pages are Korean whatever is asked.
 */
import { parse, serialize } from 'cookie';
import Negotiator from 'negotiator';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../contract/locales';

/** The switch's cookie: the chosen locale as it is ("en"), unsigned (a preference, no secret), for every path. */
const LANGUAGE_COOKIE = 'lang';
/** How long the switch's choice is kept: a year, in seconds. */
const CHOICE_MAX_AGE_SEC = 365 * 24 * 60 * 60;

/** The Set-Cookie value that remembers `locale` for a year (`secure` on an https deployment). */
export function languageCookie(locale: Locale, secure: boolean): string {
  return serialize(LANGUAGE_COOKIE, locale, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure,
    maxAge: CHOICE_MAX_AGE_SEC,
  });
}

/** Paths answered in Korean only: the admin pages (docs/product.md §5). */
const KOREAN_ONLY = /^\/admin-only(\/|_|$)/;

/**
 * The locale of a request's `pathname`, from its Cookie and Accept-Language headers (null or absent:
 * not sent). Never throws: a malformed cookie or header counts as not sent.
 */
export function localeOf(
  pathname: string,
  headers: { cookie?: string | null; acceptLanguage?: string | null },
): Locale {
  if (KOREAN_ONLY.test(pathname)) return DEFAULT_LOCALE;
  const chosen = headers.cookie ? parse(headers.cookie)[LANGUAGE_COOKIE] : undefined;
  if (isLocale(chosen)) return chosen;
  if (!headers.acceptLanguage) return DEFAULT_LOCALE;
  const [best] = new Negotiator({ headers: { 'accept-language': headers.acceptLanguage } }).languages([...LOCALES]);
  return isLocale(best) ? best : DEFAULT_LOCALE;
}

/** localeOf a Fetch API request. */
export const localeOfRequest = (request: Request): Locale =>
  localeOf(new URL(request.url).pathname, {
    cookie: request.headers.get('Cookie'),
    acceptLanguage: request.headers.get('Accept-Language'),
  });
