/**
 * The catalog compiler's one definition, for `npm run messages` (scripts/compile-messages.ts) and
 * the catalog tests: ICU MessageFormat messages → the source of an ES module of functions
 * (@messageformat/core compileModule), strict plural keys, the plural rules written out below.
 */
import MessageFormat, { type PluralFunction } from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module.js';
import { LOCALES, type Locale } from './locales';

export { LOCALES };

/**
 * Each language's CLDR cardinal plural rule as the compiled catalog states it (no ordinal is used):
 * Korean has no plural forms, English has "one" for 1. Written out, not asked of Intl: pages do no
 * Intl work while they load (ADR 026), and these two languages need no more.
 */
const PLURAL_RULES: Record<Locale, { source: string; cardinals: PluralFunction['cardinals'] }> = {
  ko: { source: 'function ko() { return "other"; }', cardinals: ['other'] },
  en: {
    source: 'function en(n, ordinal) { return !ordinal && String(n) === "1" ? "one" : "other"; }',
    cardinals: ['one', 'other'],
  },
};

/**
 * `locale`'s rule as @messageformat/core takes a locale: a function named by the language, with its
 * categories, whose source (toString) the compiler copies into the catalog. Only that source runs:
 * the compiler calls no rule.
 */
function pluralRule(locale: Locale): PluralFunction {
  const { source, cardinals } = PLURAL_RULES[locale];
  const named = Object.defineProperty(() => 'other' as const, 'name', { value: locale });
  return Object.assign(named, { cardinals, ordinals: ['other' as const], toString: () => source });
}

/** Where a language's compiled catalog is kept, from the repository root (its types beside it, `.d.ts`). */
export const compiledPath = (locale: Locale) => `app/i18n/compiled/${locale}.js`;

/** The declaration beside each compiled catalog: a Catalog (app/i18n/i18n.tsx). */
export const COMPILED_DECLARATION =
  "// Written by npm run messages.\ndeclare const messages: import('../i18n').Catalog;\nexport default messages;\n";

/**
 * The compiled module of `messages` (message key → ICU MessageFormat text) in `locale`, headed by
 * a line that says where it comes from. @throws the parser's error on a malformed message, or a
 * plural category the language does not have.
 */
export function compiledCatalog(locale: Locale, messages: Record<string, string>): string {
  const format = new MessageFormat(pluralRule(locale), { strictPluralKeys: true });
  return `// Compiled from app/i18n/messages/${locale}.json by npm run messages: edit the catalog, not this file.\n${compileModule(format, messages)}\n`;
}
