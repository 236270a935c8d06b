/**
 * A fuzz pass over every endpoint of the api (its own route table, so a new one is fuzzed too), in
 * process on PGlite: oversize, truncated, wrongly typed and wrongly encoded bodies, and odd headers,
 * with and without the service token. Each answer is a 4xx (or the endpoint's success), never a
 * 5xx, and a refused request leaves every table as it was: nothing half-stored. (The web's forms
 * are fuzzed through the running server in tests/attack-forms.test.ts.)
 */
import { count } from 'drizzle-orm';
import fc from 'fast-check';
import type { Api } from '../api/app';
import type { Database } from '../api/db/client';
import {
  adminSessions,
  adminUsers,
  adApplications,
  ads,
  auditLog,
  imageUploads,
  inquiries,
  pushSubscriptions,
  reminders,
  settings,
} from '../api/db/schema';
import { testApi } from './setup/api';
import { createTestDatabase } from './setup/db';
import { FakeClock } from './setup/fakes';
import { TEST_VAPID } from './setup/push';
import { tempLocalStore } from './setup/storage';

const TOKEN = 'fuzz-service-token-'.padEnd(40, 'x');
const SKILL_SECRET = 'fuzz-skill-secret-'.padEnd(40, 'y');

let database: Database;
let app: Api;

beforeAll(async () => {
  database = await createTestDatabase('pglite');
  app = testApi({
    db: database.db,
    storage: tempLocalStore(),
    clock: new FakeClock(new Date('2026-11-23T08:00:00+09:00')),
    serviceToken: TOKEN,
    skillSecret: SKILL_SECRET,
    vapidPublicKey: TEST_VAPID.publicKey, // reminders on, as every deployment has them
  });
});
afterAll(() => database.close());

/** Every table a write could leave half-done, with its row count. */
async function rowCounts() {
  const tables = {
    adminSessions,
    adminUsers,
    adApplications,
    ads,
    auditLog,
    imageUploads,
    inquiries,
    pushSubscriptions,
    reminders,
    settings,
  };
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) {
    counts[name] = (await database.db.select({ n: count() }).from(table))[0].n;
  }
  return counts;
}

/** The api's endpoints as `[method, path]` with their parameters filled, from its route table. */
function endpoints(): [string, string][] {
  const seen = new Set<string>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL' || path.endsWith('*')) continue; // middleware
    const filled = path
      .replace(/:type(\{[^}]*\})?/g, 'web')
      .replace(/:id(\{[^}]*\})?/g, '1')
      .replace(/:routeNo(\{[^}]*\})?/g, '1150')
      .replace(/:key(\{[^}]*\})?/g, 'web-00000000-0000-0000-0000-000000000000.png')
      .replace(/:\w+(\{[^}]*\})?/g, 'x');
    seen.add(`${method} ${filled}`);
  }
  return [...seen].map((entry) => entry.split(' ') as [string, string]);
}

const bodies = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }),
  fc.constantFrom(
    '{"content":',
    '{"content":"\\u0000"}',
    '{"type":"web","title":1}',
    '{"username":"admin","password":[]}',
    '{"token":"x","username":"a","password":"b"}',
    '{"userRequest":{"utterance":{}}}',
    '\uFEFF{"content":"bom"}',
    JSON.stringify({ content: 'x'.repeat(70_000) }),
    '',
  ),
);
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
  '',
);
const oddHeaders = fc.record(
  {
    'X-Forwarded-For': fc.constantFrom('203.0.113.5', '', 'not-an-ip', '::1, 10.0.0.1', 'x'.repeat(500)),
    'X-Admin-Session': fc.constantFrom('', 'nope', 'x'.repeat(200)),
    'Content-Length': fc.constantFrom('0', '-1', 'abc'),
    'X-Kakao-Skill-Secret': fc.constantFrom(SKILL_SECRET, 'wrong'),
  },
  { requiredKeys: [] },
);

it('answers every endpoint’s fuzzed requests with a 4xx (or its success), never a 5xx, and stores nothing on a refusal', async () => {
  const all = endpoints();
  // The writes at least: a route added later is fuzzed too.
  expect(all.map(([method, path]) => `${method} ${path}`)).toEqual(
    expect.arrayContaining([
      'POST /api/inquiries',
      'POST /api/ads/web/submit',
      'POST /api/s3/presigned-url/image',
      'PUT /api/uploads/web-00000000-0000-0000-0000-000000000000.png',
      'POST /api/admin/login',
      'POST /api/admin/setup',
      'POST /api/kakao/skill',
      'POST /api/ads/1/impressions',
      'POST /api/ads/1/clicks',
    ]),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...all),
      bodies,
      contentTypes,
      oddHeaders,
      fc.boolean(),
      async ([method, path], body, contentType, headers, authorized) => {
        const before = await rowCounts();
        const init: RequestInit = {
          method,
          headers: {
            ...(contentType ? { 'Content-Type': contentType } : {}),
            ...(authorized ? { Authorization: `Bearer ${TOKEN}` } : {}),
            ...headers,
          },
        };
        if (method !== 'GET' && method !== 'HEAD') init.body = body as string | Uint8Array<ArrayBuffer>;
        let response: Response;
        try {
          response = await app.request(`http://api.test${path}`, init);
        } catch (error) {
          // The platform refuses to build such a request (an invalid header): nothing reaches the api.
          if (error instanceof TypeError) return;
          throw error;
        }
        await response.arrayBuffer();
        const what = `${method} ${path} ${contentType} → ${response.status}`;
        expect(response.status, what).toBeLessThan(500);
        if (response.status >= 400) expect(await rowCounts(), what).toEqual(before);
      },
    ),
    { numRuns: 300, seed: 20261126 },
  );
}, 120_000);
