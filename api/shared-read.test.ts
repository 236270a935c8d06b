import { FakeClock } from '../tests/setup/fakes';
import { sharedRead } from './shared-read';

describe('sharedRead', () => {
  const setUp = (read: () => Promise<number>) => {
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    return { clock, shared: sharedRead(read, { clock, ttlMs: 1000 }) };
  };

  it('serves one read to everyone asking within the ttl, then reads again', async () => {
    let reads = 0;
    const { clock, shared } = setUp(async () => ++reads);
    expect(await Promise.all([shared.get(), shared.get(), shared.get()])).toEqual([1, 1, 1]);
    clock.advance(0.999);
    expect(await shared.get()).toBe(1);
    clock.advance(0.001);
    expect(await shared.get()).toBe(2);
    expect(reads).toBe(2);
  });

  it('reads again after forget (a write), and does not keep a failed read', async () => {
    let reads = 0;
    const { shared } = setUp(async () => {
      reads += 1;
      if (reads === 2) throw new Error('database down');
      return reads;
    });
    expect(await shared.get()).toBe(1);
    shared.forget();
    await expect(shared.get()).rejects.toThrow('database down');
    expect(await shared.get()).toBe(3);
  });
});
