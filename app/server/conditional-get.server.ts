/**
 * Conditional GETs: whether a request that holds an answer's ETag may be answered 304 (RFC 9110
 * §13.1.2 If-None-Match).
 */

/** One entity-tag of a list: `W/` when weak, then the quoted opaque tag (RFC 9110 §8.8.3). */
const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

/**
 * Whether `ifNoneMatch` (the request's If-None-Match, undefined when absent) holds `etag` (the
 * answer's, weak `W/"…"` or strong `"…"`), so that a GET or HEAD is answered 304: `*`, or a listed
 * tag equal under the weak comparison (RFC 9110 §8.8.3.2: the same opaque tag, either or both
 * weak), whatever spaces or tabs the list has. Unlike the `fresh` package, it does not read the
 * request's Cache-Control: `no-cache` there asks a cache to check with the origin (RFC 9111
 * §5.2.1.4), which is this answer, and fetch() adds it to every request given an If-None-Match.
 */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string | null): boolean {
  if (!ifNoneMatch || !etag) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const ours = opaqueTagOf(etag);
  if (ours === null) return false;
  for (const [, tag] of ifNoneMatch.matchAll(ENTITY_TAG)) if (tag === ours) return true;
  return false;
}

/** The opaque tag of an ETag without its quotes, or null when it is not one. */
function opaqueTagOf(etag: string): string | null {
  return /^(?:W\/)?"([^"]*)"$/.exec(etag.trim())?.[1] ?? null;
}
