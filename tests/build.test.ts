/**
 * `npm start` does not rebuild when the build is up to date with the sources
 * (scripts/build-inputs.js), and does when a source changed. On a small package tree in a temporary
 * directory: what counts as a source, and what does not (tests, the build's own outputs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildIsFresh, INPUT_DIRS, INPUT_FILES, inputsHash, STAMP } from '../scripts/build-inputs.js';

describe('the build stamp', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const stamp = () => write(STAMP, inputsHash(root));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'campus-bus-stamp-'));
    for (const file of INPUT_FILES) write(file, `// ${file}`);
    for (const dir of INPUT_DIRS) mkdirSync(join(root, dir));
    write('app/root.tsx', 'export default 1;');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is stale without a stamp, and fresh once the stamp matches the sources', () => {
    expect(buildIsFresh(root)).toBe(false);
    stamp();
    expect(buildIsFresh(root)).toBe(true);
  });

  it('goes stale when a source, a config file or a public file changes, or a source is added', () => {
    for (const [path, text] of [
      ['app/root.tsx', 'export default 2;'],
      ['package-lock.json', '{}'],
      ['public/logo.svg', '<svg/>'],
      ['api/new-module.ts', 'export {};'],
    ]) {
      stamp();
      write(path, text);
      expect(buildIsFresh(root), path).toBe(false);
    }
  });

  it('stays fresh when only tests or what the build writes change', () => {
    stamp();
    write('app/root.test.tsx', 'test');
    write('public/build/entry.client-ABC.js', 'js');
    write('public/sw.js', 'sw');
    write('public/offline.html', '<html>');
    write('build/index.js', 'server');
    expect(buildIsFresh(root)).toBe(true);
  });
});
