/**
 * Opens the database: PGlite (Postgres in WASM) under DATA_DIR when no URL is given, PostgreSQL via
 * node-postgres when DATABASE_URL is set. The only module that imports a database driver, and only
 * the one it opens (a start loads no driver it does not use). Migrations from drizzle/ are
 * applied on open, unless the database is already at the journal's head (migrationsAtHead). A new
 * DATA_DIR starts from the build's seed (PGLITE_SEED) rather than from PGlite's initdb.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Client as PgClient } from 'pg';
import { lockDataDir } from './data-dir-lock';
import * as schema from './schema';
import { PACKAGE_ROOT } from '../../lib/package-root';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database with the two PostgreSQL features the poller lease needs. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Tries to take the session-level advisory lock `key` (PostgreSQL: held by a dedicated connection
   * until it closes; PGlite: single process, always granted). Returns true when held.
   * @throws when the check fails or times out (LEASE_CHECK_TIMEOUT_MS); the session is then ended,
   *   releasing the lock, so callers count a rejection as lost.
   */
  tryLease(key: number): Promise<boolean>;
  /** Subscribes to NOTIFY on `channel`; returns the unsubscribe function. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  notify(channel: string): Promise<void>;
  /** Closes the connections (and releases DATA_DIR); a second call waits for the first. */
  close(): Promise<void>;
};

/** The generated migrations (drizzle-kit), committed. */
export const MIGRATIONS_FOLDER = join(PACKAGE_ROOT, 'drizzle');

/**
 * A new embedded database's first files, written by `npm run build` (writePgliteSeed): PGlite's
 * data directory after initdb and the migrations of MIGRATIONS_FOLDER, as its dumpDataDir writes
 * it (gzipped tar, about 4 MB). A new DATA_DIR starts from it (PGlite's loadDataDir), skipping
 * initdb, which is most of a first start (measured: 4–7 s against 1 s on a loaded 2-core machine;
 * docs/decisions/025-start-listening-before-the-database-is-open.md).
 */
export const PGLITE_SEED = join(PACKAGE_ROOT, 'build', 'pglite-seed.tar.gz');

/**
 * Writes PGLITE_SEED (or `path`): a new in-memory PGlite migrated to MIGRATIONS_FOLDER's head,
 * dumped gzipped.
 * @throws when PGlite or a migration fails, or the file cannot be written.
 */
export async function writePgliteSeed(path = PGLITE_SEED): Promise<void> {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = new PGlite();
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    const dump = await client.dumpDataDir('gzip');
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** A driver's plain query: PGlite's `client.query`, node-postgres' `pool.query`. */
type RawQuery = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Whether every migration of `folder`'s journal (meta/_journal.json) is already applied. It is
 * drizzle's own rule (its migrate() applies a migration whose journal `when` is later than the
 * `created_at` of the newest row of drizzle.__drizzle_migrations), read with two small queries,
 * where migrate() reads and hashes every SQL file and runs its DDL in a transaction: a start with
 * nothing to apply skips migrate() (docs/decisions/025-start-listening-before-the-database-is-open.md).
 * False on a new database (no such table yet).
 * @throws when the journal cannot be read or a query fails.
 */
async function migrationsAtHead(query: RawQuery, folder: string): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const head = Math.max(...journal.entries.map((entry) => entry.when));
  const [{ present }] = (await query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present")).rows;
  if (!present) return false;
  const [{ applied }] = (await query('SELECT max(created_at) AS applied FROM drizzle.__drizzle_migrations')).rows;
  return applied !== null && Number(applied) >= head;
}

/** A quoted SQL identifier (LISTEN/NOTIFY channels), as PostgreSQL's quote_ident writes it. */
function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * @param options.url PostgreSQL connection string; when absent PGlite is used.
 * @param options.dataDir PGlite data directory, or 'memory' for an in-memory database (tests). A
 *   directory is locked for this process until close() (data-dir-lock.ts).
 * @param options.migrationsFolder drizzle-kit's output to migrate to (default MIGRATIONS_FOLDER; tests).
 * @param options.seed the PGlite seed a new data directory starts from, when the file exists
 *   (default PGLITE_SEED with the default migrations, none with others; tests).
 * @throws DataDirBusyError when another process holds the data directory; otherwise when the
 *   database cannot be reached or a migration fails.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir: string;
  migrationsFolder?: string;
  seed?: string | null;
}): Promise<Database> {
  const { url, dataDir, migrationsFolder = MIGRATIONS_FOLDER } = options;
  const seed =
    options.seed === undefined ? (migrationsFolder === MIGRATIONS_FOLDER ? PGLITE_SEED : null) : options.seed;
  const database = url ? await openPostgres(url, migrationsFolder) : await openPglite(dataDir, migrationsFolder, seed);
  let closing: Promise<void> | null = null;
  return { ...database, close: () => (closing ??= database.close()) };
}

async function openPglite(dataDir: string, migrationsFolder: string, seed: string | null): Promise<Database> {
  const [{ PGlite }, { drizzle }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  let unlock = async () => {};
  if (dataDir !== 'memory') {
    mkdirSync(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir, (error) => {
      // Another process may now open the files: writing on would risk corrupting them.
      console.error(`[db] lost the lock on DATA_DIR ${dataDir} (${error.message}); stopping.`);
      process.exit(1);
    });
  }
  const directory = join(dataDir, 'pglite');
  // A new DATA_DIR (no PG_VERSION yet) starts from the seed, when there is one.
  const seeded = dataDir !== 'memory' && seed && !existsSync(join(directory, 'PG_VERSION')) && existsSync(seed);
  const client =
    dataDir === 'memory'
      ? new PGlite()
      : new PGlite(directory, seeded ? { loadDataDir: new Blob([readFileSync(seed)]) } : {});
  const db = drizzle({ client, schema });
  try {
    if (!(await migrationsAtHead((text) => client.query(text), migrationsFolder))) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(db, { migrationsFolder });
    }
  } catch (error) {
    await client.close().catch(() => undefined);
    await unlock();
    throw error;
  }
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    tryLease: async () => true,
    listen: async (channel, onNotify) => {
      const unsubscribe = await client.listen(channel, onNotify);
      return unsubscribe;
    },
    notify: async (channel) => {
      await client.query(`NOTIFY ${quoteIdentifier(channel)}`);
    },
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

/**
 * Time limits of every PostgreSQL connection: a database that hangs fails the call
 * instead of holding it, and TCP keep-alive finds a dead peer. Milliseconds.
 */
export const PG_LIMITS = {
  connectionTimeoutMillis: 5_000,
  /** Client side: the query's promise rejects after this long. */
  query_timeout: 10_000,
  /** Server side: PostgreSQL cancels a statement running this long. */
  statement_timeout: 10_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

/** A lease check not answered within this many ms counts as lost (the poller confirms before each call). */
export const LEASE_CHECK_TIMEOUT_MS = 3_000;

async function openPostgres(url: string, migrationsFolder: string): Promise<Database> {
  const [{ default: pg }, { drizzle }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
  const pool = new pg.Pool({ connectionString: url, max: 10, ...PG_LIMITS });
  // NOTE: an idle client that the server terminates (restart, failover) emits 'error' on the pool;
  // unhandled, that would crash the process. The pool replaces the client on the next query.
  pool.on('error', (error) => console.warn('[db] idle PostgreSQL connection lost:', error.message));
  const db = drizzle({ client: pool, schema });
  try {
    if (!(await migrationsAtHead((text) => pool.query(text), migrationsFolder))) {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      // Migrations run without the statement limit: one may rewrite a large table.
      const migrator = new pg.Pool({
        connectionString: url,
        max: 1,
        connectionTimeoutMillis: PG_LIMITS.connectionTimeoutMillis,
      });
      try {
        await migrate(drizzle({ client: migrator }), { migrationsFolder });
      } finally {
        await migrator.end();
      }
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  // NOTE: the advisory lock and LISTEN live on one dedicated session connection. If it drops, the
  // lease is released (another instance may take it) and the next call opens a new session that
  // LISTENs again to every subscribed channel.
  const listeners = new Map<string, Set<() => void>>();
  let session: Promise<PgClient> | null = null;
  const sessionClient = (): Promise<PgClient> => {
    if (session) return session;
    // The session runs only the lease checks and LISTEN: its queries get the lease check's limit.
    const client = new pg.Client({ connectionString: url, ...PG_LIMITS, query_timeout: LEASE_CHECK_TIMEOUT_MS });
    const opened: Promise<PgClient> = (async () => {
      await client.connect();
      for (const channel of listeners.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      return client;
    })().catch(async (error: unknown) => {
      drop();
      await client.end().catch(() => undefined);
      throw error;
    });
    // An old session's late 'error' or 'end' must not drop a newer one.
    const drop = () => {
      if (session === opened) session = null;
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => listeners.get(message.channel)?.forEach((onNotify) => onNotify()));
    session = opened;
    return opened;
  };
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    tryLease: async (key) => {
      const opened = sessionClient();
      const client = await opened;
      try {
        // Already held by this session → true without stacking another lock level.
        const { rows } = await client.query<{ locked: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
             AND classid = 0 AND objid::bigint = $1::bigint AND objsubid = 1) OR pg_try_advisory_lock($1::bigint) AS locked`,
          [key],
        );
        return rows[0].locked;
      } catch (error) {
        // A check that fails or times out counts as lost: end this session, so that its lock goes
        // with it once PostgreSQL sees the connection close, and the next check opens a new one.
        if (session === opened) session = null;
        void client.end().catch(() => undefined);
        throw error;
      }
    },
    listen: async (channel, onNotify) => {
      const handlers = listeners.get(channel) ?? new Set();
      const first = handlers.size === 0;
      handlers.add(onNotify);
      listeners.set(channel, handlers);
      const client = await sessionClient();
      if (first) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      return async () => {
        handlers.delete(onNotify);
        if (handlers.size > 0) return;
        listeners.delete(channel);
        await client.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => undefined);
      };
    },
    notify: async (channel) => {
      await pool.query(`NOTIFY ${quoteIdentifier(channel)}`);
    },
    close: async () => {
      const open = session;
      session = null;
      await open?.then((client) => client.end()).catch(() => undefined);
      await pool.end();
    },
  };
}
