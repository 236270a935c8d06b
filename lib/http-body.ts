/**
 * Reading an HTTP body with a size cap, in the api: an upload's PUT (routes/uploads.ts) and a GBIS
 * answer (bus/gbis/source.ts). (The web has its own for the bodies it relays: app/utils/request-body.server.ts.)
 */

/**
 * The body of `message` (a request or a response) as bytes, or null when it is larger than
 * `maxBytes`: by its Content-Length, or counted while reading, so a body without a length cannot
 * get past the cap either. Reading stops at the first byte over the cap.
 * @throws what reading the body throws (a dropped connection, an abort).
 */
export async function readBodyUpTo(message: Request | Response, maxBytes: number): Promise<Uint8Array | null> {
  // NOTE: the cancels are not awaited: a stream that never ends would hold them.
  if (Number(message.headers.get('Content-Length')) > maxBytes) {
    void message.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!message.body) return new Uint8Array();
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.byteLength;
    if (length > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}
