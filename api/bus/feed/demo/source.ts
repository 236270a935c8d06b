/**
 * The demo feed source (BUS_FEED=demo, the default): the seeded simulator behind the FeedSource
 * interface, so the poller treats it exactly like GBIS.
 */
import { readingOf, type FeedSource } from '../snapshot';
import { ROUTES } from '../transit-config';
import { snapshotAt } from './simulator';

/**
 * A FeedSource named 'demo' whose poll(now, request) reads snapshotAt(seed, now), the parts
 * `request` asks for: free (not metered), every route located, never fails, and the same seed and
 * instant always give the same reading.
 */
export function createDemoSource({ seed }: { seed: number }): FeedSource {
  return {
    name: 'demo',
    metered: false,
    locatedRoutes: ROUTES,
    poll: async (now, request) => readingOf(snapshotAt(seed, now), request),
  };
}
