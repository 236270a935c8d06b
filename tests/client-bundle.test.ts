/**
 * Security suite: nothing secret reaches the browser. The client bundle that
 * `npm run build` writes to public/build (npm test builds before vitest) holds none of the
 * server's secrets by name, no server-only module, and no environment lookup; the values of the
 * secrets are checked on a running deployment by tests/e2e/security.spec.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const BUILD = 'public/build';
const SECRET_NAMES = [
  'SESSION_SECRET',
  'API_SERVICE_TOKEN',
  'KAKAO_SKILL_SECRET',
  'GBIS_SERVICE_KEY',
  'S3_SECRET_ACCESS_KEY',
  'S3_ACCESS_KEY_ID',
  'DATABASE_URL',
  'VAPID_PRIVATE_KEY',
];
/** Modules that must stay on the server: drivers, hashing, the api, the upstream client. */
const SERVER_ONLY = [
  '@electric-sql/pglite',
  'node-postgres',
  'argon2',
  'drizzle-orm',
  'serviceKey',
  'upstream.server',
  'web-push',
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('the client bundle', () => {
  it('exists (npm run build)', () => {
    expect(existsSync(BUILD), 'run `npm run build` first').toBe(true);
  });

  it.runIf(existsSync(BUILD))('names no secret, imports no server-only module, and reads no environment', () => {
    const scripts = filesUnder(BUILD).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(10);
    const found = scripts.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...SECRET_NAMES, ...SERVER_ONLY, 'process.env']
        .filter((needle) => text.includes(needle))
        .map((needle) => `${file}: ${needle}`);
    });
    expect(found).toEqual([]);
  });
});
