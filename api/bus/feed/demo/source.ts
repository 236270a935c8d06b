/**
 * The demo feed source (BUS_FEED=demo, the default): the seeded simulator behind the FeedSource
 * interface, so the poller treats it exactly like GBIS.
 */
import type { FeedSource } from '../snapshot';
import { snapshotAt } from './simulator';

/**
 * A FeedSource named 'demo' whose poll(now) is snapshotAt(seed, now): free (callsPerPoll null),
 * never fails, and the same seed and instant always give the same snapshot.
 */
export function createDemoSource({ seed }: { seed: number }): FeedSource {
  return {
    name: 'demo',
    callsPerPoll: null,
    poll: async (now) => snapshotAt(seed, now),
  };
}
