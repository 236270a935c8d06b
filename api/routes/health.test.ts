/**
 * GET /api/readyz beyond "the database answers": an instance whose database no longer takes
 * writes, or whose DATA_DIR disk is nearly full, is taken out of the balancer (503 naming the
 * failure's kind), while GET /api/healthz stays 200 (docs/deploy.md §Health and readiness).
 */
import { sql } from 'drizzle-orm';
import { HealthResponseSchema } from '../../contract/bus';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { MB, READY_MIN_FREE_BYTES } from '../readiness';

describe.each(testDatabaseKinds)('GET /api/readyz on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const store = tempLocalStore();
  afterAll(() => store.remove());
  const clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));

  /** The api with `free` as DATA_DIR's free space (bytes, or a failing read), and its log. */
  function apiWithDisk(free?: () => Promise<number>) {
    const logger = recordingLogger();
    const app = testApi({ db: database().db, storage: store, clock, logger, dataDirFreeBytes: free });
    const readyz = async () => {
      const response = await app.request('/api/readyz');
      return { status: response.status, body: HealthResponseSchema.parse(await response.json()) };
    };
    return { app, logger, readyz };
  }

  it('answers 200 with the database and the disk ok', async () => {
    const { readyz } = apiWithDisk(async () => 10 * 1024 * MB);
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok', disk: 'ok' } });
  });

  it('answers 503 naming the disk when DATA_DIR’s disk has less than the margin free, and 200 once it has it again', async () => {
    let free = READY_MIN_FREE_BYTES - 1;
    const { app, logger, readyz } = apiWithDisk(async () => free);
    expect(await readyz()).toMatchObject({
      status: 503,
      body: { status: 'unavailable', failure: 'disk', disk: 'low', database: 'ok' },
    });
    await readyz();
    expect(logger.lines.filter((line) => line.includes('not ready'))).toHaveLength(1); // once per run
    expect((await app.request('/api/healthz')).status).toBe(200);

    free = READY_MIN_FREE_BYTES;
    expect(await readyz()).toMatchObject({ status: 200, body: { status: 'ok', disk: 'ok' } });
    expect(logger.lines.at(-1)).toContain('ready again');
  });

  it('answers 503 naming the disk when its free space cannot be read', async () => {
    const { readyz } = apiWithDisk(async () => {
      throw new Error('EIO: i/o error, statfs');
    });
    expect(await readyz()).toMatchObject({ status: 503, body: { failure: 'disk', disk: 'unreadable' } });
  });

  it('answers 503 naming the database when it answers reads but refuses writes', async () => {
    const { db } = database();
    const { app, readyz } = apiWithDisk(async () => 10 * 1024 * MB);
    // A database that still answers SELECT 1 but takes no write, as when its disk is full.
    await db.execute(sql`CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$`);
    await db.execute(sql`CREATE TRIGGER refuse_write BEFORE INSERT OR UPDATE ON settings
      FOR EACH ROW EXECUTE FUNCTION refuse_write()`);
    try {
      await expect(db.execute(sql`SELECT 1`)).resolves.toBeDefined();
      expect(await readyz()).toMatchObject({
        status: 503,
        body: { status: 'unavailable', failure: 'database', database: 'unreachable', disk: 'ok' },
      });
      expect((await app.request('/api/healthz')).status).toBe(200);
    } finally {
      await db.execute(sql`DROP TRIGGER refuse_write ON settings`);
      await db.execute(sql`DROP FUNCTION refuse_write()`);
    }
    expect(await readyz()).toMatchObject({ status: 200, body: { database: 'ok' } });
  });

  it('reports no disk when the api keeps nothing on a local disk', async () => {
    const { readyz } = apiWithDisk(undefined);
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('disk');
  });
});
