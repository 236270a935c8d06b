/**
 * The languages of the public pages (docs/product.md §1 Languages; ADR 032): Korean, the default
 * and the only one of the admin pages, and English. Their plural rules are stated here, not asked
 * of Intl: pages do no Intl work while they load (ADR 026), and these two languages need no more.
 */
export const LOCALES = ['ko', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'ko';

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** Each language's name in itself, as the language switch offers it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { ko: '한국어', en: 'English' };

/** A CLDR cardinal plural category of these languages. */
type PluralCategory = 'one' | 'other';
type PluralRule = ((n: number | string, ordinal?: boolean) => PluralCategory) & {
  cardinals: PluralCategory[];
  ordinals: PluralCategory[];
};

/** Korean (CLDR): no plural forms. */
function ko(): PluralCategory {
  return 'other';
}
/** English (CLDR): "one" for 1, cardinals only (no ordinal is used). */
function en(n: number | string, ordinal?: boolean): PluralCategory {
  return !ordinal && String(n) === '1' ? 'one' : 'other';
}

/**
 * Each language's plural rule, in the shape @messageformat/core takes as a locale: a function
 * named by the language, with its categories. The catalog compiler (scripts/compile-messages.ts)
 * copies the function's source into the compiled catalog, so it must stand alone.
 */
export const PLURAL_RULES: Record<Locale, PluralRule> = {
  ko: Object.assign(ko, { cardinals: ['other'] as PluralCategory[], ordinals: ['other'] as PluralCategory[] }),
  en: Object.assign(en, { cardinals: ['one', 'other'] as PluralCategory[], ordinals: ['other'] as PluralCategory[] }),
};
