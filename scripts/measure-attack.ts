/**
 * `npm run measure:attack` (after `npm run build`): the figures of docs/deploy.md §Request bodies and
 * origins, and of the crash restart, each beside its baseline from the same run, on the built web
 * (node build/server.js) with a fresh PGlite directory:
 * - a 300 MB POST to /contact, declared by Content-Length and then chunked: its status, the ms to
 *   the answer, the answer's bytes, the web's RSS growth, and /healthz's slowest answer while it
 *   runs, beside /healthz's slowest over as long with no flood;
 * - a start right after `kill -9` on the same DATA_DIR: ms from spawn to the first page, beside a
 *   start after a clean stop (median of `--runs`, default 3).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseCli } from './cli';
import { measureDataDir, serveForMeasure, type Served } from './serve-for-measure';

const USAGE = 'Usage: npm run measure:attack -- [--runs 3] [--port 3900]';
const values = parseCli(USAGE, {
  runs: { type: 'string', default: '3' },
  port: { type: 'string', default: '3900' },
});
const runs = Number(values.runs);
const port = Number(values.port);
const BUILT = ['node', 'build/server.js'];

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Polls /healthz every 20 ms while `during` runs: the slowest answer (ms) and the highest RSS (MB) seen. */
async function watch(served: Served, during: Promise<unknown>) {
  let done = false;
  void during.finally(() => (done = true));
  let slowest = 0;
  let peakRss = 0;
  while (!done) {
    const started = performance.now();
    await fetch(`${served.url}/healthz`).then((response) => response.arrayBuffer());
    slowest = Math.max(slowest, performance.now() - started);
    peakRss = Math.max(peakRss, rssMb(served.child.pid!));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { slowest, peakRss };
}

/** tests/setup/flood.ts in its own process: the answer to `size` bytes POSTed to `url`. */
function flood(url: string, origin: string, size: number, chunked: boolean) {
  return new Promise<{ status: number; ms: number; bytes: number }>((resolve, reject) => {
    const args = ['--import', 'tsx', 'tests/setup/flood.ts', '--url', url, '--size', String(size), '--origin', origin];
    const child = spawn(process.execPath, chunked ? [...args, '--chunked'] : args, {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * Waits until the server is done with its start-up work (the demo history's back-fill, the day's
 * accuracy figure): 10 /healthz answers in a row within 20 ms, or 60 s.
 */
async function settled(served: Served) {
  const until = performance.now() + 60_000;
  for (let quick = 0; quick < 10 && performance.now() < until;) {
    const started = performance.now();
    await fetch(`${served.url}/healthz`).then((response) => response.arrayBuffer());
    quick = performance.now() - started < 20 ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function bodies() {
  const served = await serveForMeasure({ port, command: BUILT, path: '/contact' });
  try {
    await settled(served);
    const pid = served.child.pid!;
    const before = rssMb(pid);
    const quiet = await watch(served, new Promise((resolve) => setTimeout(resolve, 1500)));
    console.log(`300 MB POST to /contact (web RSS ${before.toFixed(0)} MB at rest)`);
    console.log(`  baseline, no flood for 1.5 s: /healthz slowest ${quiet.slowest.toFixed(1)} ms`);
    for (const chunked of [false, true]) {
      const sending = flood(`${served.url}/contact`, served.url, 300 * 1000 * 1000, chunked);
      const seen = await watch(served, sending);
      const answer = await sending;
      console.log(
        `  ${chunked ? 'chunked       ' : 'Content-Length'}: ${answer.status} in ${answer.ms.toFixed(1)} ms, ` +
          `${answer.bytes} bytes; RSS +${Math.max(0, seen.peakRss - before).toFixed(1)} MB; ` +
          `/healthz slowest ${seen.slowest.toFixed(1)} ms (${(seen.slowest / quiet.slowest).toFixed(1)}× the baseline)`,
      );
    }
  } finally {
    await served.stop();
  }
}

async function restarts() {
  const dataDir = measureDataDir();
  // The first start fills the fresh directory (migrations, the demo history); then it is warm.
  await (await serveForMeasure({ port, command: BUILT, dataDir })).stop();
  const clean: number[] = [];
  const afterKill: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const stopped = await serveForMeasure({ port, command: BUILT, dataDir });
    clean.push(stopped.readyMs);
    process.kill(-stopped.child.pid!, 'SIGKILL');
    await new Promise((resolve) => stopped.child.once('exit', resolve));
    const taken = await serveForMeasure({ port, command: BUILT, dataDir });
    afterKill.push(taken.readyMs);
    await taken.stop();
  }
  console.log(`Start on a warm DATA_DIR, spawn to the first page (median of ${runs})`);
  console.log(`  after a clean stop: ${median(clean).toFixed(0)} ms (${clean.map((ms) => ms.toFixed(0)).join(', ')})`);
  console.log(
    `  right after kill -9: ${median(afterKill).toFixed(0)} ms (${afterKill.map((ms) => ms.toFixed(0)).join(', ')}); ` +
      `${(median(afterKill) / median(clean)).toFixed(2)}× the clean start`,
  );
}

await bodies();
await restarts();
