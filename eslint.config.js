// One linter config for the whole repo, with the layering enforced as lint rules so a wrong import
// or call fails `npm test` instead of waiting for review (docs/architecture.md §Layering): routes call
// domain functions, never the query builder; the web reaches the api only through its models.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A fence is a no-restricted-imports pattern: `regex` is the module specifiers it refuses, as written
// in the import. fencesOf() turns a list of them into the rules for one folder, so that a fence holds
// for static imports, re-exports and dynamic import() alike. Flat config replaces a rule's options
// wholesale in a later block, so each block below lists every fence of its folder from these constants.

/** date-fns's index loads all of its ~250 functions, 0.1 s of every start: import each from its path. */
const dateFnsIndex = {
  regex: '^date-fns$',
  message: "Import each function from its own path: 'date-fns/format'.",
};
/** Database drivers: only api/db/ opens a database (tests/setup/ creates and drops test databases). */
const databaseDrivers = {
  regex: '^(pg|postgres|@electric-sql/pglite|drizzle-orm/(pglite|node-postgres|postgres-js))(/|$)',
  message: 'Only api/db/ imports a database driver: use api/db/client.ts.',
};
/** The fences that hold in every folder but their own (api/db/, tests/setup/). */
const everywhere = [dateFnsIndex, databaseDrivers];
/**
 * The web reaches the api only through models (app/models/): the upstream client's calls, by any
 * spelling of its path (`~/utils/…`, `./…`, `../models/…`). Its error class and types are free to import.
 */
const upstreamCalls = {
  regex: '(^|/)upstream\\.server(\\.[jt]s)?$',
  importNames: ['upstreamJson', 'upstreamFetch'],
  message: 'Only app/models/ calls the api: add a model function.',
};
const apiFromWeb = {
  regex: '(^|/)api/',
  message: 'app/ never imports api/ (server.ts is the one bridge): share types through contract/.',
};
/** api routes are thin Hono sub-apps: the queries live in the domain modules (api/ads/, api/admin/ …). */
const queryBuilder = {
  regex: '^drizzle-orm(/|$)',
  message: 'api/routes/ call domain functions, never the query builder: add one to the domain module.',
};
const schemaFromRoutes = {
  regex: '(^|/)db/schema(/|$)',
  message: 'api/routes/ call domain functions, never the tables: add one to the domain module.',
};
/** The api's ground (the database, the business time, the clock) lies under every domain folder. */
const domainFromGround = {
  regex: '(^|/)(ads|admin|bus|inquiries|mail|privacy|reminders|routes|skill)/|(^|/)(app|context|runtime|compose)$',
  message: "The api's ground imports no domain folder: move what it needs down into it or into contract/.",
};
const libImports = {
  regex: '^(?!node:|\\./|prom-client$|pino$|pino-pretty$)',
  message:
    'lib/ is shared by api/ and app/: Node built-ins, the metrics and log libraries (prom-client, pino) and itself only.',
};
const contractImports = {
  regex: '^(?!zod$|\\./)',
  message: 'contract/ depends on zod and itself only.',
};

/**
 * The ways to a database driver that no import names: a require made at run time, and the driver's
 * own client under Drizzle's (`db.$client.query(…)` runs SQL without the query builder). Only
 * api/db/ takes them.
 */
const driverBypasses = [
  {
    selector: "Identifier[name='createRequire']",
    message: 'Only api/db/ loads a database driver, with an import: no createRequire elsewhere.',
  },
  {
    selector: ":matches(Identifier, PrivateIdentifier)[name='$client'], Literal[value='$client']",
    message: "Only api/db/ touches the driver's client: call a domain function, which uses the query builder.",
  },
];
/** A dynamic import() names its module with a string literal, so the fences above can read it. */
const literalImportsOnly = {
  selector: "ImportExpression:not([source.type='Literal'])",
  message: 'Name the module with a string literal, so the lint fences can check it.',
};

/**
 * The rules for one folder: `fences` refused as static imports and re-exports (no-restricted-imports)
 * and as dynamic import() (no-restricted-syntax, which also takes `syntax`).
 * @param fences - no-restricted-imports patterns with a `regex`
 * @param syntax - further no-restricted-syntax entries
 */
function fencesOf(fences, syntax = []) {
  const dynamicImports = fences.map(({ regex, message }) => ({
    selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/i]`,
    message,
  }));
  return {
    'no-restricted-imports': ['error', { patterns: fences }],
    'no-restricted-syntax': ['error', ...dynamicImports, ...syntax],
  };
}

/** A fence on the folders of app/ that `pattern` (a regex) names, imported as `~/models/…` or `../models/…`. */
const webFolder = (pattern, message) => ({ regex: `^(~/|(\\.\\./)+)${pattern}`, message });
/** app/utils/ is leaf code (docs/architecture.md §Layering). */
const aboveUtils = webFolder(
  '(models|components|routes|hooks|server)(/|$)',
  'app/utils/ is leaf code (formatting, parsing): it imports nothing of app/ above it. Move the code to app/models/, app/server/ or app/hooks/.',
);
/** Hooks run in the browser. */
const serverFromHooks = webFolder(
  '(server/|models/[^/]*\\.server$)',
  'A hook runs in the browser: it imports neither the HTTP edge (app/server/) nor a model.',
);
/** The HTTP edge is the entry's: route modules, components and models are below it. */
const edgeFromPages = webFolder(
  'server/',
  'Route modules, components and models never import the HTTP edge (app/server/): server.ts and app/entry.server.tsx do.',
);

/** Why routes, models and components never call the browser's fetch themselves. */
const fetchMessage =
  'Routes and components call a model; a model calls the api through the upstream client (upstream.server.ts). ' +
  "The browser's fetches are the refresh hook's (use-live-time-left.ts) and the reminders' (use-reminder.ts).";

/** The code folders (not the entries, scripts or tests/): a dynamic import there names its module. */
const appCode = ['app/**', 'api/**', 'lib/**', 'contract/**'];
/** Where the upstream client lives (app/models/), with its test. */
const upstreamClient = 'app/**/upstream.server*.ts';
/** The browser's calls: the refresh hook and the reminders', wherever app/ keeps its hooks. */
const browserCalls = ['app/**/use-live-time-left.ts', 'app/**/use-reminder.ts'];

export default tseslint.config(
  {
    ignores: [
      'build/',
      'public/build/',
      'public/sw.js',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'data/',
      // Compiled by npm run messages from app/i18n/messages and api/*/messages (ADR 032).
      'app/i18n/compiled/',
      'api/mail/compiled/',
      'api/reminders/compiled/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The service worker's own script (public/sw-push.js) runs in the worker: its globals only.
    files: ['public/sw-push.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Every file, tests and scripts too: date-fns by path, no database driver.
    rules: fencesOf(everywhere, driverBypasses),
  },
  {
    // App code also names the modules it imports dynamically (tests and scripts load built files).
    files: appCode,
    rules: fencesOf(everywhere, [...driverBypasses, literalImportsOnly]),
  },
  {
    // api/db/ opens the database: its drivers, and the driver's client, are its own.
    files: ['api/db/**'],
    rules: fencesOf([dateFnsIndex], [literalImportsOnly]),
  },
  {
    // tests/setup/ creates and drops test databases with the driver's import.
    files: ['tests/setup/**'],
    rules: fencesOf([dateFnsIndex], driverBypasses),
  },
  {
    // The api's ground (api/db/, the business time, the clock) lies under every domain folder.
    // (api/db/'s tests set up rows through the domains.)
    files: ['api/db/**'],
    ignores: ['api/db/**/*.test.ts'],
    rules: fencesOf([dateFnsIndex, domainFromGround], [literalImportsOnly]),
  },
  {
    files: ['api/time.ts', 'api/clock.ts'],
    rules: fencesOf([...everywhere, domainFromGround], [...driverBypasses, literalImportsOnly]),
  },
  {
    // The web reaches the api through its models only, and never imports api/.
    files: ['app/**'],
    ignores: ['app/models/**', upstreamClient],
    rules: fencesOf([...everywhere, upstreamCalls, apiFromWeb], [...driverBypasses, literalImportsOnly]),
  },
  {
    // The models (and the upstream client they call) are the web's one way to the api, below the edge.
    files: ['app/models/**', upstreamClient],
    rules: fencesOf([...everywhere, apiFromWeb, edgeFromPages], [...driverBypasses, literalImportsOnly]),
  },
  {
    // app/utils/ is leaf code: nothing of app/ above it.
    files: ['app/utils/**'],
    rules: fencesOf([...everywhere, upstreamCalls, apiFromWeb, aboveUtils], [...driverBypasses, literalImportsOnly]),
  },
  {
    // Hooks run in the browser: neither the edge nor a model.
    files: ['app/hooks/**'],
    rules: fencesOf(
      [...everywhere, upstreamCalls, apiFromWeb, serverFromHooks],
      [...driverBypasses, literalImportsOnly],
    ),
  },
  {
    // Route modules and components sit below the edge. A test may build its load context as the edge
    // does (the env's PublicConfig); the fence is for the pages.
    files: ['app/routes/**', 'app/components/**', 'app/root.tsx'],
    ignores: ['app/**/*.test.{ts,tsx}'],
    rules: fencesOf([...everywhere, upstreamCalls, apiFromWeb, edgeFromPages], [...driverBypasses, literalImportsOnly]),
  },
  {
    // Routes call domain functions, never the query builder or the tables. Tests set up and read rows
    // directly; the fence is for the routes themselves.
    files: ['api/routes/**'],
    ignores: ['api/routes/**/*.test.ts'],
    rules: fencesOf([...everywhere, queryBuilder, schemaFromRoutes], [...driverBypasses, literalImportsOnly]),
  },
  {
    // The browser's fetch is called by the refresh and reminder hooks and the upstream client only: everything else
    // in app/ goes through a model. (Tests fetch the servers they start.)
    files: ['app/**'],
    ignores: [...browserCalls, upstreamClient, 'app/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: fetchMessage }],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'window', 'self'].map((object) => ({ object, property: 'fetch', message: fetchMessage })),
      ],
    },
  },
  {
    // lib/ is bundled by both api/ and app/: Node built-ins, prom-client and pino, and itself.
    files: ['lib/**'],
    ignores: ['lib/**/*.test.ts'],
    rules: fencesOf([libImports], [...driverBypasses, literalImportsOnly]),
  },
  {
    // contract/ is loaded by both sides and the browser: zod and itself.
    files: ['contract/**'],
    ignores: ['contract/**/*.test.ts'],
    rules: fencesOf([contractImports], [literalImportsOnly]),
  },
);
