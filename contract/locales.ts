/**
 * The languages of the public pages (docs/product.md §1 Languages; ADR 032): Korean, the default
 * and the only one of the admin pages, and English.
 */
export const LOCALES = ['ko', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'ko';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** Each language's name in itself, as the language switch offers it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { ko: '한국어', en: 'English' };
