import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { createTestDatabase, testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { startTcpProxy } from '../../tests/setup/tcp-proxy';
import { LEASE_CHECK_TIMEOUT_MS, MIGRATIONS_FOLDER, openDatabase, writePgliteSeed, type Database } from './client';

// Spies that call drizzle's migrators through: how many times a start migrated.
vi.mock('drizzle-orm/pglite/migrator', { spy: true });
vi.mock('drizzle-orm/node-postgres/migrator', { spy: true });

describe.each(testDatabaseKinds)('database on %s', (kind) => {
  it('applies the migrations and delivers NOTIFY to listeners', async () => {
    const database = await createTestDatabase(kind);
    const { rows } = (await database.db.execute(
      "select count(*)::int as n from information_schema.tables where table_name in ('feed_states', 'upstream_calls')",
    )) as unknown as { rows: { n: number }[] };
    expect(rows[0].n).toBe(2);

    const received = vi.fn();
    const unlisten = await database.listen('bus_feed', received);
    await database.notify('bus_feed');
    await vi.waitFor(() => expect(received).toHaveBeenCalledTimes(1));
    await unlisten();
    expect(await database.tryLease(1)).toBe(true);
    await database.close();
  });
});

describe.each(testDatabaseKinds)('migrations on %s', (kind) => {
  let folder: string;
  let dataDir: string;
  let postgres: (Database & { url?: string }) | undefined;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'campus-bus-migrations-'));
    cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-migrated-'));
  });
  afterEach(async () => {
    await postgres?.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });
  const migrate = vi.mocked(kind === 'pglite' ? migratePglite : migratePostgres);
  /** Opens the database of this test with the migrations of `folder`, and closes it again. */
  const openAndClose = async () => {
    const database = await openDatabase({ url: postgres?.url, dataDir, migrationsFolder: folder });
    await database.close();
  };
  /** Adds a migration to `folder`'s journal, one later than its last, creating table `name`. */
  const addMigration = (name: string) => {
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; when: number }[] };
    const last = journal.entries.at(-1)!;
    const tag = `${String(last.idx + 1).padStart(4, '0')}_${name}`;
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag } as (typeof journal.entries)[number]);
    writeFileSync(journalPath, JSON.stringify(journal));
    writeFileSync(join(folder, `${tag}.sql`), `CREATE TABLE "${name}" ("id" integer);`);
  };

  it("runs no migration when the database is at the journal's head, and applies one added to the journal", async () => {
    if (kind === 'postgres')
      postgres = await createTestDatabase('postgres'); // migrated to the head
    else await openAndClose(); // a new directory: migrated to the head
    migrate.mockClear();

    await openAndClose();
    // NOTE: counts, not toHaveBeenCalled: a failure would print the calls' arguments (the database).
    expect(migrate.mock.calls.length).toBe(0);

    addMigration('start_probe');
    await openAndClose();
    expect(migrate.mock.calls.length).toBe(1);
    const database = await openDatabase({ url: postgres?.url, dataDir, migrationsFolder: folder });
    try {
      const { rows } = (await database.db.execute(
        "select count(*)::int as n from information_schema.tables where table_name = 'start_probe'",
      )) as unknown as { rows: { n: number }[] };
      expect(rows[0].n).toBe(1);
    } finally {
      await database.close();
    }
    expect(migrate.mock.calls.length).toBe(1); // at the new head
  }, 60_000);
});

describe('the PGlite seed', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'campus-bus-seed-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts a new DATA_DIR from the seed, at the head with no migration run, and reopens it as it is', async () => {
    const seed = join(dir, 'seed.tar.gz');
    await writePgliteSeed(seed);
    const migrate = vi.mocked(migratePglite);
    migrate.mockClear();
    const tables = async (database: Database) => {
      const { rows } = (await database.db.execute(
        "select count(*)::int as n from information_schema.tables where table_name in ('feed_states', 'upstream_calls')",
      )) as unknown as { rows: { n: number }[] };
      return rows[0].n;
    };

    const dataDir = join(dir, 'data');
    const fresh = await openDatabase({ dataDir, seed });
    expect(await tables(fresh)).toBe(2);
    await fresh.db.execute(`insert into settings (key, value, updated_at) values ('kept', '"yes"', now())`);
    await fresh.close();
    // Once it holds a database, the seed is not loaded again (PGlite would refuse: the data is kept).
    const reopened = await openDatabase({ dataDir, seed });
    try {
      const { rows } = (await reopened.db.execute("select value from settings where key = 'kept'")) as unknown as {
        rows: { value: string }[];
      };
      expect(rows).toEqual([{ value: 'yes' }]);
    } finally {
      await reopened.close();
    }
    expect(migrate.mock.calls.length).toBe(0);
  }, 60_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('the poller lease on PostgreSQL', () => {
  let database: Database & { url?: string };
  const sharedDatabase = testDatabaseFor('postgres');
  const opened: Database[] = [];
  beforeEach(async () => {
    database = sharedDatabase();
  });
  afterEach(async () => {
    for (const item of opened.splice(0)) await item.close();
  });
  const open = async (url = database.url) => {
    const instance = await openDatabase({ url, dataDir: 'memory' });
    opened.push(instance);
    return instance;
  };

  it('has one holder: a second session is refused until the first closes', async () => {
    const [a, b] = [await open(), await open()];
    expect(await a.tryLease(7)).toBe(true);
    expect(await a.tryLease(7)).toBe(true); // the holder's own check
    expect(await b.tryLease(7)).toBe(false);
    await a.close();
    expect(await b.tryLease(7)).toBe(true);
  });

  it('counts a check that hangs as lost, and ends that session so its lock goes with it', async () => {
    const target = new URL(database.url!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    onTestFinished(() => proxy.close());
    const a = await open(proxy.urlFor(database.url!));
    const b = await open();
    expect(await a.tryLease(7)).toBe(true);
    expect(await b.tryLease(7)).toBe(false);

    proxy.hang(); // a's connection to PostgreSQL stops answering
    const started = Date.now();
    await expect(a.tryLease(7)).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeLessThan(LEASE_CHECK_TIMEOUT_MS + 1_000);
    await vi.waitFor(async () => expect(await b.tryLease(7)).toBe(true), { timeout: 5_000 });

    proxy.up();
    expect(await a.tryLease(7)).toBe(false); // a new session, and b holds the lease now
  });
});
