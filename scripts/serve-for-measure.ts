/**
 * Starts the built web (server.ts) as a child process on the embedded defaults with a fresh PGlite
 * directory, and resolves once GET `path` answers 200. Shared by the measuring scripts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Result } from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from './cli';

export type Served = { url: string; child: ChildProcess; readyMs: number; stop(): Promise<void> };

/**
 * @param command the command line that serves (default: tsx server.ts on the existing build).
 * @param dataDir the PGlite directory to serve (default: a fresh temporary one).
 * @param env extra environment of the served process.
 * @returns the base URL, the child, milliseconds from spawn to the first 200 on `path`, and `stop`,
 *   which ends the child's process group and resolves once none of it is left.
 * @throws when nothing answers within 120 s.
 */
export async function serveForMeasure(options: {
  port: number;
  command?: string[];
  path?: string;
  dataDir?: string;
  env?: Record<string, string>;
}): Promise<Served> {
  const { port, command = ['npx', 'tsx', 'server.ts'], path = '/' } = options;
  const url = `http://localhost:${port}`;
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: 'production',
      DATA_DIR: options.dataDir ?? measureDataDir(),
      CLOCK_START: '2026-11-23T08:00:00+09:00',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // npm exits at once, the server it started once it has closed (its connections, its database
    // and DATA_DIR's lock): the next start on the same DATA_DIR must not meet it.
    while (processGroupAlive(child.pid!)) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  while (performance.now() - started < 120_000) {
    const ok = await fetch(url + path).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, readyMs: performance.now() - started, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`nothing answered on ${url}${path} within 120 s`);
}

/** Whether a process of the group `pgid` (a detached child's pid) is still running. */
function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A fresh, empty temporary PGlite directory for one measured server. */
export function measureDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'campus-bus-measure-'));
}

/** `--connections N --seconds S` of a load-test script, with its defaults; `usage` is its --help. */
export function loadOptions(
  usage: string,
  defaults: { connections: number; seconds: number },
): {
  connections: number;
  duration: number;
} {
  const values = parseCli(usage, {
    connections: { type: 'string', default: String(defaults.connections) },
    seconds: { type: 'string', default: String(defaults.seconds) },
  });
  return { connections: Number(values.connections), duration: Number(values.seconds) };
}

/** One autocannon result as a line: latency percentiles in ms, requests/s, non-2xx answers, errors (of which timeouts). */
export function latencyLine(label: string, result: Result): string {
  return (
    `  ${label}: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, ` +
    `max ${result.latency.max} ms; ${result.requests.average.toFixed(0)} req/s (total ${result.requests.total}); ` +
    `non-2xx ${result.non2xx}, errors ${result.errors} (timeouts ${result.timeouts})`
  );
}

/**
 * Waits until the server's start-up work is done: /faq is cached publicly once the day's accuracy
 * figure is computed (app/routes/faq.tsx), the last of it (api/runtime.ts), so that what is
 * measured next is the server's steady state.
 * @throws when the figure is not computed within 180 s.
 */
export async function startupSettled(served: Served): Promise<void> {
  const until = performance.now() + 180_000;
  while (performance.now() < until) {
    const response = await fetch(`${served.url}/faq`);
    await response.arrayBuffer();
    if (response.headers.get('cache-control')?.startsWith('public')) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the day’s accuracy figure was not computed within 180 s');
}
