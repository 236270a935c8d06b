/**
 * The web's one typed client of the Campus Bus API (ARCHITECTURE.md: web is the BFF). Routes never
 * call fetch: models call `upstreamJson`, which applies the spec's 5000 ms timeout (§7) and parses
 * every answer with the contract schema, because upstream answers are untrusted.
 */
import type { AppLoadContext } from '@remix-run/node';
import type { z } from 'zod';

/** How the web reaches the api: in-process (server.ts mounts it) or over HTTP (API_BASE_URL). */
export type ApiBinding = {
  /** Base URL the request paths are resolved against. */
  baseUrl: string;
  /** The api's fetch handler in-process, or global fetch over HTTP. */
  fetch: (request: Request) => Promise<Response>;
};

declare module '@remix-run/node' {
  interface AppLoadContext {
    api: ApiBinding;
    /** Per-request CSP nonce for inline scripts (server.ts). */
    cspNonce: string;
  }
}

/** Spec §7: request timeout. */
export const UPSTREAM_TIMEOUT_MS = 5000;

/** An upstream call that failed: network, timeout, non-2xx status or a body that breaks the contract. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/**
 * Calls the api and parses its JSON answer with `schema`.
 * @param init.timeoutMs default UPSTREAM_TIMEOUT_MS (5000 ms, spec §7).
 * @throws UpstreamError on timeout, network failure, non-2xx status or a body
 *   that does not match the schema.
 */
export async function upstreamJson<T extends z.ZodTypeAny>(
  context: AppLoadContext,
  path: string,
  schema: T,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<z.infer<T>> {
  const { timeoutMs = UPSTREAM_TIMEOUT_MS, ...requestInit } = init;
  const signal = AbortSignal.timeout(timeoutMs);
  const request = new Request(new URL(path, context.api.baseUrl), {
    ...requestInit,
    headers: { accept: 'application/json', ...requestInit.headers },
    signal,
  });
  let response: Response;
  try {
    // NOTE: the in-process api (Hono's fetch) ignores request.signal, so the timeout races it here.
    response = await Promise.race([context.api.fetch(request), rejectOnAbort(signal)]);
  } catch (error) {
    throw new UpstreamError(`${request.method} ${path}: ${(error as Error).message}`, null);
  }
  if (!response.ok) {
    throw new UpstreamError(`${request.method} ${path}: HTTP ${response.status}`, response.status);
  }
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new UpstreamError(`${request.method} ${path}: answer does not match the contract`, response.status);
  }
  return parsed.data;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
