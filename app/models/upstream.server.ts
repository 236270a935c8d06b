/**
 * The web's one typed client of the Campus Bus API (docs/architecture.md §The parts: the web is the BFF). Routes never
 * call fetch: models call `upstreamJson`, which applies the 5000 ms timeout of docs/product.md §7 and
 * parses every answer with the contract schema, because upstream answers are untrusted.
 */
import type { AppLoadContext } from '@remix-run/node';
import type { z } from 'zod';
import { ApiErrorSchema } from '../../contract/bus';
import type { PublicConfig } from '~/utils/public-config';

/** How the web reaches the api: in-process (server.ts mounts it) or over HTTP (API_BASE_URL). */
export type ApiBinding = {
  /** Base URL the request paths are resolved against. */
  baseUrl: string;
  /** The api's fetch handler in-process, or global fetch over HTTP. */
  fetch: (request: Request) => Promise<Response>;
};

declare module '@remix-run/node' {
  // Remix's v3_singleFetch (remix.config.js): useLoaderData and friends are typed for single fetch.
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    api: ApiBinding;
    /** The phone's address (express req.ip, TRUST_PROXY-aware), forwarded to the api for its rate limits. */
    clientIp?: string;
    /** The configuration pages may show (server.ts builds it once from the env). */
    publicConfig?: PublicConfig;
    /** The request's id (X-Request-Id: the edge's), sent on to the api and on its log lines. */
    reqId?: string;
  }
}

/** What an upstream call needs of the load context: the api and the phone's address (if any). */
export type UpstreamContext = Pick<AppLoadContext, 'api' | 'clientIp' | 'reqId'>;

/** What upstreamJson sends a `json` body as. */
const utf8 = new TextEncoder();

/** docs/product.md §7: request timeout. */
export const UPSTREAM_TIMEOUT_MS = 5000;

/**
 * An upstream call that failed: network, timeout, non-2xx status or a body that breaks the contract.
 * `serverMessage` is the api's own `message` of a non-2xx answer, when it gave one (docs/product.md §8
 * shows it in some failure messages).
 */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly serverMessage?: string,
    /** Retry-After of a 429, in seconds. */
    readonly retryAfterSec?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/**
 * Calls the api, or another http(s) URL the api handed out (a presigned upload URL): URLs on the
 * api's origin go through the binding (in-process or HTTP), others through global fetch. Forwards
 * the phone's address in X-Forwarded-For to the api only.
 * @param init.timeoutMs default UPSTREAM_TIMEOUT_MS (5000 ms, docs/product.md §7).
 * @returns the response whatever its status.
 * @throws UpstreamError on timeout, network failure, or a URL that is not http(s).
 */
export async function upstreamFetch(
  context: UpstreamContext,
  pathOrUrl: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<Response> {
  const { timeoutMs = UPSTREAM_TIMEOUT_MS, ...requestInit } = init;
  const url = new URL(pathOrUrl, context.api.baseUrl);
  const signal = AbortSignal.timeout(timeoutMs);
  const toApi = url.origin === new URL(context.api.baseUrl).origin;
  const label = `${requestInit.method ?? 'GET'} ${toApi ? url.pathname : url.origin}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UpstreamError(`${label}: not an http(s) URL`, null);
  const headers = new Headers(requestInit.headers);
  // The phone's address is for the api's rate limits only, never for a third party (S3).
  if (toApi && context.clientIp) headers.set('X-Forwarded-For', context.clientIp);
  // The api's log lines of this call carry the id the phone was given (docs/deploy.md §Logs).
  if (toApi && context.reqId) headers.set('X-Request-Id', context.reqId);
  const request = new Request(url, { ...requestInit, headers, signal });
  const send = toApi ? context.api.fetch : fetch;
  try {
    // NOTE: the in-process api (Hono's fetch) ignores request.signal, so the timeout races it here.
    return await Promise.race([send(request), rejectOnAbort(signal)]);
  } catch (error) {
    throw new UpstreamError(`${label}: ${(error as Error).message}`, null);
  }
}

/**
 * Calls the api and parses its JSON answer with `schema`. `json` is sent serialised; `body` (bytes
 * already JSON, e.g. a relayed request) as it is, with the JSON content type either way.
 * @param init.timeoutMs default UPSTREAM_TIMEOUT_MS (5000 ms, docs/product.md §7).
 * @param init.known what a 2xx answer's text is known to parse to (one `schema` already gave for
 *   the same text), or undefined: then it is parsed. For answers the api shares between requests.
 * @throws UpstreamError on timeout, network failure, non-2xx status (with the api's message) or
 *   a body that does not match the schema.
 */
export async function upstreamJson<T extends z.ZodTypeAny>(
  context: UpstreamContext,
  path: string,
  schema: T,
  init: Omit<RequestInit, 'body'> & {
    timeoutMs?: number;
    json?: unknown;
    body?: Uint8Array<ArrayBuffer>;
    known?: (text: string) => z.infer<T> | undefined;
  } = {},
): Promise<z.infer<T>> {
  const { json, body: raw, known, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set('accept', 'application/json');
  const sent = json === undefined ? raw : utf8.encode(JSON.stringify(json));
  if (sent !== undefined) {
    headers.set('content-type', 'application/json');
    // Declared, as over HTTP: the in-process api's body cap (Hono's bodyLimit) then checks the
    // length instead of reading the body through a counting stream into a new Request.
    headers.set('content-length', String(sent.byteLength));
  }
  const label = `${rest.method ?? 'GET'} ${path}`;
  const response = await upstreamFetch(context, path, { ...rest, headers, body: sent });
  const text = await response.text().catch(() => '');
  const knownAnswer = response.ok ? known?.(text) : undefined;
  if (knownAnswer !== undefined) return knownAnswer;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const serverMessage = ApiErrorSchema.safeParse(body).data?.message;
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new UpstreamError(
      `${label}: HTTP ${response.status}`,
      response.status,
      serverMessage,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new UpstreamError(`${label}: answer does not match the contract`, response.status);
  }
  return parsed.data;
}

/**
 * What `call` answers, or null when the api answers 404: for the calls where "no such thing" is an
 * answer, not a failure (an unknown session, a request deleted already).
 * @throws what `call` throws for anything but a 404.
 */
export async function orNullOn404<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Lets an upstream failure through to the caller's handling and throws anything else again: for
 * the catch blocks that answer a failed api call (a 502, a form error, a hint left out) but must
 * not swallow a bug or a thrown Response.
 * @throws `error` itself when it is not an UpstreamError.
 */
export function rethrowUnlessUpstream(error: unknown): asserts error is UpstreamError {
  if (!(error instanceof UpstreamError)) throw error;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
