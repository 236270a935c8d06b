/**
 * The one GBIS HTTP client, for the feed source and discovery: GET with the service key and JSON
 * format, a time limit, a capped body (lib/http-body.ts readBodyUpTo), the answer handed to the
 * caller's parser (parse.ts reads the envelope: docs/gbis.md §Envelope), and every failure a
 * FeedError whose message never holds the key.
 */
import { readBodyUpTo } from '../../../../lib/http-body';
import { FeedError } from '../snapshot';

export const GBIS_BASE_URL = 'https://apis.data.go.kr/6410000';

/** Paths under the base URL: the GBIS v2 operations the product calls. */
export const GBIS_PATHS = {
  arrivalList: 'busarrivalservice/v2/getBusArrivalListv2',
  locationList: 'buslocationservice/v2/getBusLocationListv2',
  routeInfo: 'busrouteservice/v2/getBusRouteInfoItemv2',
  routeStations: 'busrouteservice/v2/getBusRouteStationListv2',
  routeSearch: 'busrouteservice/v2/getBusRouteListv2',
  stationSearch: 'busstationservice/v2/getBusStationListv2',
} as const;

/** How to reach GBIS: the service key, base URL, fetch implementation and per-call timeout (ms). */
export type GbisHttp = {
  serviceKey: string;
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
};

/** Fills the defaults of a GbisHttp: GBIS_BASE_URL, the global fetch (looked up per call), 5000 ms. */
export function gbisHttp(options: { serviceKey: string } & Partial<Omit<GbisHttp, 'serviceKey'>>): GbisHttp {
  return {
    serviceKey: normalizeServiceKey(options.serviceKey),
    baseUrl: (options.baseUrl ?? GBIS_BASE_URL).replace(/\/+$/, ''),
    // NOTE: resolved per call, not captured here, so a fetch patched later (msw in tests) is used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: options.timeoutMs ?? 5000,
  };
}

/**
 * The portal hands out each key twice, URL-encoded ("Encoding") and plain ("Decoding"). URL
 * parameters are encoded when sent, so an encoded key would be encoded twice and rejected with
 * code 30: decode it once here.
 */
function normalizeServiceKey(key: string): string {
  const trimmed = key.trim();
  if (!/%[0-9A-Fa-f]{2}/.test(trimmed)) return trimmed;
  try {
    return decodeURIComponent(trimmed);
  } catch {
    return trimmed;
  }
}

/** Replaces the service key (plain and URL-encoded) in a message meant for logs. */
export function redactKey(message: string, serviceKey: string): string {
  if (serviceKey === '') return message;
  return [serviceKey, encodeURIComponent(serviceKey)].reduce(
    (text, form) => text.split(form).join('<serviceKey>'),
    message,
  );
}

/**
 * One GBIS call: GET `<baseUrl>/<path>?serviceKey=…&<params>&format=json`, then `parse(text, status)` (awaited: it may run in the worker thread).
 * The call is cut after `http.timeoutMs` or when `signal` aborts, whichever comes first.
 * @throws FeedError: 'timeout' (time limit or the caller's abort), 'http' (network failure),
 *   else whatever `parse` throws; every message starts with the operation name and never holds
 *   the service key.
 */
export async function callGbis<T>(
  http: GbisHttp,
  path: string,
  params: Record<string, string>,
  parse: (text: string, status: number) => T | Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const operation = path.slice(path.lastIndexOf('/') + 1);
  const url = new URL(`${http.baseUrl}/${path}`);
  for (const [name, value] of Object.entries({ serviceKey: http.serviceKey, ...params, format: 'json' })) {
    url.searchParams.set(name, value);
  }
  const timeout = AbortSignal.timeout(http.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const fail = (kind: FeedError['kind'], message: string) =>
    new FeedError(kind, redactKey(`${operation}: ${message}`, http.serviceKey));
  try {
    const response = await http.fetch(url, { signal: combined, headers: { accept: 'application/json' } });
    const body = await readBodyUpTo(response, GBIS_MAX_BODY_BYTES);
    if (!body) throw new FeedError('body', `answer longer than ${GBIS_MAX_BODY_BYTES / 1024 / 1024} MB`);
    return await parse(Buffer.from(body).toString('utf8'), response.status);
  } catch (error) {
    if (error instanceof FeedError) throw fail(error.kind, error.message);
    if (timeout.aborted) throw fail('timeout', `no answer within ${http.timeoutMs} ms`);
    if (signal?.aborted) throw fail('timeout', 'aborted by the caller');
    throw fail('http', `request failed: ${errorText(error)}`);
  }
}

/** GBIS answers are a few KB; a longer body is cut at this many bytes and fails the call. */
export const GBIS_MAX_BODY_BYTES = 2 * 1024 * 1024;

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
