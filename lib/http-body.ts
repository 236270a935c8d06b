/**
 * Reading an HTTP body with a size cap, the one reader of the repo: the web's request bodies
 * (server.ts, before Remix sees them), the api's upload PUT (api/routes/uploads.ts) and GBIS
 * answers (api/bus/feed/gbis/http.ts).
 */

/** A body to read: a web stream (a fetch Request's or Response's) or an async iterable (a Node request's). */
type Body = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * The body of `message` as bytes, or null when it is larger than `maxBytes`: by its Content-Length,
 * or counted while reading, so a body without a length (chunked) cannot get past the cap either.
 * Reading stops at the first chunk over the cap, so at most `maxBytes` plus one chunk is ever held;
 * the body is then given up (a web stream is cancelled; an iterable is returned, which for a
 * Node request read with `iterator({ destroyOnReturn: false })` leaves the connection open).
 * @throws what reading the body throws (a dropped connection, an abort).
 */
export async function readBodyUpTo(
  message: { headers: Headers; body: Body | null },
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const { body } = message;
  if (Number(message.headers.get('Content-Length')) > maxBytes) {
    // NOTE: a cancel is not awaited: a stream that never ends would hold it.
    if (body && 'getReader' in body) void body.cancel().catch(() => undefined);
    return null;
  }
  if (!body) return new Uint8Array();
  const chunks = chunksOf(body);
  const read: Uint8Array[] = [];
  let length = 0;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    length += next.value.byteLength;
    if (length > maxBytes) {
      void chunks.return?.()?.catch(() => undefined);
      return null;
    }
    read.push(next.value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of read) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
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
