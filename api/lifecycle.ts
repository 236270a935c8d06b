/**
 * The life of an entry's HTTP server (server.ts, api/main.ts): listen, start the background work
 * only once listening, and on SIGTERM/SIGINT stop cleanly even under load (docs/deploy.md §Stopping).
 *
 * Shutdown: close the listener first, so that a new connection is refused (ECONNREFUSED) and a
 * balancer or proxy sends it to another instance, rather than accepted and then reset (a proxy does
 * not retry a reset POST); answer the requests in flight with `Connection: close`; close the idle
 * keep-alive sockets IDLE_GRACE_MS later, and each one that falls idle during the drain; cut the
 * sockets still busy at DRAIN_MS; then stop the api (poller, database) and exit 0, all within
 * SHUTDOWN_LIMIT_MS; past it, or on a second signal, exit 1. Node's own server close,
 * closeIdleConnections() and closeAllConnections() do it: http-terminator, used before, kept
 * listening until the drain was over and reset every connection it accepted meanwhile.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { DataDirBusyError } from './db/data-dir-lock';

/** Sockets still busy this long (ms) after the signal are cut. */
const DRAIN_MS = 5_000;
/**
 * Idle keep-alive sockets are closed this long (ms) after the signal, and after each answer during
 * the drain: a request its client had already sent on one is answered (`Connection: close`), not reset.
 */
const IDLE_GRACE_MS = 100;
/** The whole shutdown, in ms; a supervisor (systemd, Kubernetes) waits 10 s before SIGKILL by default. */
export const SHUTDOWN_LIMIT_MS = 10_000;

/**
 * Runs an entry's start-up (read the env, open the database…). A failure stops the process with
 * exit code 1 and one line naming the cause: a bad variable, DATA_DIR held by another process
 * (with its pid), a missing build; an unexpected error also gets its stack.
 */
export async function startOrExit<T>(label: string, prepare: () => Promise<T>): Promise<T> {
  try {
    return await prepare();
  } catch (error) {
    const expected =
      error instanceof DataDirBusyError || /^(Invalid configuration|build\/)/.test(String((error as Error).message));
    console.error(`${label} cannot start: ${(error as Error).message ?? String(error)}`, ...(expected ? [] : [error]));
    process.exit(1);
  }
}

/**
 * Listens on `port`; then runs `onListening` (start polling, print the setup link). A failure to
 * listen (port in use, no permission, too many open files) stops the process with exit code 1 and
 * a message naming the cause, before any background work started. A later server error (EMFILE
 * while accepting) is logged and the server goes on. On SIGTERM or SIGINT it shuts down as the
 * module docstring says: the listener closes at once, the connections drain for up to DRAIN_MS (5 s),
 * then `onClose`, then exit 0; exit 1 past SHUTDOWN_LIMIT_MS (10 s) or on a second signal.
 * @param options.label log prefix: "[web]" or "[api]".
 * @param options.onClose stops the background work and closes the database; awaited before exit 0.
 */
export function serveUntilSignal(
  server: Server,
  options: {
    port: number;
    label: string;
    onListening: () => Promise<void> | void;
    onClose: () => Promise<void>;
  },
): void {
  const { port, label, onListening, onClose } = options;
  const drain = gracefulClose(server);
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (server.listening) {
      console.error(`${label} server error (${error.code ?? error.message}); still serving.`, error);
      return;
    }
    console.error(`${label} cannot listen on port ${port}: ${listenFailure(error)}`);
    void onClose().finally(() => process.exit(1));
  });
  server.listen(port, () => {
    console.info(`${label} listening on http://localhost:${port}`);
    void Promise.resolve(onListening()).catch((error: unknown) => {
      console.error(`${label} start-up failed after listening; stopping.`, error);
      void onClose().finally(() => process.exit(1));
    });
  });

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) {
        console.error(`${label} ${signal} again: exiting now.`);
        process.exit(1);
      }
      closing = true;
      setTimeout(() => {
        console.error(`${label} shutdown took over ${SHUTDOWN_LIMIT_MS / 1000} s; exiting.`);
        process.exit(1);
      }, SHUTDOWN_LIMIT_MS).unref();
      const drained = drain(); // the listener is closed when this returns
      console.info(`${label} ${signal}: closing (no longer listening; draining the connections)`);
      void drained
        .catch((error: unknown) => console.warn(`${label} closing the server:`, error))
        .then(onClose)
        .then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`${label} closing the api failed:`, error);
            process.exit(1);
          },
        );
    });
  }
}

/**
 * Prepares `server` for a graceful close: from now on it tracks the responses in flight. The
 * returned function closes it as the module docstring says (the listener at once, idle keep-alive
 * sockets IDLE_GRACE_MS = 100 ms later, busy ones at DRAIN_MS = 5 s) and resolves once every
 * connection is closed; it never rejects. Exported for its tests; serveUntilSignal calls it.
 */
export function gracefulClose(server: Server): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const closeIdleSoon = () => setTimeout(() => server.closeIdleConnections(), IDLE_GRACE_MS).unref();
  // First listener: it runs before the handler writes anything.
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader('Connection', 'close');
    inFlight.add(response);
    response.once('close', () => {
      inFlight.delete(response);
      // An answer whose headers went out before the signal left its socket open (keep-alive).
      if (draining) closeIdleSoon();
    });
  });
  // NOTE: async, but the listener is closed before the first await: it is closed on return.
  return async () => {
    draining = true;
    const closed = new Promise<void>((resolve) =>
      // net.Server's close: stops listening at once and calls back once the last connection has
      // closed (an error only means it was not listening: nothing to drain). Not http.Server's,
      // which also closes the idle keep-alive sockets at once, resetting the request a client may
      // just have sent on one (measured: one reset per busy keep-alive connection).
      NetServer.prototype.close.call(server, () => resolve()),
    );
    for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
    closeIdleSoon();
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    try {
      await closed;
    } finally {
      clearTimeout(cut);
    }
  };
}

function listenFailure(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return 'the port is in use by another process (set PORT or API_PORT, or stop the other one).';
    case 'EACCES':
      return 'no permission to use this port (ports below 1024 need privileges).';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files: raise the limit (ulimit -n 65536, or LimitNOFILE in systemd; docs/deploy.md).';
    default:
      return `${error.code ?? ''} ${error.message}`.trim();
  }
}
