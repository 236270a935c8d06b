import { FakeClock } from '../tests/setup/fakes';
import { sharedRead, STALE_TTLS } from './shared-read';

describe('sharedRead', () => {
  /** A shared read whose reads each wait for the test to settle them (`reads[k]`), in order. */
  const setUp = () => {
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    const reads: { resolve(value: number): void; reject(error: Error): void }[] = [];
    const shared = sharedRead(() => new Promise<number>((resolve, reject) => reads.push({ resolve, reject })), {
      clock,
      ttlMs: 1000,
    });
    return { clock, reads, shared };
  };

  it('serves one read to everyone asking within the ttl; past it, the last value while the next read runs', async () => {
    const { clock, reads, shared } = setUp();
    const first = Promise.all([shared.get(), shared.get(), shared.get()]);
    reads[0].resolve(1);
    expect(await first).toEqual([1, 1, 1]);
    clock.advance(0.999);
    expect(await shared.get()).toBe(1);
    expect(reads).toHaveLength(1);
    clock.advance(0.001);
    // The database is slow (a long transaction holds it): the pages get the last value at once.
    expect(await shared.get()).toBe(1);
    expect(await shared.get()).toBe(1);
    expect(reads).toHaveLength(2);
    reads[1].resolve(2);
    await Promise.resolve();
    expect(await shared.get()).toBe(2);
    expect(reads).toHaveLength(2);
    // After a quiet spell longer than STALE_TTLS ttls, the value is too old to serve: the read is awaited.
    clock.advance(1 + STALE_TTLS);
    let answered: number | null = null;
    const late = shared.get().then((value) => (answered = value));
    await Promise.resolve();
    expect(answered).toBeNull();
    reads[2].resolve(3);
    await late;
    expect(answered).toBe(3);
  });

  it('waits for the read after forget (a write); a failed read is not kept, and rejects only who waits for it', async () => {
    const { clock, reads, shared } = setUp();
    const first = shared.get();
    reads[0].resolve(1);
    expect(await first).toBe(1);
    shared.forget();
    const afterWrite = shared.get();
    reads[1].reject(new Error('database down'));
    await expect(afterWrite).rejects.toThrow('database down');
    const again = shared.get();
    reads[2].resolve(3);
    expect(await again).toBe(3);
    // Past the ttl with the database down: the last value, and the next `get` reads again.
    clock.advance(1);
    expect(await shared.get()).toBe(3);
    reads[3].reject(new Error('database down'));
    await Promise.resolve();
    expect(await shared.get()).toBe(3);
    expect(reads).toHaveLength(5);
    reads[4].resolve(5);
    await Promise.resolve();
    expect(await shared.get()).toBe(5);
  });
});
