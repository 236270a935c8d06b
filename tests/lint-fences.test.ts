/**
 * The layering fences of eslint.config.js, proved with ESLint's own Node API on small sources placed
 * where the fences stand (docs/architecture.md §Layering): each rule fails the code it fences, and
 * the same code where it belongs passes.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.config.js' });

/** The rule ids ESLint reports for `code` as the file at `filePath` (repo-relative). */
async function problemsOf(code: string, filePath: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((message) => message.ruleId);
}

/** The distinct rule ids of problemsOf (a name written twice is reported twice). */
async function rulesBrokenBy(code: string, filePath: string): Promise<(string | null)[]> {
  return [...new Set(await problemsOf(code, filePath))];
}

const callsFetch = `export async function load() {
  return (await fetch('/bus/time-left')).json();
}
`;
const usesQueryBuilder = `import { eq } from 'drizzle-orm';
export const byId = eq;
`;
const usesTables = (path: string) => `import { ads } from '${path}';
export const table = ads;
`;
const callsDomain = `import { listServedAds } from '../ads/managed';
export const list = listServedAds;
`;

describe('the lint fences', () => {
  it.each(['app/routes/x.tsx', 'app/models/x.server.ts', 'app/components/x.tsx'])(
    'refuse a global fetch in %s',
    async (filePath) => {
      expect(await problemsOf(callsFetch, filePath)).toEqual(['no-restricted-globals']);
    },
  );

  it.each(['globalThis', 'window', 'self'])('refuse %s.fetch in a component', async (object) => {
    const code = `export const load = () => ${object}.fetch('/bus/time-left');\n`;
    expect(await problemsOf(code, 'app/components/x.tsx')).toEqual(['no-restricted-properties']);
  });

  it.each(['app/utils/x.ts', 'app/root.tsx', 'app/entry.client.tsx'])(
    'refuse a global fetch in %s',
    async (filePath) => {
      expect(await problemsOf(callsFetch, filePath)).toEqual(['no-restricted-globals']);
    },
  );

  it.each([
    'app/utils/use-live-time-left.ts',
    'app/hooks/use-live-time-left.ts',
    'app/utils/upstream.server.ts',
    'app/models/upstream.server.ts',
  ])('let the refresh hook and the upstream client call fetch, in either of their folders (%s)', async (filePath) => {
    expect(await problemsOf(callsFetch, filePath)).toEqual([]);
  });

  it('refuse drizzle-orm in an api route', async () => {
    expect(await problemsOf(usesQueryBuilder, 'api/routes/x.ts')).toEqual(['no-restricted-imports']);
    expect(
      await problemsOf(`import { sql } from 'drizzle-orm/sql';\nexport const q = sql;\n`, 'api/routes/x.ts'),
    ).toEqual(['no-restricted-imports']);
  });

  it.each(['../db/schema', '../db/schema/ads', '../../api/db/schema'])(
    'refuse the tables (%s) in an api route',
    async (path) => {
      expect(await problemsOf(usesTables(path), 'api/routes/x.ts')).toEqual(['no-restricted-imports']);
    },
  );

  it('let the domain modules use the query builder and the tables', async () => {
    expect(await problemsOf(usesQueryBuilder, 'api/ads/x.ts')).toEqual([]);
    expect(await problemsOf(usesTables('../db/schema'), 'api/ads/x.ts')).toEqual([]);
  });

  it.each(['app/routes/x.tsx', 'app/models/x.server.ts', 'app/components/x.tsx', 'app/utils/x.ts'])(
    'refuse an import of api/ from %s',
    async (filePath) => {
      const code = `import { createApi } from '../../api/app';\nexport const api = createApi;\n`;
      expect(await problemsOf(code, filePath)).toEqual(['no-restricted-imports']);
    },
  );

  it.each([
    ['~/utils/upstream.server', 'app/routes/x.tsx'],
    ['./upstream.server', 'app/utils/x.ts'],
    ['../utils/upstream.server', 'app/components/x.tsx'],
    ['~/models/upstream.server', 'app/routes/x.tsx'],
    ['../models/upstream.server', 'app/utils/x.ts'],
  ])('refuse the upstream client (%s) outside app/models/, as in %s', async (path, filePath) => {
    const code = `import { upstreamJson } from '${path}';\nexport const call = upstreamJson;\n`;
    expect(await rulesBrokenBy(code, filePath)).toEqual(['no-restricted-imports']);
    expect(await problemsOf(code, 'app/models/x.server.ts')).toEqual([]);
  });

  it("let app/ take the upstream client's error class", async () => {
    const code = `import { UpstreamError } from './upstream.server';\nexport const E = UpstreamError;\n`;
    expect(await problemsOf(code, 'app/utils/x.ts')).toEqual([]);
  });

  it.each([
    ['../../api/app', 'app/routes/x.tsx'],
    ['../api/app', 'app/utils/x.ts'],
    ['~/utils/upstream.server', 'app/routes/x.tsx'],
    ['./upstream.server', 'app/utils/x.ts'],
    ['pg', 'api/ads/x.ts'],
    ['drizzle-orm/pglite', 'app/utils/x.ts'],
    ['drizzle-orm', 'api/routes/x.ts'],
    ['../db/schema', 'api/routes/x.ts'],
    ['date-fns', 'api/x.ts'],
    ['zod', 'lib/x.ts'],
  ])('refuse a dynamic import of %s in %s', async (path, filePath) => {
    const code = `export const load = () => import('${path}');\n`;
    expect(await problemsOf(code, filePath)).toEqual(['no-restricted-syntax']);
  });

  it('refuse a dynamic import whose module is not a string literal in app code', async () => {
    const template = 'export const load = () => import(`../../api/app`);\n';
    expect(await problemsOf(template, 'app/routes/x.tsx')).toEqual(['no-restricted-syntax']);
    const computed = `const path = '../../api/app';\nexport const load = () => import(path);\n`;
    expect(await problemsOf(computed, 'app/utils/x.ts')).toEqual(['no-restricted-syntax']);
  });

  it('let a dynamic import cross no fence', async () => {
    const code = (path: string) => `export const load = () => import('${path}');\n`;
    expect(await problemsOf(code('sortablejs'), 'app/components/x.tsx')).toEqual([]);
    expect(await problemsOf(code('~/utils/upstream.server'), 'app/models/x.server.ts')).toEqual([]);
    expect(await problemsOf(code('pg'), 'api/db/x.ts')).toEqual([]);
    expect(await problemsOf(code('./s3'), 'api/storage/x.ts')).toEqual([]);
  });

  it.each([
    'export const q = (db) => db.$client.query("select 1");\n',
    'export const q = (db) => db["$client"].query("select 1");\n',
    'export const q = ({ $client }) => $client.query("select 1");\n',
  ])("refuse the driver's client outside api/db/: %s", async (code) => {
    expect(await rulesBrokenBy(code, 'api/routes/x.ts')).toEqual(['no-restricted-syntax']);
    expect(await rulesBrokenBy(code, 'api/ads/x.ts')).toEqual(['no-restricted-syntax']);
    expect(await problemsOf(code, 'api/db/x.ts')).toEqual([]);
  });

  it.each(['api/ads/x.ts', 'api/routes/x.ts', 'lib/x.ts', 'app/utils/x.server.ts', 'tests/setup/x.ts'])(
    'refuse createRequire in %s',
    async (filePath) => {
      const code = `import { createRequire } from 'node:module';\nexport const pg = createRequire(import.meta.url)('pg');\n`;
      expect(await rulesBrokenBy(code, filePath)).toEqual(['no-restricted-syntax']);
      expect(await problemsOf(code, 'api/db/x.ts')).toEqual([]);
    },
  );

  /** A module that imports `name` from `path`. */
  const importing = (path: string, name = 'x') => `import { ${name} } from '${path}';\nexport const y = ${name};\n`;

  it.each([
    '~/models/bus.server',
    '../models/bus.server',
    '~/components/site-header',
    '~/routes/_index',
    '~/hooks/use-hydrated',
    '~/server/csp.server',
  ])('keep app/utils/ leaf code: refuse %s there', async (path) => {
    expect(await problemsOf(importing(path), 'app/utils/x.ts')).toEqual(['no-restricted-imports']);
  });

  it('let app/utils/ import other utils, contract/ and lib/', async () => {
    expect(await problemsOf(importing('~/utils/arrival'), 'app/utils/x.ts')).toEqual([]);
    expect(await problemsOf(importing('./arrival'), 'app/utils/x.ts')).toEqual([]);
    expect(await problemsOf(importing('../../contract/bus'), 'app/utils/x.ts')).toEqual([]);
    expect(await problemsOf(importing('../../lib/hash'), 'app/utils/x.ts')).toEqual([]);
  });

  it.each(['~/server/csp.server', '~/models/bus.server', '../models/bus.server'])(
    'refuse the edge and the models (%s) in a hook',
    async (path) => {
      expect(await problemsOf(importing(path), 'app/hooks/x.ts')).toEqual(['no-restricted-imports']);
    },
  );

  it.each([
    'app/routes/x.tsx',
    'app/components/x.tsx',
    'app/components/admin/x.tsx',
    'app/root.tsx',
    'app/models/x.server.ts',
  ])('refuse the HTTP edge (app/server/) in %s', async (filePath) => {
    expect(await problemsOf(importing('~/server/csp.server'), filePath)).toEqual(['no-restricted-imports']);
    expect(await problemsOf(importing('../../server/csp.server'), filePath)).toEqual(['no-restricted-imports']);
  });

  it('let the edge import models and utils, and the document entry import the edge', async () => {
    expect(await problemsOf(importing('~/models/bus.server', 'getTimeLeft'), 'app/server/x.server.ts')).toEqual([]);
    expect(await problemsOf(importing('~/utils/arrival'), 'app/server/x.server.ts')).toEqual([]);
    expect(await problemsOf(importing('~/server/csp.server'), 'app/entry.server.tsx')).toEqual([]);
    expect(await problemsOf(importing('~/utils/arrival'), 'app/hooks/x.ts')).toEqual([]);
  });

  it.each(['pg', 'pg/lib/client', '@electric-sql/pglite', 'drizzle-orm/node-postgres', 'drizzle-orm/pglite/migrator'])(
    'refuse a database driver (%s) outside api/db/ and tests/setup/',
    async (driver) => {
      const code = `import * as driver from '${driver}';\nexport const d = driver;\n`;
      expect(await problemsOf(code, 'api/ads/x.ts')).toEqual(['no-restricted-imports']);
      expect(await problemsOf(code, 'tests/x.test.ts')).toEqual(['no-restricted-imports']);
      expect(await problemsOf(code, 'api/db/x.ts')).toEqual([]);
      expect(await problemsOf(code, 'tests/setup/x.ts')).toEqual([]);
    },
  );

  it.each(['api/db/schema/x.ts', 'api/db/x.ts', 'api/time.ts', 'api/clock.ts'])(
    'refuse a domain folder in the ground (%s), and let it have contract/',
    async (filePath) => {
      const up = filePath.split('/').length - 2; // folders between the file and api/
      const importing = (path: string) => `import type { X } from '${path}';\nexport type Y = X;\n`;
      for (const domain of ['bus/feed/snapshot', 'ads/managed', 'routes/bus', 'context']) {
        const path = `${up ? '../'.repeat(up) : './'}${domain}`;
        expect(await problemsOf(importing(path), filePath), path).toEqual(['no-restricted-imports']);
      }
      expect(await problemsOf(importing(`${'../'.repeat(up + 1)}contract/feed-snapshot`), filePath)).toEqual([]);
    },
  );

  it('keep lib/ to Node built-ins and contract/ to zod', async () => {
    const usesZod = `import { z } from 'zod';\nexport const s = z.string();\n`;
    expect(await problemsOf(usesZod, 'lib/x.ts')).toEqual(['no-restricted-imports']);
    expect(await problemsOf(`import { Buffer } from 'node:buffer';\nexport const b = Buffer;\n`, 'lib/x.ts')).toEqual(
      [],
    );
    expect(await problemsOf(usesZod, 'contract/x.ts')).toEqual([]);
    expect(await problemsOf(`import { Hono } from 'hono';\nexport const h = Hono;\n`, 'contract/x.ts')).toEqual([
      'no-restricted-imports',
    ]);
  });

  it.each(['api/x.ts', 'api/db/x.ts', 'tests/setup/x.ts', 'app/models/x.server.ts', 'api/routes/x.ts'])(
    "refuse date-fns's index in %s, and take its functions by path",
    async (filePath) => {
      expect(await problemsOf(`import { format } from 'date-fns';\nexport const f = format;\n`, filePath)).toEqual([
        'no-restricted-imports',
      ]);
      expect(
        await problemsOf(`import { format } from 'date-fns/format';\nexport const f = format;\n`, filePath),
      ).toEqual([]);
    },
  );

  it('pass a route that calls domain functions, and a web route that calls a model', async () => {
    expect(await problemsOf(callsDomain, 'api/routes/x.ts')).toEqual([]);
    const webRoute = `import { listBanners } from '~/models/ads.server';
export async function loader() {
  return listBanners();
}
`;
    expect(await problemsOf(webRoute, 'app/routes/x.tsx')).toEqual([]);
  });
});
