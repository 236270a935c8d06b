/**
 * docs/architecture.md §Where to find a screen, the map from a URL to its files, held to the tree: every
 * route module has a row, every file a row names exists, every model function it names is exported
 * by a file of its row, and every component and model a route module imports is in its row (or, for
 * those pages share, in the note below the table).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const exists = (path: string) => existsSync(join(ROOT, path));

const COLUMNS = ['URL', 'route module (app/routes/)', 'components', 'model', 'api route', 'domain'];

type Row = { url: string; route: string | null; components: string; models: string; api: string; domain: string };

const section = read('docs/architecture.md').split('\n## Where to find a screen\n')[1]?.split('\n## ')[0] ?? '';
const lines = section.split('\n').filter((line) => line.startsWith('|'));
const cellsOf = (line: string) =>
  line
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());
const rows: Row[] = lines.slice(2).map((line) => {
  const [url, route, components, models, api, domain] = cellsOf(line);
  return { url, route: /^`([^`]+\.tsx?)`$/.exec(route)?.[1] ?? null, components, models, api, domain };
});
/** The text after the table, which names what every page renders besides its own components. */
const note = section.slice(section.lastIndexOf(lines[lines.length - 1]));

/** `text` split at its commas outside parentheses. */
function topLevelParts(text: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) parts.push('');
    else parts[parts.length - 1] += char;
  }
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

const COMPONENT = /^[a-z][a-z0-9-]*(\/[a-z0-9-]+)?$/;

/**
 * The components a cell names, as paths under app/components/ without extension. The cell is a
 * list of `name` or `name (what it renders, …)`, or `none` with a note; inside parentheses a part
 * that is one name is a component, any other part (words, a backticked export) a note.
 */
function componentsIn(cell: string): string[] {
  return topLevelParts(cell).flatMap((part) => {
    const [, head, inner = ''] = /^([^(]*?)\s*(?:\((.*)\))?$/.exec(part) ?? [part, part];
    const rendered = inner
      .split(',')
      .map((name) => name.trim())
      .filter((name) => COMPONENT.test(name));
    return head.startsWith('none') ? [] : [head, ...rendered];
  });
}

const componentFile = (name: string) =>
  [`app/components/${name}.tsx`, `app/components/${name}.ts`].find(exists) ?? null;
/** The models a cell names (`bus.server`), not the .server.ts files it names by path. */
const modelsIn = (cell: string) =>
  [
    ...cell.matchAll(/(?<![\w./-])([a-z][\w-]*\.server)\b(?!\.ts)/g),
    ...cell.matchAll(/(?<![\w./-])app\/models\/([\w-]+\.server)\.ts\b/g),
  ].map((m) => m[1]);
/** Repository paths in a row: app/…, api/…, contract/…, lib/… (a folder ends with `/`). */
const pathsIn = (text: string) =>
  [...text.matchAll(/(?<![\w./-])((?:app|api|contract|lib)\/[\w./$-]*[\w/])/g)].map((m) => m[1]);
/** The names a module exports. */
function exportsOf(path: string): Set<string> {
  const source = read(path);
  const declared = [
    ...source.matchAll(/export\s+(?:async\s+)?(?:function\*?|const|let|class|type|interface)\s+(\w+)/g),
  ];
  const listed = [...source.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}/g)].flatMap((m) =>
    m[1].split(',').map(
      (name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? '',
    ),
  );
  return new Set([...declared.map((m) => m[1]), ...listed]);
}
/** What a route module imports from `~/<folder>/`: `admin/feed-health`, `bus.server`. */
const importsFrom = (source: string, folder: 'components' | 'models') =>
  [...source.matchAll(new RegExp(`from '~/${folder}/([\\w./-]+)'`, 'g'))].map((m) => m[1]);

const routeModules = readdirSync(join(ROOT, 'app/routes')).filter((name) => !/\.test\.tsx?$/.test(name));
const mapped = rows.filter((row): row is Row & { route: string } => row.route !== null);
/** The components every page renders (the note below the table): a row need not list them. */
const everyPage = new Set(
  [...note.matchAll(/[a-z][a-z0-9/-]*/g)].map((m) => m[0]).filter((name) => componentFile(name) !== null),
);

/** The models many pages import for their plumbing (the note below the table): a row need not list them. */
const everyPageModels = new Set(modelsIn(note));

describe('docs/architecture.md §Where to find a screen', () => {
  it('is a table of URL, route module, components, model, api route and domain', () => {
    expect(cellsOf(lines[0])).toEqual(COLUMNS);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.every((row) => row.domain !== undefined)).toBe(true);
  });

  it("lists every route module, so a newcomer finds a screen's file without searching", () => {
    expect(routeModules.length).toBeGreaterThan(20);
    expect(routeModules.filter((name) => !mapped.some((row) => row.route === name))).toEqual([]);
  });

  it('names only files that exist', () => {
    const missing = rows.flatMap((row) => [
      ...(row.route && !exists(`app/routes/${row.route}`) ? [`${row.url}: app/routes/${row.route}`] : []),
      ...componentsIn(row.components)
        .filter((name) => componentFile(name) === null)
        .map((name) => `${row.url}: component ${name}`),
      ...modelsIn(row.models)
        .filter((name) => !exists(`app/models/${name}.ts`))
        .map((name) => `${row.url}: model ${name}`),
      ...[...row.api.matchAll(/(?<![\w./-])([a-z][\w-]*\.ts)\b/g)]
        .filter((m) => !exists(`api/routes/${m[1]}`))
        .map((m) => `${row.url}: api route ${m[1]}`),
      ...pathsIn(Object.values(row).join(' '))
        .filter((path) => !exists(path))
        .map((path) => `${row.url}: ${path}`),
      // A domain file is named by its path, so that the check above finds it.
      ...[...row.domain.matchAll(/(?<![\w./-])[\w-]+\.tsx?\b/g)].map((m) => `${row.url}: ${m[0]} without its folder`),
    ]);
    expect(missing).toEqual([]);
  });

  it('names only model functions that a file of the row exports', () => {
    const unexported = rows.flatMap((row) => {
      const files = [...modelsIn(row.models).map((name) => `app/models/${name}.ts`), ...pathsIn(row.models)];
      const exported = new Set(files.filter(exists).flatMap((file) => [...exportsOf(file)]));
      return [...row.models.matchAll(/`(\w+)`/g)].filter((m) => !exported.has(m[1])).map((m) => `${row.url}: ${m[1]}`);
    });
    expect(unexported).toEqual([]);
  });

  it('lists in its row every component and model a route module imports', () => {
    expect([...everyPage].sort()).toEqual(expect.arrayContaining(['route-error', 'site-header']));
    const unlisted = mapped.flatMap((row) => {
      const source = read(`app/routes/${row.route}`);
      const components = new Set(componentsIn(row.components));
      const models = new Set(modelsIn(row.models));
      return [
        ...importsFrom(source, 'components')
          .filter((name) => !components.has(name) && !everyPage.has(name))
          .map((name) => `${row.route}: component ${name}`),
        ...importsFrom(source, 'models')
          .filter((name) => !models.has(name) && !everyPageModels.has(name))
          .map((name) => `${row.route}: model ${name}`),
      ];
    });
    expect(unlisted).toEqual([]);
  });
});
