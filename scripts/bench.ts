/**
 * `npm run bench [-- --seconds 10]`: the speed figures of docs/benchmarks.md, on this machine, in one run,
 * each beside a baseline measured in the same run, printed and written to docs/benchmarks.md
 * (newest first, so the history of the figures is in git). Loopback only; about 4 minutes.
 *
 * - Load (autocannon, `--seconds` per run, connections 100 and 1,000, `Accept-Encoding: gzip, br`
 *   like a phone): requests/s and p50/p99 latency (ms) of GET /bus/time-left and of the SSR home
 *   page, in Korean (no Accept-Language, the default) and in English (`Accept-Language: en-US`), of the built server (build/server.js on a fresh PGlite DATA_DIR), each beside a bare Node `http`
 *   server that answers the same bytes with the same headers (captured from the server first), once
 *   the server's start-up work is done (startupSettled: its steady state). The
 *   ratio is the figure. Peak RSS (MiB) of the server, sampled from /proc every 100 ms during its
 *   1,000-connection runs.
 * - GBIS calls in one simulated hour (08:00–09:00 KST on a test clock) with 1 and with
 *   1,000 phones refreshing every 4 s, against the counting GBIS stub, and how often the route
 *   asked the api meanwhile (scripts/bench-gbis-calls.ts).
 * - Reminders: a poll cycle's check on the lease holder with none pending and with 10,000, and the
 *   sends' bound (scripts/bench-reminders.ts; docs/decisions/033-web-push-reminders.md).
 * - JavaScript: gzipped bytes (level 9) each page route loads, from the build manifest (scripts/route-js.ts).
 * - Start: seconds from `npm start` to the first served page (GET / answering 200) on a fresh
 *   DATA_DIR (cold) and again on the same one (warm: the second start), with the build up to date;
 *   the median of START_RUNS of each. `--only start` measures these alone (about a minute), printed
 *   and not written.
 *
 * Needs an up-to-date build (`npm run build`; `npm start` rebuilds only when the sources changed).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { gzipSync } from 'node:zlib';
import autocannon, { type Result } from 'autocannon';
import { buildIsFresh } from './build-inputs.js';
import { routeScripts } from './route-js';
import { parseCli } from './cli';
import { measureDataDir, serveForMeasure, startupSettled, type Served } from './serve-for-measure';
import { gbisCallsPerHour } from './bench-gbis-calls';
import { reminderCycles } from './bench-reminders';

const options = parseCli('Usage: npm run bench -- [--seconds 10] [--only start]', {
  seconds: { type: 'string', default: '10' },
  only: { type: 'string' },
});
const duration = Number(options.seconds);
if (options.only !== undefined && options.only !== 'start') {
  console.error(`--only ${options.only}: only \`--only start\` is known.`);
  process.exit(2);
}
const CONNECTIONS = [100, 1000] as const;
/** What is loaded: a path, with the phone's language when it asks for one (the home is made per language). */
const TARGETS = [
  { name: '/bus/time-left', path: '/bus/time-left', language: null },
  { name: '/', path: '/', language: null },
  { name: '/ (English)', path: '/', language: 'en-US,en;q=0.9' },
] as const;
type Target = (typeof TARGETS)[number];
const PHONE_HEADERS = { 'accept-encoding': 'gzip, br' };
/** The headers a phone sends for `target`. */
const headersOf = (target: Target): Record<string, string> =>
  target.language ? { ...PHONE_HEADERS, 'accept-language': target.language } : PHONE_HEADERS;
const BENCHMARKS_FILE = 'docs/benchmarks.md';
const PORTS = { server: 3310, bare: 3311, start: 3312 };

type Captured = { status: number; headers: Record<string, string | string[]>; body: string };
type LoadRow = { name: string; connections: number; bare: Result; served: Result };

/** One raw answer of `url` to `headers` (body still compressed, as it went over the wire), base64. */
function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        // Node sets these itself for the bare server, as for ours.
        const headers = { ...response.headers } as Record<string, string | string[]>;
        for (const name of ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])
          delete headers[name];
        resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks).toString('base64') });
      });
    })
      .on('error', reject)
      .end();
  });
}

/** The bare server's key of an answer: the path, and the language asked for (answerKey). */
const answerKey = (path: string, language: string | null) => `${path} ${language ?? ''}`;

/** The bare server: plain node:http (no tsx, no framework) answering each target's captured bytes. */
const BARE_SERVER = `
const answers = JSON.parse(process.env.BENCH_ANSWERS);
for (const answer of Object.values(answers)) answer.bytes = Buffer.from(answer.body, 'base64');
require('node:http').createServer((req, res) => {
  // Asked for no language it has an answer in (fetch's own "*" too): the default answer.
  const answer = answers[req.url + ' ' + (req.headers['accept-language'] ?? '')] ?? answers[req.url + ' '];
  if (!answer) { res.statusCode = 404; res.end(); return; }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.bytes);
}).listen(Number(process.env.PORT), () => console.log('listening'));
`;

async function serveBare(answers: Record<string, Captured>): Promise<Served> {
  return serveForMeasure({
    port: PORTS.bare,
    command: [process.execPath, '-e', BARE_SERVER],
    path: TARGETS[0].path,
    env: { BENCH_ANSWERS: JSON.stringify(answers) },
  });
}

function load(url: string, target: Target, connections: number, seconds = duration): Promise<Result> {
  return autocannon({ url: url + target.path, connections, duration: seconds, headers: headersOf(target) });
}

/** Peak resident set (MiB) of `pid` while `work` runs, sampled every 100 ms from /proc. */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peak = 0;
  const sample = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    peak = Math.max(peak, Number(match?.[1] ?? 0));
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await work();
    sample();
    return { result, peakMiB: peak / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** Milliseconds from `npm start` to the first 200 on / on `dataDir`, then stops it. */
async function startTime(dataDir: string): Promise<number> {
  const served = await serveForMeasure({ port: PORTS.start, command: ['npm', 'start'], dataDir });
  await served.stop();
  return served.readyMs;
}

/** Starts measured of each kind; their median is the figure (a loaded machine's outliers). */
const START_RUNS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The start figures (ms): START_RUNS times a start on a fresh DATA_DIR (cold), then a second start
 * on it (warm); the median of each, and every run.
 */
async function startTimes(): Promise<{ coldMs: number; warmMs: number; runs: { cold: number[]; warm: number[] } }> {
  const runs = { cold: [] as number[], warm: [] as number[] };
  for (let run = 0; run < START_RUNS; run += 1) {
    const dataDir = measureDataDir();
    runs.cold.push(await startTime(dataDir));
    runs.warm.push(await startTime(dataDir));
  }
  return { coldMs: median(runs.cold), warmMs: median(runs.warm), runs };
}

/** The start figures as the report states them: the medians (s), then every run. */
function startLine({ coldMs, warmMs, runs }: Awaited<ReturnType<typeof startTimes>>): string {
  const list = (values: number[]) => values.map((ms) => (ms / 1000).toFixed(2)).join(', ');
  return (
    `\`npm start\` to the first page (PGlite, build up to date), median of ${START_RUNS}: ` +
    `cold ${(coldMs / 1000).toFixed(2)} s (fresh DATA_DIR), warm ${(warmMs / 1000).toFixed(2)} s (second start); ` +
    `runs: cold ${list(runs.cold)} s, warm ${list(runs.warm)} s.`
  );
}

function gzippedJs(): { route: string; kib: number; files: number }[] {
  return [...routeScripts()].map(([route, files]) => ({
    route,
    files: files.length,
    kib: files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0) / 1024,
  }));
}

const ratio = (ours: number, base: number) => (base > 0 ? (ours / base).toFixed(2) : '—');
const perSec = (result: Result) => Math.round(result.requests.average);
const failures = (result: Result) => result.non2xx + result.errors;

// ---- load runs (on an up-to-date build, as `npm start` would make it) ----
if (!buildIsFresh()) execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
if (options.only === 'start') {
  console.log(startLine(await startTimes()));
  process.exit(0);
}
const server = await serveForMeasure({
  port: PORTS.server,
  // What `npm start` runs, without npm in between (so that the pid is the server's).
  command: [process.execPath, 'scripts/start.js'],
  path: TARGETS[0].path,
});
// The steady state: the start-up's history work (the demo back-fill, the accuracy backtest) done.
await startupSettled(server);
const rows: LoadRow[] = [];
let peakMiB = 0;
try {
  const answers = Object.fromEntries(
    await Promise.all(
      TARGETS.map(
        async (target) =>
          [
            answerKey(target.path, target.language),
            await capture(server.url + target.path, headersOf(target)),
          ] as const,
      ),
    ),
  );
  // The English target is measured only if the server answers it in English.
  const english = answers[answerKey('/', TARGETS[2].language)];
  if (english.headers['content-language'] !== 'en') throw new Error('the English home was not answered in English');
  const bare = await serveBare(answers);
  try {
    for (const target of TARGETS) {
      // Warm both (JIT, caches) before the measured runs.
      await load(bare.url, target, 100, 2);
      await load(server.url, target, 100, 2);
      for (const connections of CONNECTIONS) {
        const bareResult = await load(bare.url, target, connections);
        const measured = await peakRss(server.child.pid!, () => load(server.url, target, connections));
        if (connections === 1000) peakMiB = Math.max(peakMiB, measured.peakMiB);
        rows.push({ name: target.name, connections, bare: bareResult, served: measured.result });
        console.log(
          `load ${target.name} × ${connections}: ${perSec(measured.result)} req/s (bare ${perSec(bareResult)})`,
        );
      }
    }
  } finally {
    await bare.stop();
  }
} finally {
  await server.stop();
}

// ---- GBIS calls, reminders, JS, start ----
const gbisCalls = await gbisCallsPerHour([1, 1000]);
const [noReminders, manyReminders] = await reminderCycles(10_000);
const manyLabel = manyReminders.pending.toLocaleString('en');
const reminderRows = [
  { label: 'none', spread: noReminders.all, figures: noReminders },
  { label: `${manyLabel}, cycles with none due`, spread: manyReminders.quiet, figures: manyReminders },
  { label: `${manyLabel}, every cycle`, spread: manyReminders.all, figures: manyReminders },
];
const js = gzippedJs();
const start = await startTimes();

// ---- report ----
const machine =
  `${cpus().length} CPUs (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
  `Node ${process.version}, ${process.platform}`;
const commit = await new Promise<string>((resolve) => {
  const git = spawn('git', ['rev-parse', '--short', 'HEAD']);
  let out = '';
  git.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  git.on('close', () => resolve(out.trim() || 'unknown'));
});
const lines = [
  `## ${new Date().toISOString()} (commit ${commit})`,
  '',
  `Machine: ${machine}. \`npm run bench\`, autocannon on loopback, ${duration} s per run, \`Accept-Encoding: gzip, br\`.`,
  '',
  '| route | connections | bare req/s | ours req/s | ratio | bare p50 / p99 ms | ours p50 / p99 ms | p99 ratio | ours non-2xx + errors |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    ({ name, connections, bare, served }) =>
      `| ${name} | ${connections} | ${perSec(bare)} | ${perSec(served)} | ${ratio(served.requests.average, bare.requests.average)} | ` +
      `${bare.latency.p50} / ${bare.latency.p99} | ${served.latency.p50} / ${served.latency.p99} | ` +
      `${ratio(served.latency.p99, bare.latency.p99)} | ${failures(served)} |`,
  ),
  '',
  `Peak RSS of the server during its 1,000-connection runs: ${peakMiB.toFixed(0)} MiB.`,
  '',
  '| phones refreshing every 4 s | GBIS calls in the simulated hour (08:00–09:00 KST) | reads of the api by the route |',
  '|---|---|---|',
  ...gbisCalls.map(({ phones, calls, apiReads }) => `| ${phones} | ${calls} | ${apiReads} |`),
  '',
  `GBIS calls with 1,000 phones ÷ with 1: ${ratio(gbisCalls[1].calls, gbisCalls[0].calls)}.`,
  '',
  "Reminders: a poll cycle's check on the lease holder (embedded PGlite, one simulated hour of 15-s polls), ms:",
  '',
  '| pending | cycles | median | p95 | max | sent | most sent at once |',
  '|---|---|---|---|---|---|---|',
  ...reminderRows.map(
    ({ label, spread, figures }) =>
      `| ${label} | ${spread.cycles} | ${spread.medianMs.toFixed(2)} | ${spread.p95Ms.toFixed(2)} | ` +
      `${spread.maxMs.toFixed(1)} | ${figures.sent} | ${figures.maxConcurrentSends} |`,
  ),
  '',
  `What 10,000 pending add to a cycle with none due: ${(manyReminders.quiet.medianMs - noReminders.all.medianMs).toFixed(2)} ms at the median, ` +
    `${(manyReminders.quiet.p95Ms - noReminders.all.p95Ms).toFixed(2)} ms at the 95th percentile; the max is the first cycle, which reads them all.`,
  '',
  '| page route | JS files | JS gzipped (KiB) |',
  '|---|---|---|',
  ...js.map(({ route, files, kib }) => `| ${route} | ${files} | ${kib.toFixed(1)} |`),
  '',
  startLine(start),
  '',
];
console.log(`\n${lines.join('\n')}`);

const INTRO =
  '# Benchmarks\n\nWritten by `npm run bench` (scripts/bench.ts), newest first. Every load figure has ' +
  'its baseline from the same run: a bare Node `http` server answering the same bytes with the same headers.\n\n';
const previous = (() => {
  try {
    return readFileSync(BENCHMARKS_FILE, 'utf8').replace(INTRO, '');
  } catch {
    return '';
  }
})();
writeFileSync(BENCHMARKS_FILE, INTRO + lines.join('\n') + '\n' + previous);
console.log(`written to ${BENCHMARKS_FILE}`);
