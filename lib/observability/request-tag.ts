/**
 * How a log line names the request it is about (docs/deploy.md §Logs): its last argument, a
 * RequestTag, which the log (lib/observability/logs.ts) writes as the line's `reqId`. Free of the
 * log library: route modules, which the browser's bundle also holds, import it.
 */

/** A log call's last argument naming the request it is about: the line's `reqId`. */
export type RequestTag = { readonly reqId: string };

/**
 * The tag a log line about request `reqId` ends its arguments with (`logger.error('[api] …', error,
 * forRequest(reqId))`, or through consoleFor); none without an id. The id is passed, not looked up:
 * an AsyncLocalStorage would have made every await of the process twice as slow on Node 20.
 */
export function forRequest(reqId: string | undefined): RequestTag | undefined {
  return reqId === undefined ? undefined : { reqId };
}

export const isRequestTag = (arg: unknown): arg is RequestTag =>
  typeof arg === 'object' &&
  arg !== null &&
  Object.keys(arg).length === 1 &&
  typeof (arg as Partial<RequestTag>).reqId === 'string';

/** The console methods a request's code logs with. */
export type RequestConsole = Pick<Console, 'error' | 'warn' | 'info'>;

/**
 * The console as the code answering request `reqId` logs through it: each line ends with its
 * RequestTag; without an id (a test, a shared render), the console itself.
 */
export function consoleFor(reqId: string | undefined): RequestConsole {
  if (reqId === undefined) return console;
  const tag: RequestTag = { reqId };
  return {
    error: (...args: unknown[]) => console.error(...args, tag),
    warn: (...args: unknown[]) => console.warn(...args, tag),
    info: (...args: unknown[]) => console.info(...args, tag),
  };
}
