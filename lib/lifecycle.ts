/**
 * The life of an entry's HTTP server (server.ts, api/main.ts): listen, start the background work
 * only once listening, and on SIGTERM/SIGINT stop cleanly even under load (docs/deploy.md §Stopping).
 *
 * Shutdown: close the listener first, so that a new connection is refused (ECONNREFUSED) and a
 * balancer or proxy sends it to another instance, rather than accepted and then reset (a proxy does
 * not retry a reset POST); answer the requests in flight, and those that arrive on the connections
 * still open, with `Connection: close`; close a keep-alive socket once it is idle after an answer
 * (IDLE_GRACE_MS, with no byte since), and a connection that has sent nothing once it has been
 * silent SILENT_GRACE_MS; cut the sockets still busy at DRAIN_MS; then stop the api (poller,
 * database) and exit 0, all within SHUTDOWN_LIMIT_MS; past it, or on a second signal, exit 1. The
 * listener closes with net.Server's close and the last sockets are cut with closeAllConnections();
 * which sockets are idle gracefulClose decides itself (Node's closeIdleConnections() reset a request
 * received on a kept-alive socket but not yet read, and an answer ended but still being sent).
 * http-terminator, used before, kept listening until the drain was over and reset every connection
 * it accepted meanwhile.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { serveMetrics } from './observability/metrics';

/** Sockets still busy this long (ms) after the signal are cut. */
const DRAIN_MS = 5_000;
/**
 * A keep-alive socket idle after its answers is closed this long (ms) after the signal, or after
 * its last answer during the drain, unless a byte came meanwhile: a request its client had already
 * sent on it is answered (`Connection: close`), not reset.
 */
const IDLE_GRACE_MS = 100;
/**
 * A connection that has sent nothing since it was accepted is closed this long (ms) after the
 * signal: one accepted just before it, whose request is still on its way (a phone's round trip),
 * is answered rather than reset.
 */
const SILENT_GRACE_MS = 1_000;
/** The whole shutdown, in ms; a supervisor (systemd, Kubernetes) waits 10 s before SIGKILL by default. */
export const SHUTDOWN_LIMIT_MS = 10_000;

/**
 * A reason an entry cannot start that its message states whole (DATA_DIR held by another process,
 * say): logged as that one line, without a stack (cannotStart).
 */
export class StartFailure extends Error {}

/**
 * Runs an entry's start-up (read the env, load the build, begin to open the database…). A failure
 * stops the process with exit code 1 and one line naming the cause (cannotStart).
 */
export async function startOrExit<T>(label: string, prepare: () => Promise<T>): Promise<T> {
  try {
    return await prepare();
  } catch (error) {
    cannotStart(label, error);
    process.exit(1);
  }
}

/**
 * Logs why an entry cannot start, before or after it listens (the database opens while it listens:
 * ADR 025): one line naming the cause for a bad variable, DATA_DIR held by another process (with
 * its pid) or a missing build; an unexpected error also gets its stack.
 */
function cannotStart(label: string, error: unknown): void {
  const expected =
    error instanceof StartFailure || /^(Invalid configuration|build\/)/.test(String((error as Error).message));
  console.error(`${label} cannot start: ${(error as Error).message ?? String(error)}`, ...(expected ? [] : [error]));
}

/** What a request held for the database gets when it failed to open (held requests: holdUntilReady). */
const OPENING_FAILED = '서버를 시작하지 못했습니다. 잠시 후 다시 시도해 주세요.';

/**
 * The longest a request waits for the database to open, in ms: past it (a PostgreSQL migration
 * waiting on another's lock, say) it is answered 503 with Retry-After rather than held on.
 */
export const HOLD_MAX_MS = 30_000;
/** What a request held HOLD_MAX_MS gets, with Retry-After (seconds). */
const STILL_OPENING = { retryAfterSec: 5, text: '서버를 시작하고 있습니다. 잠시 후 다시 시도해 주세요.' };

/** The probes' paths, the web's and the api's: a supervisor's or balancer's, not a visitor's. */
const PROBE_PATH = /^(\/api)?\/(healthz|readyz)(\?|$)/;

/**
 * Holds every request to `server` but the probes until `ready` settles, then hands it to the
 * server's own handler as it came: a page asked for while the database opens waits for it (its
 * upstream timeouts start only then) rather than failing (ADR 025). When `ready` rejects, a held
 * request is answered 503 (the process is then exiting: serveUntilSignal); one held HOLD_MAX_MS is
 * answered 503 with Retry-After. Call it once the
 * server's handler is attached. Exported for its tests; serveUntilSignal calls it.
 */
export function holdUntilReady(server: Server, ready: Promise<unknown>): void {
  const handlers = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  let opened = false;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    for (const handler of handlers) handler.call(server, request, response);
  };
  const held = ready.then(
    () => (opened = true),
    () => false,
  );
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (opened || PROBE_PATH.test(request.url ?? '')) return handle(request, response);
    let gaveUp = false;
    const limit = setTimeout(() => {
      gaveUp = true;
      response
        .writeHead(503, {
          'Content-Type': 'text/plain; charset=utf-8',
          'Retry-After': String(STILL_OPENING.retryAfterSec),
        })
        .end(STILL_OPENING.text);
    }, HOLD_MAX_MS);
    void held.then((isOpen) => {
      clearTimeout(limit);
      if (gaveUp) return;
      if (isOpen) handle(request, response);
      else response.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end(OPENING_FAILED);
    });
  });
}

/**
 * Resolves once `server` has finished (or abandoned) its first answer to a request other than the
 * probes: the start's first page has gone out, and the work that would slow it may begin (ADR 025).
 * Call it before the server takes its first request. Exported for its tests; serveUntilSignal
 * calls it and hands the promise to its `onListening`.
 */
export function firstAnswer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const onRequest = (request: IncomingMessage, response: ServerResponse) => {
      if (PROBE_PATH.test(request.url ?? '')) return;
      server.off('request', onRequest);
      response.once('close', () => resolve());
    };
    server.on('request', onRequest);
  });
}

/**
 * Listens on `port`; then runs `onListening` (wait for the database, start polling, print the
 * setup link), given the server's firstAnswer; the first answer is logged with the seconds since
 * the process began. A failure to listen (port in use, no permission, too many open files) stops
 * the process with exit code 1 and a message naming the cause, before any background work started;
 * so does a failure of `onListening` (the database did not open: cannotStart's line), after
 * `onClose`. A later server error (EMFILE while accepting) is logged and the server goes on. On
 * SIGTERM or SIGINT it shuts down as the module docstring says: the listener closes at once, the
 * connections drain for up to DRAIN_MS (5 s), then `onClose`, then exit 0; exit 1 past
 * SHUTDOWN_LIMIT_MS (10 s) or on a second signal.
 * @param options.label log prefix: "[web]" or "[api]".
 * @param options.ready when given, the requests other than the probes wait for it (holdUntilReady).
 * @param options.onClose stops the background work and closes the database; awaited before exit 0.
 * @param options.metrics METRICS_PORT and METRICS_HOST: the process's metrics served there
 *   (lib/observability/metrics.ts serveMetrics) once it listens; a port that cannot be bound stops
 *   the process as the server's own would.
 */
export function serveUntilSignal(
  server: Server,
  options: {
    port: number;
    label: string;
    ready?: Promise<unknown>;
    onListening: (firstAnswer: Promise<void>) => Promise<void> | void;
    onClose: () => Promise<void>;
    metrics?: { port?: number; host: string };
  },
): void {
  const { port, label, ready, onListening, onClose, metrics } = options;
  if (ready) holdUntilReady(server, ready);
  const drain = gracefulClose(server);
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (server.listening) {
      console.error(`${label} server error (${error.code ?? error.message}); still serving.`, error);
      return;
    }
    console.error(`${label} cannot listen on port ${port}: ${listenFailure(error)}`);
    void onClose().finally(() => process.exit(1));
  });
  let metricsServer: Server | null = null;
  server.listen(port, async () => {
    console.info(`${label} listening on http://localhost:${port}`);
    if (metrics?.port) {
      try {
        metricsServer = await serveMetrics(metrics.port, metrics.host);
        console.info(`${label} metrics on http://${metrics.host}:${metrics.port}/metrics`);
      } catch (error) {
        console.error(
          `${label} cannot serve the metrics on ${metrics.host}:${metrics.port}: ${listenFailure(error as NodeJS.ErrnoException)}`,
        );
        return void onClose().finally(() => process.exit(1));
      }
    }
    const answered = firstAnswer(server);
    void answered.then(() =>
      console.info(`${label} first page answered ${process.uptime().toFixed(2)} s after the process began.`),
    );
    void Promise.resolve(onListening(answered)).catch((error: unknown) => {
      cannotStart(label, error);
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
      metricsServer?.close();
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

/** What the drain knows of a connection (gracefulClose). */
type Connection = {
  /** Requests it has brought so far. */
  requests: number;
  /** Of those, the ones whose answer has not ended (or been abandoned). */
  unanswered: number;
  /** Its socket's bytesRead when its last answer ended: more since means another request is coming. */
  bytesReadAtAnswer: number;
};

/**
 * Prepares `server` for a graceful close: from now on it tracks each connection's requests and
 * answers. The returned function closes it as the module docstring says and resolves once every
 * connection is closed; it never rejects. A connection is closed by the drain only when no request
 * can be lost on it: idle after an answer with no byte since, IDLE_GRACE_MS (100 ms) after the
 * signal or its last answer; or silent since it was accepted, SILENT_GRACE_MS (1 s) after the
 * signal. Any other one is left to answer its requests (each with `Connection: close`, after which
 * Node closes it) until DRAIN_MS (5 s), when what is still open is cut. Exported for its tests;
 * serveUntilSignal calls it.
 */
export function gracefulClose(server: Server): () => Promise<void> {
  const connections = new Map<Socket, Connection>();
  const inFlight = new Set<ServerResponse>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { requests: 0, unanswered: 0, bytesReadAtAnswer: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  // First listener: it runs before the handler writes anything.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader('Connection', 'close');
    inFlight.add(response);
    const socket = request.socket;
    const connection = connections.get(socket);
    if (connection) {
      connection.requests += 1;
      connection.unanswered += 1;
    }
    // 'close': the answer handed to the system whole (or its client gone), not merely ended.
    response.once('close', () => {
      inFlight.delete(response);
      if (!connection) return;
      connection.unanswered -= 1;
      connection.bytesReadAtAnswer = socket.bytesRead;
      // An answer whose headers went out before the signal left its socket open (keep-alive).
      if (draining && connection.unanswered === 0) sweepAfter(IDLE_GRACE_MS, [socket]);
    });
  });

  /**
   * Whether `socket` can be closed with no request lost: its answers all out and no byte since
   * the last one, or (`silentToo`) no request and no byte at all since it was accepted.
   */
  const closable = (socket: Socket, connection: Connection, silentToo: boolean) => {
    if (connection.unanswered > 0) return false;
    if (connection.requests > 0) return socket.bytesRead === connection.bytesReadAtAnswer;
    return silentToo && socket.bytesRead === 0;
  };
  /** Closes, `ms` from now, those of `sockets` (default: every connection) that are closable. */
  const sweepAfter = (ms: number, sockets?: Socket[], silentToo = false) =>
    setTimeout(
      () =>
        afterReading(() => {
          for (const socket of sockets ?? [...connections.keys()]) {
            const connection = connections.get(socket);
            if (connection && closable(socket, connection, silentToo)) socket.destroy();
          }
        }),
      ms,
    ).unref();

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
    // Not Node's closeIdleConnections(): it takes a kept-alive socket whose next request has come
    // but not been read yet for idle, and one whose answer is ended but still being sent (a slow
    // reader) too; and it leaves a connection that never sends anything to the cut at DRAIN_MS.
    sweepAfter(IDLE_GRACE_MS);
    sweepAfter(SILENT_GRACE_MS, undefined, true);
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    try {
      await closed;
    } finally {
      clearTimeout(cut);
    }
  };
}

/**
 * Runs `fn` once the event loop has read its sockets at least once from now (a poll phase between
 * two check phases, wherever this is called from). An event loop kept busy (a page rendering) runs
 * its due timers before it reads: a request already received would look like silence, and a socket
 * destroyed with unread bytes is reset rather than closed.
 */
function afterReading(fn: () => void): void {
  setImmediate(() => setImmediate(fn));
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
