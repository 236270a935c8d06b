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
  group: ['~/utils/upstream.server', '**/utils/upstream.server'],
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
/** The api's ground (the database, the business time, the clock) lies under every domain folder. */
const domainFromGround = {
  regex: '(^|/)(ads|admin|bus|inquiries|kakao|mail|privacy|routes)/|(^|/)(app|context|runtime|compose)$',
  message: "The api's ground imports no domain folder: move what it needs down into it or into contract/.",
};
const apiFromWeb = {
  regex: '(^|/)api/',
  message: 'app/ never imports api/ (server.ts is the one bridge): share types through contract/.',
};

/** Why routes, models and components never call the browser's fetch themselves. */
const fetchMessage =
  'Routes and components call a model; a model calls the api through app/utils/upstream.server.ts. ' +
  "The browser's one fetch is the refresh hook, app/utils/use-live-time-left.ts.";

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
    files: ['api/db/**'],
    ignores: ['api/db/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [domainFromGround] }] },
  },
  {
    files: ['api/time.ts', 'api/clock.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [databaseDrivers, domainFromGround] }],
    },
  },
  {
    files: ['app/**'],
    ignores: ['app/models/**', 'app/utils/upstream.server*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [dateFnsIndex], patterns: [upstreamCalls, databaseDrivers, apiFromWeb] },
      ],
    },
  },
  {
    files: ['app/models/**', 'app/utils/upstream.server*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [dateFnsIndex], patterns: [databaseDrivers, apiFromWeb] }] },
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
    // The browser's fetch is called by the refresh hook and the upstream client (app/utils/) only.
    files: ['app/routes/**', 'app/models/**', 'app/components/**'],
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
