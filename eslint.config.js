// One linter config for the whole repo (style.md): TypeScript, React hooks, accessibility, and the
// layering of ../shared/reference/style.md enforced as import rules, so a wrong import fails `npm test`.
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
/** date-fns's index loads all of its ~250 functions (0.1 s of every start, issue 11): import each from its path. */
const dateFnsIndex = { name: 'date-fns', message: "Import each function from its own path: 'date-fns/format'." };
const apiFromWeb = {
  regex: '(^|/)api/',
  message: 'app/ never imports api/ (server.ts is the one bridge): share types through contract/.',
};

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
