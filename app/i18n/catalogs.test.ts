/**
 * The message catalogs (ADR 032): both languages have the same keys, every placeholder of the
 * Korean text is in the English one, every key is used by the pages, each compiled catalog is what
 * its catalog compiles to, and a compiled catalog needs no Intl (ADR 026).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type Token } from '@messageformat/parser';
import { compiledCatalog, compiledPath } from './compile.server';
import { LOCALES } from './locales';

const root = fileURLToPath(new URL('../..', import.meta.url));
const catalogOf = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(join(root, `app/i18n/messages/${locale}.json`), 'utf8'));
const [ko, en] = [catalogOf('ko'), catalogOf('en')];

/** The argument names of a message, nested plurals and selects included. */
function placeholders(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  for (const token of tokens) {
    if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
    if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
      names.add(token.arg);
      for (const branch of token.cases) placeholders(branch.tokens).forEach((name) => names.add(name));
    }
  }
  return names;
}

/** The source files of the pages (app/, tests left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'compiled' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('the message catalogs', () => {
  it('have the same keys in Korean and English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ko).sort());
  });

  it('keep every placeholder of the Korean text in the English one', () => {
    for (const [key, text] of Object.entries(ko)) {
      expect([...placeholders(parse(en[key]))].sort(), key).toEqual([...placeholders(parse(text))].sort());
    }
  });

  it('hold no key the pages do not use', () => {
    const code = sources(join(root, 'app')).join('\n');
    const unused = Object.keys(ko).filter((key) => !code.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });

  it.each(LOCALES)('are compiled as they stand, with no Intl and no number formatting (%s)', (locale) => {
    const compiled = readFileSync(join(root, compiledPath(locale)), 'utf8');
    expect(compiled, 'run npm run messages').toBe(compiledCatalog(locale, catalogOf(locale)));
    expect(compiled).not.toMatch(/Intl|\bnumber\(|\bdate\(|\btime\(/);
  });

  it('compile plurals with the stated rules, and refuse a category the language lacks', async () => {
    const stops = '{count, plural, one {{count} stop} other {{count} stops}}';
    // Where the compiled module can import @messageformat/runtime as a page does.
    const path = join(root, 'node_modules/.cache/catalog-plural.test.mjs');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, compiledCatalog('en', { stops }));
    // @ts-expect-error -- a module this test writes just above, without types.
    const { default: catalog } = await import('../../node_modules/.cache/catalog-plural.test.mjs');
    expect([0, 1, 2].map((count) => catalog.stops({ count }))).toEqual(['0 stops', '1 stop', '2 stops']);
    expect(() => compiledCatalog('ko', { stops })).toThrow();
  });
});
