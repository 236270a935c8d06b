/**
 * Test databases: a fresh in-memory PGlite always, and a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set (CI sets it). Each call creates its own database with the real
 * migrations; `close` drops it, so no run depends on what an earlier one left. A test file shares
 * one (`testDatabaseFor`), emptied before each test: opening and migrating costs about a second.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
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

/**
 * Empties every table of the public schema (the migrations' own bookkeeping lives in the drizzle
 * schema and stays), restarting their identity columns, so the next test starts as on a new database.
 */
export async function resetTestDatabase(database: Database): Promise<void> {
  const { rows } = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as { rows: { tablename: string }[] };
  if (rows.length === 0) return;
  const tables = rows.map(({ tablename }) => `"${tablename}"`).join(', ');
  await database.db.execute(sql.raw(`TRUNCATE ${tables} RESTART IDENTITY CASCADE`));
}

/**
 * One database of `kind` for the test file, emptied before each test (`resetTestDatabase`), closed
 * (and dropped) after the file. Registers the hooks; returns the database's getter.
 */
export function testDatabaseFor(kind: TestDatabaseKind): () => Database & { url?: string } {
  let database: Database & { url?: string };
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(() => resetTestDatabase(database));
  return () => database;
}
