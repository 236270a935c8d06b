/**
 * `npm run messages`: compiles the message catalogs (app/i18n/messages/{locale}.json, ICU
 * MessageFormat) into app/i18n/compiled/{locale}.js, an ES module of one function per message
 * (@messageformat/core compileModule; ADR 032), with the language's plural rule of
 * app/i18n/compile.server.ts copied in. The pages import the compiled modules: no parser and no Intl in
 * the browser. `--check` compiles in memory and exits 1 when a compiled file differs from its
 * catalog (app/i18n/catalogs.test.ts runs the same comparison).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCli } from './cli';
import { COMPILED_DECLARATION, compiledCatalog, compiledPath, LOCALES } from '../app/i18n/compile.server';

const values = parseCli('Usage: npm run messages [-- --check]', { check: { type: 'boolean', default: false } });
const root = fileURLToPath(new URL('..', import.meta.url));
let stale = 0;
for (const locale of LOCALES) {
  const path = `${root}${compiledPath(locale)}`;
  const compiled = compiledCatalog(locale, JSON.parse(readFileSync(`${root}app/i18n/messages/${locale}.json`, 'utf8')));
  if (!values.check) {
    writeFileSync(path, compiled);
    writeFileSync(path.replace(/\.js$/, '.d.ts'), COMPILED_DECLARATION);
  } else if (readFileSync(path, 'utf8') !== compiled) {
    console.error(`${compiledPath(locale)} is not compiled from its catalog: run npm run messages`);
    stale++;
  }
}
process.exit(stale ? 1 : 0);
