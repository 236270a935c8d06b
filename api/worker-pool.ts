/**
 * The api's worker thread (docs/architecture.md §Work off the serving thread): the CPU-heavy jobs
 * (the backtests, the day plans, the demo history, GBIS discovery's parsing) run here, in a Piscina pool of one
 * node:worker_threads thread at a lower CPU priority, so that the serving thread only reads and
 * writes their inputs and results. A job is a named export of a worker file (WORKERS): the
 * source file under tsx (tests, `tsx server.ts`), else the build's build/NAME.js.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { PACKAGE_ROOT } from '../lib/package-root';

/**
 * The worker files, by name: each source file (from the repository's root) is bundled by
 * `npm run build` into build/NAME.js (scripts/build.ts).
 */
export const WORKERS = {
  'predictions-worker': 'api/bus/predictions/worker.ts',
  'gbis-worker': 'api/bus/feed/gbis/worker.ts',
} as const;

export type WorkerName = keyof typeof WORKERS;

export type WorkerPool = {
  /**
   * Runs the export `job` of the worker file `worker` on `input` (structured-cloned: plain data,
   * Dates, Maps and typed arrays cross, functions and prototypes do not).
   * @returns the job's result, structured-cloned back.
   * @throws what the job throws (its message and stack), or when the pool is closed.
   */
  run<T>(worker: WorkerName, job: string, input: unknown): Promise<T>;
  /** Ends the thread at once: the jobs under way are dropped (their runs reject), later runs throw. */
  close(): Promise<void>;
};

/**
 * How long (ms) the thread stays after its last job: the jobs come in bursts (start-up, the daily
 * refresh, a plan every PLAN_REFRESH_MS), and an idle thread holds its own heap.
 */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * How much lower than the serving thread's the worker's CPU priority is (nice(2) on Linux, through
 * Piscina's optional @napi-rs/nice): on a small machine the pages get the CPU first.
 */
const NICE_INCREMENT = 10;

/**
 * One thread at most: the machine it is sized for has two cores, one of them the serving thread's.
 * The thread starts with its first job.
 */
export function createWorkerPool(): WorkerPool {
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina({
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: IDLE_TIMEOUT_MS,
    niceIncrement: NICE_INCREMENT,
    // The source files need tsx's loader in the thread too (the build runs as plain JavaScript).
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  });
  const fileOf = (worker: WorkerName) => {
    const path = fromSource ? join(PACKAGE_ROOT, WORKERS[worker]) : join(PACKAGE_ROOT, 'build', `${worker}.js`);
    if (!existsSync(path)) throw new Error(`no worker file at ${path} (run \`npm run build\`)`);
    return pathToFileURL(path).href;
  };
  let closed = false;
  return {
    run: async (worker, job, input) => {
      if (closed) throw new Error('the worker pool is closed');
      return pool.run(input, { filename: fileOf(worker), name: job });
    },
    close: () => {
      closed = true;
      return pool.destroy();
    },
  };
}
