/**
 * Reading an HTTP body with a size cap, the one reader of the repo: the web's request bodies
 * (at the edge, before Remix sees them: app/server/request-bodies.server.ts), the api's upload PUT (api/routes/uploads.ts) and GBIS
 * answers (api/bus/feed/gbis/http.ts).
 */

/** A body to read: a web stream (a fetch Request's or Response's) or an async iterable (a Node request's). */
type Body = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Why reading a body stopped before its end: `idle` (no byte for `idleMs`), `late` (not whole
 * within `deadlineMs`), `fragmented` (more than `maxChunks` chunks) or `refused` (a chunk that
 * `admit` refused). Thrown by readBodyUpTo.
 */
export class BodyStopped extends Error {
  constructor(readonly reason: 'idle' | 'late' | 'fragmented' | 'refused') {
    super(`body read stopped: ${reason}`);
  }
}

/** What readBodyUpTo watches while it reads, besides the cap. */
export type BodyWatch = {
  /** The most ms without a byte (a new chunk); past it the read stops. Unset: no limit. */
  idleMs?: number;
  /** The most ms for the whole body from the call; past it the read stops. Unset: no limit. */
  deadlineMs?: number;
  /**
   * The most chunks the body may come in; past it the read stops. Each chunk costs the event loop
   * some microseconds whatever its size, so a body sent in chunks of a few bytes (chunked transfer
   * encoding) would cost it seconds. Unset: no limit.
   */
  maxChunks?: number;
  /**
   * Told each chunk's bytes as it arrives, before it is kept (a memory budget counting what is
   * held): false stops the read, and the chunk is not kept.
   */
  admit?(bytes: number): boolean;
};

/**
 * The body of `message` as bytes, or null when it is larger than `maxBytes`: by its Content-Length,
 * or counted while reading, so a body without a length (chunked) cannot get past the cap either.
 * Reading stops at the first chunk over the cap, so at most `maxBytes` plus one chunk is ever held;
 * the body is then given up (a web stream is cancelled; an iterable is returned, which for a
 * Node request read with `iterator({ destroyOnReturn: false })` leaves the connection open). The
 * same when `watch` stops it, which throws BodyStopped.
 * @throws BodyStopped (`watch`), or what reading the body throws (a dropped connection, an abort).
 */
export async function readBodyUpTo(
  message: { headers: Headers; body: Body | null },
  maxBytes: number,
  watch: BodyWatch = {},
): Promise<Uint8Array<ArrayBuffer> | null> {
  const { body } = message;
  if (Number(message.headers.get('Content-Length')) > maxBytes) {
    // NOTE: a cancel is not awaited: a stream that never ends would hold it.
    if (body && 'getReader' in body) void body.cancel().catch(() => undefined);
    return null;
  }
  if (!body) return new Uint8Array();
  const chunks = chunksOf(body);
  const giveUp = () => void chunks.return?.()?.catch(() => undefined);
  const read: Uint8Array[] = [];
  let length = 0;
  const { maxChunks = Infinity } = watch;
  const stopped = watched(watch);
  try {
    for (let next = await stopped.race(chunks.next()); !next.done; next = await stopped.race(chunks.next())) {
      if (read.length === maxChunks) throw new BodyStopped('fragmented');
      length += next.value.byteLength;
      if (length > maxBytes) {
        giveUp();
        return null;
      }
      if (watch.admit && !watch.admit(next.value.byteLength)) throw new BodyStopped('refused');
      read.push(next.value);
    }
  } catch (error) {
    if (error instanceof BodyStopped) giveUp();
    throw error;
  } finally {
    stopped.clear();
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of read) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The timers of `watch`: `race(next)` is `next`, or a BodyStopped once `idleMs` pass without it (the
 * idle timer starts again at each race) or `deadlineMs` pass from the start; `clear` ends both.
 */
function watched({ idleMs, deadlineMs }: BodyWatch) {
  let stop: (reason: BodyStopped) => void = () => undefined;
  const stopping = new Promise<never>((_resolve, reject) => (stop = reject));
  stopping.catch(() => undefined);
  const idle = idleMs === undefined ? null : setTimeout(() => stop(new BodyStopped('idle')), idleMs);
  const late = deadlineMs === undefined ? null : setTimeout(() => stop(new BodyStopped('late')), deadlineMs);
  return {
    race<T>(next: Promise<T>): Promise<T> {
      idle?.refresh();
      return idle || late ? Promise.race([next, stopping]) : next;
    },
    clear() {
      if (idle) clearTimeout(idle);
      if (late) clearTimeout(late);
    },
  };
}

function chunksOf(body: Body): AsyncIterator<Uint8Array> {
  if (!('getReader' in body)) return body[Symbol.asyncIterator]();
  const reader = body.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    return: async () => {
      void reader.cancel().catch(() => undefined);
      return { done: true, value: undefined };
    },
  };
}
