// One linter config for the whole repo, with the layering enforced as lint rules so a wrong import
// or call fails `npm test` instead of waiting for review (docs/architecture.md §Layering): routes call
// domain functions, never the query builder; the web reaches the api only through its models.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Database drivers: only api/db/ opens a database (tests/setup/ creates and drops test databases). */
const databaseDrivers = {
  group: [
    'pg',
    'postgres',
    '@electric-sql/pglite',
    '@electric-sql/pglite/*',
    'drizzle-orm/pglite*',
    'drizzle-orm/node-postgres*',
    'drizzle-orm/postgres-js*',
  ],
  message: 'Only api/db/ imports a database driver: use api/db/client.ts.',
};
/** The web reaches the api only through models (app/models/) and the upstream client. */
const upstreamCalls = {
  group: ['~/models/upstream.server', '**/models/upstream.server'],
  importNames: ['upstreamJson', 'upstreamFetch'],
  message: 'Only app/models/ calls the api: add a model function.',
};
/** date-fns's index loads all of its ~250 functions, 0.1 s of every start: import each from its path. */
const dateFnsIndex = { name: 'date-fns', message: "Import each function from its own path: 'date-fns/format'." };
/** api routes are thin Hono sub-apps: the queries live in the domain modules (api/ads/, api/admin/ …). */
const queryBuilder = {
  group: ['drizzle-orm', 'drizzle-orm/*'],
  message: 'api/routes/ call domain functions, never the query builder: add one to the domain module.',
};
const schemaFromRoutes = {
  regex: '(^|/)db/schema(/|$)',
  message: 'api/routes/ call domain functions, never the tables: add one to the domain module.',
};
const apiFromWeb = {
  regex: '(^|/)api/',
  message: 'app/ never imports api/ (server.ts is the one bridge): share types through contract/.',
};
/** The fences every module of app/ stands behind. */
const webFences = [upstreamCalls, databaseDrivers, apiFromWeb];
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
  'Routes and components call a model; a model calls the api through app/models/upstream.server.ts. ' +
  "The browser's one fetch is the refresh hook, app/hooks/use-live-time-left.ts.";

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
      'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [databaseDrivers] }],
    },
  },
  {
    files: ['api/db/**', 'tests/setup/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['app/**'],
    ignores: ['app/models/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: webFences }] },
  },
  {
    files: ['app/models/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [dateFnsIndex], patterns: [databaseDrivers, apiFromWeb, edgeFromPages] },
      ],
    },
  },
  {
    files: ['app/utils/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [...webFences, aboveUtils] }] },
  },
  {
    files: ['app/hooks/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [...webFences, serverFromHooks] }] },
  },
  {
    files: ['app/routes/**', 'app/components/**', 'app/root.tsx'],
    // A test may build its load context as the edge does (the env's PublicConfig); the fence is for the pages.
    ignores: ['app/**/*.test.ts', 'app/**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [...webFences, edgeFromPages] }] },
  },
  {
    files: ['api/routes/**'],
    // Tests set up and read rows directly; the fence is for the routes themselves.
    ignores: ['api/routes/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [dateFnsIndex], patterns: [databaseDrivers, queryBuilder, schemaFromRoutes] },
      ],
    },
  },
  {
    // The browser's fetch is called by the refresh hook (app/hooks/) and the upstream client only.
    files: ['app/routes/**', 'app/models/**', 'app/components/**'],
    ignores: ['app/models/upstream.server.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: fetchMessage }],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'window', 'self'].map((object) => ({ object, property: 'fetch', message: fetchMessage })),
      ],
    },
  },
  {
    files: ['lib/**'],
    ignores: ['lib/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!node:|\\./)', message: 'lib/ is shared by api/ and app/: Node built-ins and itself only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['contract/**'],
    ignores: ['contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\./)', message: 'contract/ depends on zod and itself only.' }] },
      ],
    },
  },
);
