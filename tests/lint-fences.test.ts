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

  it.each(['app/utils/use-live-time-left.ts', 'app/utils/upstream.server.ts'])(
    'let the refresh hook and the upstream client in app/utils/ call fetch (%s)',
    async (filePath) => {
      expect(await problemsOf(callsFetch, filePath)).toEqual([]);
    },
  );

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

  it('refuse the upstream client outside app/models/', async () => {
    const code = `import { upstreamJson } from '~/utils/upstream.server';\nexport const call = upstreamJson;\n`;
    expect(await problemsOf(code, 'app/routes/x.tsx')).toEqual(['no-restricted-imports']);
    expect(await problemsOf(code, 'app/models/x.server.ts')).toEqual([]);
  });

  it.each(['pg', '@electric-sql/pglite', 'drizzle-orm/node-postgres'])(
    'refuse a database driver (%s) outside api/db/',
    async (driver) => {
      const code = `import * as driver from '${driver}';\nexport const d = driver;\n`;
      expect(await problemsOf(code, 'api/ads/x.ts')).toEqual(['no-restricted-imports']);
      expect(await problemsOf(code, 'api/db/x.ts')).toEqual([]);
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

  it("refuse date-fns's index, and take its functions by path", async () => {
    expect(await problemsOf(`import { format } from 'date-fns';\nexport const f = format;\n`, 'api/x.ts')).toEqual([
      'no-restricted-imports',
    ]);
    expect(
      await problemsOf(`import { format } from 'date-fns/format';\nexport const f = format;\n`, 'api/x.ts'),
    ).toEqual([]);
  });

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
