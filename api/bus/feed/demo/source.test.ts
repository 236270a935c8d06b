import { kstInstant } from '../../../../contract/kst';
import { snapshotAt } from './simulator';
import { createDemoSource } from './source';

describe('demo feed source', () => {
  it('is free and polls the simulator at the given instant', async () => {
    const source = createDemoSource({ seed: 7 });
    const now = kstInstant('2026-11-23', 8 * 60);
    expect(source.name).toBe('demo');
    expect(source.callsPerPoll).toBeNull();
    await expect(source.poll(now, new AbortController().signal)).resolves.toEqual(snapshotAt(7, now));
  });
});
