/**
 * The predictions' CPU-heavy jobs (worker.ts) as the serving thread calls them: each runs in the
 * api's worker thread (api/worker-pool.ts) and resolves with its result.
 */
import type { WorkerPool } from '../../worker-pool';
import * as worker from './worker';

type Jobs = typeof worker;

/** Each job of worker.ts, taking its input and resolving with its output; rejects with what the job threw. */
export type PredictionJobs = {
  [Job in keyof Jobs]: (input: Parameters<Jobs[Job]>[0]) => Promise<Awaited<ReturnType<Jobs[Job]>>>;
};

/** The jobs of worker.ts, run on `pool`. */
export function predictionJobs(pool: WorkerPool): PredictionJobs {
  const job =
    <Job extends keyof Jobs>(name: Job) =>
    (input: Parameters<Jobs[Job]>[0]) =>
      pool.run<Awaited<ReturnType<Jobs[Job]>>>('predictions-worker', name, input);
  return { backtest: job('backtest'), planDay: job('planDay'), demoHistory: job('demoHistory') };
}

/**
 * The same jobs on the calling thread: for a process that serves nothing (the backtest CLI), and the
 * services' unit tests (the thread itself is api/worker-pool.test.ts's).
 */
export const inThreadJobs: PredictionJobs = {
  backtest: async (input) => worker.backtest(input),
  planDay: async (input) => worker.planDay(input),
  demoHistory: async (input) => worker.demoHistory(input),
};
