/**
 * GBIS discovery's parsing, run in the api's worker thread (api/worker-pool.ts; built as
 * build/gbis-worker.js): a route's stop list takes 30–130 ms of CPU to read (docs/architecture.md
 * §Work off the serving thread). A FeedError crosses the thread as its kind and message (an Error
 * loses its class there), and is thrown again on the serving thread (workerParser).
 */
import { FeedError } from '../snapshot';
import { parseDiscoveryList, type DiscoveryList } from './discover';

/** What parseDiscoveryAnswer gives back: the items, or the FeedError it met. */
export type ParsedAnswer = { items: unknown[] } | { failure: { kind: FeedError['kind']; message: string } };

/** parseDiscoveryList of one answer, its FeedError as a value. @throws only what is not a FeedError (a bug). */
export function parseDiscoveryAnswer(input: { list: DiscoveryList; text: string; status: number }): ParsedAnswer {
  try {
    return { items: parseDiscoveryList(input.list, input.text, input.status) };
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    return { failure: { kind: error.kind, message: error.message } };
  }
}
