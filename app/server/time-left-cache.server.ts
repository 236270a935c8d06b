/**
 * GET /bus/time-left, the phones' refresh every 4 seconds (docs/product.md §4, §9): the product's
 * hot path. The api's answer changes at most once a second (ageSec, predictTimeSec), so it is read
 * once per second whoever asks and its bytes are shared (app/server/shared-answer.server.ts): a
 * poll that already holds this answer gets 304 with no body (its ageSec and predictTimeSec move by
 * the second, so a phone polling every 4 s mostly gets a new one). While the api fails, the answer
 * is the 502 `{ message: BUS_LOAD_FAILED }` (docs/product.md §7: a bus fetch failure is only
 * logged), also shared for a second. It is a fast path, served ahead of express (ADR 014);
 * the home page's SSR reads the same answer's data (context.timeLeft).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TimeLeftResponse } from '../../contract/bus';
import { getTimeLeft } from '~/models/bus.server';
import { BUS_LOAD_FAILED } from '~/utils/arrival';
import { encodeAnswer, sendAnswer, sharedAnswer, type SharedAnswer } from '~/server/shared-answer.server';
import { type ApiBinding, rethrowUnlessUpstream } from '~/models/upstream.server';

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The phones' refresh answer of this second (app/server/edge.server.ts), also read by the home page's SSR. */
    timeLeft: TimeLeftAnswers;
  }
}

/** One answer of the route: the api's answer, or null when it failed (then status 502). */
export type TimeLeftAnswer = SharedAnswer<TimeLeftResponse | null>;

export type TimeLeftAnswers = {
  /** The answer of this second (one api call for all who ask within it: shared-answer.server.ts). */
  current(): TimeLeftAnswer | Promise<TimeLeftAnswer>;
  /** Writes the current answer to `res` for a GET or HEAD (the phone's encoding, or 304). */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
};

/**
 * @param api where the web reaches the api (in-process or over HTTP).
 * @param headers added to every answer: the edge's security headers.
 * @param failures told of each api failure (with the UpstreamError's message) and success: the edge
 *   logs a run of failures once (lib/failure-log.ts).
 * @param nowMs the clock the answer's age is measured on (default Date.now; the bench's simulated hour passes its own).
 */
export function createTimeLeftAnswers(options: {
  api: ApiBinding;
  headers: Record<string, string>;
  failures: { fail(error: string): void; ok(): void };
  nowMs?: () => number;
}): TimeLeftAnswers {
  const { api, headers, failures, nowMs = Date.now } = options;
  const jsonHeaders = (status: number) => ({
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    // Stored but revalidated on every poll (304 when unchanged); the 502 is not stored at all.
    'cache-control': status === 200 ? 'no-cache' : 'no-store',
  });
  const { current } = sharedAnswer(async (): Promise<TimeLeftAnswer> => {
    const madeAtMs = nowMs();
    try {
      const data = await getTimeLeft({ api });
      failures.ok();
      return encodeAnswer({ data, status: 200, body: JSON.stringify(data), headers: jsonHeaders(200) }, madeAtMs);
    } catch (error) {
      rethrowUnlessUpstream(error);
      failures.fail(error.message);
      const body = JSON.stringify({ message: BUS_LOAD_FAILED });
      return encodeAnswer({ data: null, status: 502, body, headers: jsonHeaders(502) }, madeAtMs);
    }
  }, nowMs);
  return { current, serve: async (req, res) => sendAnswer(req, res, await current()) };
}
