/**
 * The import graph of the product's code (api/, app/, contract/, lib/; tests aside) has no circle:
 * a module never reaches itself through what it imports, so each folder's layer (docs/architecture.md
 * §Layering) can be read bottom up. Type-only imports are left out: they vanish from the built code.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['api', 'app', 'contract', 'lib'];
const SOURCE = /\.tsx?$/;
const TEST = /\.test\.tsx?$/;

const files = FOLDERS.flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => SOURCE.test(path) && !TEST.test(path))
    .map((path) => join(ROOT, folder, path)),
);

/** The file `specifier` names from `from`, for the repo's own modules (relative or `~/`); else null. */
function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith('~/')
    ? join(ROOT, 'app', specifier.slice(2))
    : specifier.startsWith('.')
      ? resolve(dirname(from), specifier)
      : null;
  if (base === null) return null;
  for (const candidate of ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => base + ending)) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** What `file` imports at run time: static imports and re-exports (not `import type`), and import(). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?\bfrom\s+['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]);
  return specifiers.map((specifier) => resolveImport(file, specifier)).filter((path) => path !== null);
}

/** Every circle a depth-first walk of `graph` meets, each as the files around it. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[][] = [];
  const walk = (file: string, path: string[]) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next, path);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file, []);
  return circles;
}

describe('the import graph', () => {
  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('has no circle in api/, app/, contract/ and lib/', () => {
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    expect(files.length).toBeGreaterThan(200);
    const circles = circlesOf(graph).map((circle) => circle.map((file) => relative(ROOT, file)).join(' → '));
    expect(circles).toEqual([]);
  });
});
