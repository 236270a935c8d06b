import { createTestDatabase, testDatabaseKinds } from '../../tests/setup/db';

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
