/**
 * GbisSource's tests (api/bus/feed/gbis/source-*.test.ts): msw's GBIS mock (tests/mocks/gbis.ts) for
 * the file, and a source polling it with a fixed key at a fixed instant.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupServer } from 'msw/node';
import { createGbisMock, MOCK_ROUTES, mockIds, noResultBody, type GbisAnswer } from '../mocks/gbis';
import { FeedError, type PollRequest } from '../../api/bus/feed/snapshot';
import { ROUTE_NOS } from '../../contract/transit';
import type { Arrival } from '../../contract/feed-snapshot';
import { GbisSource, type GbisSourceOptions } from '../../api/bus/feed/gbis/source';

export const KEY = 'abc+/def==';
export const NOW = new Date('2026-09-14T04:30:00.000Z');
export const [R1150, R1117, R1303, R1005] = MOCK_ROUTES;

/**
 * Registers msw's GBIS mock for the file: listening before its tests (an unhandled request is an
 * error), reset after each, closed after them. Returns the mock, its server, and a source on it.
 */
export function gbisSourceFor() {
  const mock = createGbisMock();
  const server = setupServer(...mock.handlers);

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());

  function source(options: Partial<GbisSourceOptions> = {}) {
    return new GbisSource({
      serviceKey: KEY,
      baseUrl: mock.baseUrl,
      ids: mockIds(),
      ...options,
    });
  }

  return { mock, server, source };
}

/** A poll of every dataset: the arrival list and every route's location list. */
export const EVERYTHING: PollRequest = { arrivals: true, routes: ROUTE_NOS };

/** What a poll of EVERYTHING reads from `gbis` at `now` (default NOW). */
export async function readAll(gbis: GbisSource, now = NOW) {
  const reading = await gbis.poll(now, EVERYTHING, new AbortController().signal);
  return { ...reading, arrivals: reading.arrivals ?? ([] as Arrival[]) };
}

/** The FeedError of a poll of `gbis` at NOW; fails the test when the poll succeeds or throws another error. */
export async function pollError(gbis: GbisSource, signal = new AbortController().signal): Promise<FeedError> {
  const error = await gbis.poll(NOW, EVERYTHING, signal).then(
    () => new Error('poll succeeded'),
    (e: unknown) => e,
  );
  if (!(error instanceof FeedError)) throw error;
  return error;
}

/** Answers the arrival list with `arrivals`, each route's location list with `locations[routeId]`. */
export function answer(arrivals: string, locations: Record<string, string> = {}): GbisAnswer {
  return ({ operation, params }) => ({
    status: 200,
    body: operation === 'getBusArrivalListv2' ? arrivals : (locations[params.routeId] ?? noResultBody()),
  });
}
