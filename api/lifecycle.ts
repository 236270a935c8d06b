/**
 * The life of an entry's HTTP server (server.ts, api/main.ts): listen, start the background work
 * only once listening, and on SIGTERM/SIGINT stop cleanly even under load.
 *
 * Shutdown (issue 10): stop taking connections, answer the requests in flight with
 * `Connection: close` and close each keep-alive socket as its response ends (http-terminator;
 * `server.close()` alone never calls back while clients keep their sockets busy), then stop the
 * api (poller, database) and exit 0, all within SHUTDOWN_LIMIT_MS; past it, or on a second
 * signal, exit 1.
 */
import type { Server } from 'node:http';
import { createHttpTerminator } from 'http-terminator';
import { DataDirBusyError } from './db/data-dir-lock';

/** Sockets still busy this long after the signal are cut. */
const DRAIN_MS = 5_000;
/** The whole shutdown; a supervisor (systemd, Kubernetes) waits 10 s before SIGKILL by default. */
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
 * while accepting) is logged and the server goes on.
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
  const terminator = createHttpTerminator({ server, gracefulTerminationTimeout: DRAIN_MS });
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
      console.info(`${label} ${signal}: closing`);
      setTimeout(() => {
        console.error(`${label} shutdown took over ${SHUTDOWN_LIMIT_MS / 1000} s; exiting.`);
        process.exit(1);
      }, SHUTDOWN_LIMIT_MS).unref();
      void terminator
        .terminate()
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
