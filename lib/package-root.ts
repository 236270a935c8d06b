/**
 * The repository's root directory (the one holding package.json), found from this module's own
 * file: the same whether it runs from source (tsx) or bundled into build/server.js. Paths to drizzle/, build/ and public/ start from it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** @throws when no directory above this file holds a package.json. */
function findRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('no package.json above the server module');
  }
}

export const PACKAGE_ROOT = findRoot();
