/**
 * Entries run as real processes, for the tests of what only a process shows: start-up failures,
 * signals, SIGKILL, two processes on one database. The tests run the built entries (build/server.js,
 * build/api.js: what production runs, ADR 004, and a few seconds quicker to start than their
 * sources under tsx), so they need `npm run build`, which `npm test` runs first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';

export type EntryProcess = {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when the output matches `pattern`; rejects when the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) and the ms from this call until the exit. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>;
};

/**
 * Starts `entry` (a path under the repo, or under `cwd` when given): a built `.js` entry with node, a
 * `.ts` one with tsx, `env` over the current environment, and `args`. A demo deployment starts with
 * no simulated history (DEMO_HISTORY_DAYS 0: no start-up back-fill and backtest, ~7 s of CPU each)
 * unless `env` asks for one.
 */
export function runEntry(entry: string, env: Record<string, string>, args: string[] = [], cwd?: string): EntryProcess {
  // node --import tsx: one process, so its pid is the server's (tsx's CLI would put a parent in between).
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    TZ: 'America/Los_Angeles',
    DEMO_HISTORY_DAYS: '0',
    // The lines as a person reads them (`[web] …`), which the tests match; tests/logs.test.ts reads the JSON ones.
    LOG_FORMAT: 'pretty',
    ...env,
  };
  const child = spawn(process.execPath, [...loader, entry, ...args], {
    cwd,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kept = keepLog(child.pid, secretsOf(fullEnv));
  let text = '';
  const add = (chunk: Buffer) => {
    text += chunk.toString();
    kept(chunk);
  };
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => text,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}:\n${text}`)), timeoutMs);
        const check = () => pattern.test(text) && finish();
        const exited = () => finish(new Error(`${entry} exited before printing ${pattern}:\n${text}`));
        function finish(error?: Error) {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          child.off('exit', exited);
          if (error) reject(error);
          else resolve();
        }
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        child.once('exit', exited);
        if (child.exitCode !== null) exited();
        check();
      }),
    exited: async () => {
      const start = Date.now();
      const result = await exit;
      return { ...result, afterMs: Date.now() - start };
    },
  };
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The values of `env` a log must never show: the secrets the tests set (a variable named like a
 * secret, token, password or key) and SMTP_URL's password.
 */
function secretsOf(env: Record<string, string | undefined>): string[] {
  const secrets = Object.entries(env).flatMap(([name, value]) =>
    /SECRET|TOKEN|PASSWORD|SERVICE_KEY/.test(name) && value && value.length >= 8 ? [value] : [],
  );
  const smtpPassword = env.SMTP_URL ? decodeURIComponent(new URL(env.SMTP_URL).password) : '';
  return smtpPassword.length >= 8 ? [...secrets, smtpPassword] : secrets;
}

/**
 * Keeps a process's output, and the secrets it was given, in the suite's log directory
 * (TEST_LOGS_DIR, made by tests/setup/suite-logs.ts), where the suite's end reads them all for
 * secrets; a no-op outside the suite's run.
 * @returns what appends a chunk of output.
 */
function keepLog(pid: number | undefined, secrets: string[]): (chunk: Buffer) => void {
  const dir = process.env.TEST_LOGS_DIR;
  if (!dir || pid === undefined) return () => undefined;
  writeFileSync(join(dir, `${pid}.secrets.json`), JSON.stringify(secrets));
  const log = join(dir, `${pid}.log`);
  return (chunk) => appendFileSync(log, chunk);
}
