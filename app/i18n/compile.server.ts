/**
 * The catalog compiler's one definition, for `npm run messages` (scripts/compile-messages.ts) and
 * the catalog tests: ICU MessageFormat messages → the source of an ES module of functions
 * (@messageformat/core compileModule), strict plural keys, the plural rules written out below;
 * which files are compiled from which catalogs.
 */
import MessageFormat, { type PluralFunction } from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module.js';
import { LOCALES, type Locale } from '../../contract/locales';

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

/** The namespaces: one catalog file per language each (app/i18n/messages/{locale}/{namespace}.json). */
export const NAMESPACES = ['common', 'home', 'install', 'howto', 'faq', 'privacy', 'contact', 'ads', 'edge'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/**
 * The api's catalogs, each api/{part}/messages/{locale}.json from the repository root, compiled
 * beside the part that uses them (api/{part}/compiled/{locale}.js), which may not import app/: the
 * e-mails' (docs/product.md §11 E-mail) and the reminders' notifications (ADR 033).
 */
export const API_CATALOG_PARTS = ['mail', 'reminders'] as const;

/** The catalog of the api's `part` in `locale`, from the repository root. */
export const apiCatalog = (part: (typeof API_CATALOG_PARTS)[number], locale: Locale) =>
  `api/${part}/messages/${locale}.json`;

/**
 * A compiled file: its path and its source catalogs' from the repository root, its language, its
 * declaration; or, with `parts`, a module that merges the compiled modules at those paths (relative
 * to it) into one.
 */
export type CompiledFile = { path: string; locale: Locale; catalogs: string[]; declaration: string; parts?: string[] };

/**
 * The compiled files, each with its source catalogs and its declaration (`.d.ts` beside it): one
 * module per namespace and language, the Korean ones imported by the components that use them so a
 * page carries only its own; one English module merging every namespace's, loaded before an
 * English page hydrates; one module per language of each of the api's catalogs.
 */
export const COMPILED_FILES: CompiledFile[] = [
  ...LOCALES.flatMap((locale) =>
    NAMESPACES.map((namespace) => ({
      path: `app/i18n/compiled/${locale}/${namespace}.js`,
      locale,
      catalogs: [`app/i18n/messages/${locale}/${namespace}.json`],
      declaration: `declare const messages: import('../../i18n').Messages<keyof typeof import('../../messages/ko/${namespace}.json')>;`,
    })),
  ),
  {
    path: 'app/i18n/compiled/en.js',
    locale: 'en',
    catalogs: [],
    parts: NAMESPACES.map((namespace) => `./en/${namespace}.js`),
    declaration: "declare const messages: import('../i18n').Catalog;",
  },
  ...API_CATALOG_PARTS.flatMap((part) =>
    LOCALES.map((locale) => ({
      path: `api/${part}/compiled/${locale}.js`,
      locale,
      catalogs: [apiCatalog(part, locale)],
      declaration:
        "declare const messages: Record<keyof typeof import('../messages/ko.json'), (params?: Record<string, string | number>) => string>;",
    })),
  ),
];

/** A compiled file's declaration file, as written beside it. */
export const declarationOf = (file: CompiledFile) =>
  `// Written by npm run messages.\n${file.declaration}\nexport default messages;\n`;

/**
 * The compiled module of `messages` (message key → ICU MessageFormat text) in `locale`, headed by
 * a line that says where it comes from (`source`). @throws the parser's error on a malformed
 * message, or a plural category the language does not have.
 */
export function compiledCatalog(locale: Locale, messages: Record<string, string>, source: string): string {
  const format = new MessageFormat(pluralRule(locale), { strictPluralKeys: true });
  return `// Compiled from ${source} by npm run messages: edit the catalog, not this file.\n${compileModule(format, messages)}\n`;
}

/**
 * The compiled source of `file`: its catalogs in its language, merged (keys are unique across
 * namespaces: the catalog test holds them so), read by `read` (a path from the repository root →
 * the parsed JSON); for a file of `parts`, the module that imports them and merges their messages.
 */
export function compiledSource(file: CompiledFile, read: (path: string) => Record<string, string>): string {
  if (file.parts) {
    const names = file.parts.map((_, index) => `part${index}`);
    const imports = file.parts.map((part, index) => `import ${names[index]} from '${part}';\n`).join('');
    return `// Written by npm run messages: the compiled modules it imports, in one.\n${imports}export default { ${names.map((name) => `...${name}`).join(', ')} };\n`;
  }
  const messages = Object.assign({}, ...file.catalogs.map(read));
  return compiledCatalog(file.locale, messages, file.catalogs.join(', '));
}
