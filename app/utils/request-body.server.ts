/** Reading a raw request body with a size cap (the ad application's multipart form, the KakaoTalk skill relay). */

/**
 * The body of `request` as bytes, or null when it is larger than `maxBytes` (by its Content-Length,
 * or counted while reading, so a body without a length cannot get past the cap either). Reading
 * stops at the first byte over the cap.
 * @throws what reading the body throws (a dropped connection).
 */
export async function readBodyUpTo(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
