import { createTestDatabase, testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { startTcpProxy } from '../../tests/setup/tcp-proxy';
import { LEASE_CHECK_TIMEOUT_MS, openDatabase, type Database } from './client';

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
