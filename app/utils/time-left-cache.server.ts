/**
 * GET /bus/time-left, the phones' refresh every 4 seconds (docs/product.md §4, §9): the product's
 * hot path. The api's answer changes at most once a second (ageSec, predictTimeSec), so it is read
 * once per second whoever asks, serialised and compressed once (gzip and brotli), and the same
 * bytes go to every phone, with a weak ETag: a poll that already holds this answer gets 304 with no
 * body (its ageSec and predictTimeSec move by the second, so a phone polling every 4 s mostly gets
 * a new one). While the api fails, the answer is the 502 `{ message: BUS_LOAD_FAILED }`
 * (docs/product.md §7: a bus fetch failure is only logged), also shared for a second. server.ts
 * serves it ahead of its general middleware (ADR 014); the home page's SSR reads the same answer's
 * data (context.timeLeft).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import fresh from 'fresh';
import Negotiator from 'negotiator';
import type { TimeLeftResponse } from '../../contract/bus';
import { getTimeLeft } from '~/models/bus.server';
import { BUS_LOAD_FAILED } from '~/utils/arrival';
import { UpstreamError, type ApiBinding } from '~/utils/upstream.server';

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The phones' refresh answer of this second (server.ts), also read by the home page's SSR. */
    timeLeft: TimeLeftAnswers;
  }
}

/** Milliseconds one answer is served after it was asked of the api: the api's view is by the second. */
export const TIME_LEFT_MAX_AGE_MS = 1000;
/**
 * From this age on, the next request asks the api for the next answer in the background and is
 * still served the current one, so that under load nobody waits for the api at the second's turn.
 */
const RENEW_AT_AGE_MS = 800;
/** Distinct Accept-Encoding values whose negotiated encoding is remembered (phones send a handful). */
const NEGOTIATED_MAX = 64;

type Encoding = 'br' | 'gzip' | 'identity';
/** Offered in this order of preference when the phone accepts several equally (negotiator). */
const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity'];
// NOTE: negotiator 0.6.4 breaks ties by the server's preference (the second argument);
// @types/negotiator 0.6 does not declare it.
type EncodingNegotiator = { encoding(available: Encoding[], preferred: Encoding[]): Encoding | undefined };

/** One answer of the route: the data for SSR, and for each encoding the bytes and headers to send. */
export type TimeLeftAnswer = {
  /** The api's answer, or null when it failed (then status 502). */
  data: TimeLeftResponse | null;
  status: 200 | 502;
  /** Weak ETag of the 200's JSON (the same for every encoding); null on the 502, which is never revalidated. */
  etag: string | null;
  /** When the api was asked (ms since the epoch, the source's clock). */
  askedAtMs: number;
  encoded: Record<Encoding, { body: Buffer; headers: Record<string, string> }>;
};

export type TimeLeftAnswers = {
  /** The answer of this second: the last one while under TIME_LEFT_MAX_AGE_MS old, else a new one (one api call for all who ask meanwhile). */
  current(): TimeLeftAnswer | Promise<TimeLeftAnswer>;
  /**
   * Writes the current answer to `res` for a GET or HEAD: the encoding the phone prefers, 304
   * when its If-None-Match matches, and `headers` (the security headers) on every answer.
   */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
};

/** The answer's bytes in every encoding, each with its full headers (`headers` first). */
function encode(
  status: 200 | 502,
  json: string,
  headers: Record<string, string>,
  etag: string | null,
): TimeLeftAnswer['encoded'] {
  const common = {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    // Stored but revalidated on every poll (304 when unchanged); the 502 is not stored at all.
    'cache-control': status === 200 ? 'no-cache' : 'no-store',
    vary: 'Accept-Encoding',
    ...(etag ? { etag } : {}),
  };
  const variant = (body: Buffer, encoding: Encoding) => ({
    body,
    headers: {
      ...common,
      ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
      'content-length': String(body.length),
    },
  });
  const identity = Buffer.from(json);
  const br = brotliCompressSync(identity, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
  });
  return { identity: variant(identity, 'identity'), gzip: variant(gzipSync(identity), 'gzip'), br: variant(br, 'br') };
}

/**
 * @param api where the web reaches the api (in-process or over HTTP).
 * @param headers added to every answer: server.ts's security headers.
 * @param failures told of each api failure (with the UpstreamError's message) and success: server.ts
 *   logs a run of failures once (api/failure-log.ts).
 * @param nowMs the clock the answer's age is measured on (default Date.now; the bench's simulated hour passes its own).
 */
export function createTimeLeftAnswers(options: {
  api: ApiBinding;
  headers: Record<string, string>;
  failures: { fail(error: string): void; ok(): void };
  nowMs?: () => number;
}): TimeLeftAnswers {
  const { api, headers, failures, nowMs = Date.now } = options;
  let latest: TimeLeftAnswer | null = null;
  let asking: Promise<TimeLeftAnswer> | null = null;

  const ask = async (): Promise<TimeLeftAnswer> => {
    const askedAtMs = nowMs();
    try {
      const data = await getTimeLeft({ api });
      failures.ok();
      const json = JSON.stringify(data);
      const etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
      return { data, status: 200, etag, askedAtMs, encoded: encode(200, json, headers, etag) };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      failures.fail(error.message);
      const json = JSON.stringify({ message: BUS_LOAD_FAILED });
      return { data: null, status: 502, etag: null, askedAtMs, encoded: encode(502, json, headers, null) };
    }
  };

  const renew = () =>
    (asking ??= ask()
      .then((answer) => (latest = answer))
      .finally(() => (asking = null)));
  const current = (): TimeLeftAnswer | Promise<TimeLeftAnswer> => {
    const ageMs = latest ? nowMs() - latest.askedAtMs : Infinity;
    // (A clock set back makes the age negative: that answer is not current either.)
    if (ageMs >= TIME_LEFT_MAX_AGE_MS || ageMs < 0) return renew();
    if (ageMs >= RENEW_AT_AGE_MS) void renew().catch(() => undefined); // a bug is thrown to the request at the second's turn
    return latest!;
  };

  const negotiated = new Map<string, Encoding>();
  const encodingOf = (req: IncomingMessage): Encoding => {
    const accepted = req.headers['accept-encoding'] ?? '';
    let encoding = negotiated.get(accepted);
    if (!encoding) {
      const negotiator = new Negotiator(req) as unknown as EncodingNegotiator;
      encoding = negotiator.encoding(ENCODINGS, ENCODINGS) ?? 'identity';
      if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
      negotiated.set(accepted, encoding);
    }
    return encoding;
  };

  return {
    current,
    serve: async (req, res) => {
      const answer = await current();
      const { body, headers: answerHeaders } = answer.encoded[encodingOf(req)];
      if (answer.etag && req.headers['if-none-match'] && fresh(req.headers, { etag: answer.etag })) {
        const { 'content-length': _length, 'content-encoding': _encoding, ...notModified } = answerHeaders;
        res.writeHead(304, notModified).end();
        return;
      }
      res.writeHead(answer.status, answerHeaders).end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
