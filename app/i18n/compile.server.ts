/**
 * The catalog compiler's one definition, for `npm run messages` (scripts/compile-messages.ts) and
 * the catalog tests: ICU MessageFormat messages → the source of an ES module of functions
 * (@messageformat/core compileModule), strict plural keys, the plural rule of app/i18n/locales.ts.
 */
import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module.js';
import { LOCALES, PLURAL_RULES, type Locale } from './locales';

export { LOCALES };

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
  const format = new MessageFormat(PLURAL_RULES[locale], { strictPluralKeys: true });
  return `// Compiled from app/i18n/messages/${locale}.json by npm run messages: edit the catalog, not this file.\n${compileModule(format, messages)}\n`;
}
