/**
 * An answer made once and sent to everyone who asks within a second (ADR 014, ADR 023): the phones'
 * refresh (GET /bus/time-left) and the home page (GET /). Its bytes are compressed once (gzip and
 * brotli) and sent as they are, with a weak ETag on a 200: a request that already holds it gets 304
 * with no body. These are fast paths, served ahead of express (app/server/fast-paths.server.ts).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import Negotiator from 'negotiator';
import { ifNoneMatchHolds } from '~/server/conditional-get.server';

/** Milliseconds one answer is served after it was made: the api's view of the buses is by the second. */
export const SHARED_ANSWER_MAX_AGE_MS = 1000;
/**
 * From this age on, the next request has the next answer made in the background and is still
 * served the current one, so that under load nobody waits at the second's turn.
 */
const RENEW_AT_AGE_MS = 800;
/** Distinct Accept-Encoding values whose negotiated encoding is remembered (phones send a handful). */
const NEGOTIATED_MAX = 64;

type Encoding = 'br' | 'gzip' | 'identity';
/** Offered in this order of preference when the client accepts several equally (negotiator). */
const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity'];
// NOTE: negotiator 0.6.4 breaks ties by the server's preference (the second argument);
// @types/negotiator 0.6 does not declare it.
type EncodingNegotiator = { encoding(available: Encoding[], preferred: Encoding[]): Encoding | undefined };

/** One shared answer: its data, and for each encoding the bytes and the full headers to send. */
export type SharedAnswer<T> = {
  data: T;
  status: number;
  /** Weak ETag of the 200's body (the same for every encoding); null otherwise (never revalidated). */
  etag: string | null;
  /** When it was made (ms since the epoch, the maker's clock). */
  madeAtMs: number;
  encoded: Record<Encoding, { body: Buffer; headers: Record<string, string> }>;
};

const brotliCompressAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * `body` made into a shared answer: compressed in every encoding, each with `headers` (which carry
 * content-type and cache-control; lower-case names), Vary: Accept-Encoding (after the headers' own
 * Vary, if any), its length and, on a 200, the ETag. The
 * compression runs on libuv's thread pool: brotli at quality 9 of the home page took the serving
 * thread 20–80 ms a second (docs/architecture.md §Work off the serving thread).
 */
export async function encodeAnswer<T>(
  answer: { data: T; status: number; body: string | Buffer; headers: Record<string, string> },
  madeAtMs: number,
): Promise<SharedAnswer<T>> {
  const identity = Buffer.from(answer.body);
  const etag = answer.status === 200 ? `W/"${createHash('sha1').update(identity).digest('base64url')}"` : null;
  const vary = answer.headers.vary ? `${answer.headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  const common = { ...answer.headers, vary, ...(etag ? { etag } : {}) };
  const variant = (body: Buffer, encoding: Encoding) => ({
    body,
    headers: {
      ...common,
      ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
      'content-length': String(body.length),
    },
  });
  const [br, gzipped] = await Promise.all([
    brotliCompressAsync(identity, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    gzipAsync(identity),
  ]);
  return {
    data: answer.data,
    status: answer.status,
    etag,
    madeAtMs,
    encoded: {
      identity: variant(identity, 'identity'),
      gzip: variant(gzipped, 'gzip'),
      br: variant(br, 'br'),
    },
  };
}

/**
 * The answer of this second: `make` is called at most once per SHARED_ANSWER_MAX_AGE_MS whoever
 * asks (everyone asking meanwhile awaits the one call), and renewed in the background from
 * RENEW_AT_AGE_MS on. A rejected `make` is thrown to those who awaited it and not kept.
 * @param nowMs the clock the answer's age is measured on (the bench's simulated hour passes its own).
 * @returns `current()`: the answer, or a promise of it when none is current.
 */
export function sharedAnswer<T>(make: () => Promise<SharedAnswer<T>>, nowMs: () => number = Date.now) {
  let latest: SharedAnswer<T> | null = null;
  let making: Promise<SharedAnswer<T>> | null = null;
  const renew = () =>
    (making ??= make()
      .then((answer) => (latest = answer))
      .finally(() => (making = null)));
  return {
    current(): SharedAnswer<T> | Promise<SharedAnswer<T>> {
      const ageMs = latest ? nowMs() - latest.madeAtMs : Infinity;
      // (A clock set back makes the age negative: that answer is not current either.)
      if (ageMs >= SHARED_ANSWER_MAX_AGE_MS || ageMs < 0) return renew();
      if (ageMs >= RENEW_AT_AGE_MS) void renew().catch(() => undefined); // a bug is thrown to the request at the second's turn
      return latest!;
    },
  };
}

const negotiated = new Map<string, Encoding>();
/** The encoding `req` prefers among br, gzip and identity (remembered per Accept-Encoding value). */
function encodingOf(req: IncomingMessage): Encoding {
  const accepted = req.headers['accept-encoding'] ?? '';
  let encoding = negotiated.get(accepted);
  if (!encoding) {
    const negotiator = new Negotiator(req) as unknown as EncodingNegotiator;
    encoding = negotiator.encoding(ENCODINGS, ENCODINGS) ?? 'identity';
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(accepted, encoding);
  }
  return encoding;
}

/**
 * Writes `answer` to `res` for a GET or HEAD: the encoding the client prefers, or 304 (no body) when
 * its If-None-Match holds the answer's ETag (ifNoneMatchHolds: the weak comparison).
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: SharedAnswer<unknown>): void {
  const { body, headers } = answer.encoded[encodingOf(req)];
  if (ifNoneMatchHolds(req.headers['if-none-match'], answer.etag)) {
    const { 'content-length': _length, 'content-encoding': _encoding, ...notModified } = headers;
    res.writeHead(304, notModified).end();
    return;
  }
  res.writeHead(answer.status, headers).end(req.method === 'HEAD' ? undefined : body);
}
