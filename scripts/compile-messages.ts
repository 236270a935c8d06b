/**
 * `npm run messages`: compiles the message catalogs (app/i18n/messages/{locale}/{namespace}.json,
 * ICU MessageFormat) into the modules the pages import (app/i18n/compile.server.ts
 * COMPILED_FILES: a Korean module per namespace, one English module), each an ES module of one
 * function per message (@messageformat/core compileModule; ADR 032) with the language's plural rule
 * copied in: no parser and no Intl in the browser. `--check` compiles in memory and exits 1 when a
 * compiled file differs from its catalogs (app/i18n/catalogs.test.ts runs the same comparison).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCli } from './cli';
import { compiledSource, COMPILED_FILES, declarationOf } from '../app/i18n/compile.server';

const values = parseCli('Usage: npm run messages [-- --check]', { check: { type: 'boolean', default: false } });
const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(`${root}${path}`, 'utf8'));
let stale = 0;
for (const file of COMPILED_FILES) {
  const compiled = compiledSource(file, read);
  if (!values.check) {
    mkdirSync(dirname(`${root}${file.path}`), { recursive: true });
    writeFileSync(`${root}${file.path}`, compiled);
    writeFileSync(`${root}${file.path.replace(/\.js$/, '.d.ts')}`, declarationOf(file));
  } else if (readFileSync(`${root}${file.path}`, 'utf8') !== compiled) {
    console.error(`${file.path} is not compiled from its catalogs: run npm run messages`);
    stale++;
  }
}
process.exit(stale ? 1 : 0);
