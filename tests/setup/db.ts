/**
 * Test databases: a fresh in-memory PGlite always, and a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set (CI sets it). Each call creates its own database with the real
 * migrations; `close` drops it, so no run depends on what an earlier one left.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../api/db/client';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** The kinds to run database tests on: pglite, plus postgres when TEST_DATABASE_URL is set. */
export const testDatabaseKinds: TestDatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export async function createTestDatabase(kind: TestDatabaseKind): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openDatabase({ dataDir: 'memory' });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `campus_bus_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: 'memory' });
  return {
    ...database,
    url: url.toString(),
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
