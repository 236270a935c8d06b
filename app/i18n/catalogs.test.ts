/**
 * The message catalogs (ADR 032): each namespace has the same keys in Korean and English and no key
 * is in two namespaces, every placeholder of the Korean text is in the English one, every key is
 * used by the pages, each compiled file is what its catalogs compile to, and a compiled file needs
 * no Intl (ADR 026). The api's catalogs (api/{mail,reminders}/messages/) are held to the same,
 * their keys used by their part of the api.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type Token } from '@messageformat/parser';
import {
  compiledCatalog,
  compiledSource,
  COMPILED_FILES,
  API_CATALOG_PARTS,
  apiCatalog,
  NAMESPACES,
} from './compile.server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): Record<string, string> => JSON.parse(readFileSync(join(root, path), 'utf8'));
const catalogOf = (locale: string, namespace: string) => read(`app/i18n/messages/${locale}/${namespace}.json`);

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

/** The source files under `dir` (tests and compiled catalogs left out). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'compiled' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('the message catalogs', () => {
  it('are the namespaces there are, in both languages', () => {
    for (const locale of ['ko', 'en'])
      expect(readdirSync(join(root, `app/i18n/messages/${locale}`)).sort()).toEqual(
        NAMESPACES.map((namespace) => `${namespace}.json`).sort(),
      );
  });

  it.each(NAMESPACES)('have the same keys in Korean and English, in no other namespace (%s)', (namespace) => {
    const keys = Object.keys(catalogOf('ko', namespace));
    expect(Object.keys(catalogOf('en', namespace)).sort()).toEqual([...keys].sort());
    for (const other of NAMESPACES.filter((name) => name !== namespace))
      expect(keys.filter((key) => key in catalogOf('ko', other))).toEqual([]);
  });

  it.each(NAMESPACES)('keep every placeholder of the Korean text in the English one (%s)', (namespace) => {
    const en = catalogOf('en', namespace);
    for (const [key, text] of Object.entries(catalogOf('ko', namespace))) {
      // English may say more (a price line's monthly fee), never less.
      expect([...placeholders(parse(en[key]))], key).toEqual(expect.arrayContaining([...placeholders(parse(text))]));
    }
  });

  it('hold no key the pages do not use', () => {
    const code = sources(join(root, 'app')).join('\n');
    const keys = NAMESPACES.flatMap((namespace) => Object.keys(catalogOf('ko', namespace)));
    expect(keys.filter((key) => !code.includes(`'${key}'`))).toEqual([]);
  });

  it.each(API_CATALOG_PARTS)(
    'of api/%s have the same keys and placeholders in Korean and English, each used there',
    (part) => {
      const [ko, en] = [read(apiCatalog(part, 'ko')), read(apiCatalog(part, 'en'))];
      expect(Object.keys(en).sort()).toEqual(Object.keys(ko).sort());
      for (const [key, text] of Object.entries(ko)) {
        expect([...placeholders(parse(en[key]))].sort(), key).toEqual([...placeholders(parse(text))].sort());
      }
      const code = sources(join(root, 'api', part)).join('\n');
      expect(Object.keys(ko).filter((key) => !code.includes(`'${key}'`))).toEqual([]);
    },
  );

  it.each(COMPILED_FILES.map((file) => [file.path, file] as const))(
    'are compiled as they stand, with no Intl and no number formatting (%s)',
    (path, file) => {
      const compiled = readFileSync(join(root, path), 'utf8');
      expect(compiled, 'run npm run messages').toBe(compiledSource(file, read));
      expect(compiled).not.toMatch(/Intl|\bnumber\(|\bdate\(|\btime\(/);
    },
  );

  it('compile plurals with the stated rules, and refuse a category the language lacks', async () => {
    const stops = '{count, plural, one {{count} stop} other {{count} stops}}';
    // Where the compiled module can import @messageformat/runtime as a page does.
    const path = join(root, 'node_modules/.cache/catalog-plural.test.mjs');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, compiledCatalog('en', { stops }, 'a test'));
    // @ts-expect-error -- a module this test writes just above, without types.
    const { default: catalog } = await import('../../node_modules/.cache/catalog-plural.test.mjs');
    expect([0, 1, 2].map((count) => catalog.stops({ count }))).toEqual(['0 stops', '1 stop', '2 stops']);
    expect(() => compiledCatalog('ko', { stops }, 'a test')).toThrow();
  });
});
