/**
 * `npm run measure:attack` (after `npm run build`): the figures of docs/deploy.md §Request bodies and
 * origins, and of the crash restart, each beside its baseline from the same run, on the built web
 * (node build/server.js) with a fresh PGlite directory:
 * - forms repeating one field, each sent three times (a 320 KB urlencoded application of `title=a` 40,000 times, a 1.7 MB
 *   multipart one of 20,000 titles, a 30 KB sign-in, a 22 KB inquiry): their statuses, the median
 *   ms to the answer, and the median of /healthz's slowest answer meanwhile, beside /healthz's slowest at rest and an
 *   application of one title (refused as incomplete, its page rendered with the errors);
 * - the body budget held by idle connections (76, each having sent one byte of what it declares: 12
 *   image forms at their 5.25 MB cap and 64 inquiries of 16 KB, 64 MiB in all): the status of
 *   ordinary POSTs (an impression, a sign-in, an inquiry, the chatbot skill) from another address
 *   while they are held, beside the same POSTs without them, and how long an idle holder is kept;
 * - a 300 MB POST to /contact, declared by Content-Length and then chunked: its status, the ms to
 *   the answer, the answer's bytes, the web's RSS growth, and /healthz's slowest answer while it
 *   runs, beside /healthz's slowest over as long with no flood;
 * - a start right after `kill -9` on the same DATA_DIR: ms from spawn to the first page, beside a
 *   start after a clean stop (median of `--runs`, default 3).
 * With `--before DIR` (a checkout of an earlier commit, built: `git worktree add DIR <commit>`, then
 * `npm ci && npm run build` in it), the two first are measured on that build too, before this one's.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { parseCli } from './cli';
import { measureDataDir, serveForMeasure, type Served } from './serve-for-measure';

const USAGE = 'Usage: npm run measure:attack -- [--before DIR] [--runs 3] [--port 3900]';
const values = parseCli(USAGE, {
  before: { type: 'string' },
  runs: { type: 'string', default: '3' },
  port: { type: 'string', default: '3900' },
});
const runs = Number(values.runs);
const port = Number(values.port);
const BUILT = ['node', 'build/server.js'];
const SKILL_SECRET = 's'.repeat(40);
/** The served web's environment: one proxy hop trusted, so each POST below names its own address. */
const ENV = { TRUST_PROXY: '1', KAKAO_SKILL_SECRET: SKILL_SECRET };

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Polls /healthz every 20 ms while `during` runs: the slowest answer (ms), the highest RSS (MB)
 * seen, and how many polls got no answer (a reset connection).
 */
async function watch(served: Served, during: Promise<unknown>) {
  let done = false;
  void during.finally(() => (done = true));
  let slowest = 0;
  let peakRss = 0;
  let failed = 0;
  while (!done) {
    const started = performance.now();
    await fetch(`${served.url}/healthz`)
      .then((response) => response.arrayBuffer())
      .catch(() => (failed += 1));
    slowest = Math.max(slowest, performance.now() - started);
    peakRss = Math.max(peakRss, rssMb(served.child.pid!));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { slowest, peakRss, failed };
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

/** The builds to measure: `--before`'s (when given) and this one, each with its label and command. */
function builds(): { label: string; command: string[] }[] {
  const current = { label: 'this build', command: BUILT };
  if (!values.before) return [current];
  return [
    { label: `before (${values.before})`, command: ['node', join(values.before, 'build', 'server.js')] },
    current,
  ];
}

/** A POST from this site's pages, from phone `ip`, answered within 60 s (0 when it is not). */
async function post(served: Served, path: string, body: BodyInit, ip: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(`${served.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    body,
    headers: { Origin: served.url, 'X-Forwarded-For': ip, ...headers },
    signal: AbortSignal.timeout(60_000),
  }).catch(() => null);
  await response?.arrayBuffer();
  return { status: response?.status ?? 0, ms: performance.now() - started };
}

/**
 * `count` fields `title=a` as a multipart body's bytes and its Content-Type, made once: serialising
 * a FormData of thousands of entries at each send would take this process's own event loop, and its
 * /healthz timings with it.
 */
async function multipartTitles(count: number) {
  const form = new FormData();
  for (let i = 0; i < count; i += 1) form.append('title', 'a');
  const encoded = new Response(form);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('Content-Type')! };
}

async function repeatedFields() {
  const oneTitle = await multipartTitles(1);
  const manyTitles = await multipartTitles(20_000);
  const cases: [string, string, () => BodyInit, Record<string, string>?][] = [
    // The baseline: the same form refused for its missing fields, its page rendered with the errors.
    [
      '/ads/apply',
      'baseline, multipart with one title',
      () => oneTitle.bytes,
      { 'Content-Type': oneTitle.contentType },
    ],
    ['/ads/apply', '320 KB urlencoded, title=a × 40,000', () => new URLSearchParams('title=a&'.repeat(40_000))],
    [
      '/ads/apply',
      '1.7 MB multipart, title × 20,000',
      () => manyTitles.bytes,
      { 'Content-Type': manyTitles.contentType },
    ],
    ['/admin-only/login', '30 KB, username=a × 2,700', () => new URLSearchParams('username=a&'.repeat(2_700))],
    ['/contact', '22 KB, content=a × 2,000', () => new URLSearchParams('content=a&'.repeat(2_000))],
  ];
  console.log('Forms repeating one field: the answer, and /healthz meanwhile');
  for (const { label, command } of builds()) {
    const served = await serveForMeasure({ port, command, path: '/contact', env: ENV });
    try {
      await settled(served);
      const quiet = await watch(served, new Promise((resolve) => setTimeout(resolve, 1500)));
      console.log(`  ${label}: /healthz slowest at rest ${quiet.slowest.toFixed(1)} ms`);
      for (const [path, what, body, headers] of cases) {
        // Three times each (the first meets cold code): the median answer, and /healthz's median slowest.
        const tries: { status: number; ms: number; slowest: number; failed: number }[] = [];
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const sending = post(served, path, body(), `198.51.100.${10 + attempt}`, headers);
          const seen = await watch(served, sending);
          tries.push({ ...(await sending), slowest: seen.slowest, failed: seen.failed });
        }
        const ms = median(tries.map((one) => one.ms));
        const slowest = median(tries.map((one) => one.slowest));
        const failed = tries.reduce((sum, one) => sum + one.failed, 0);
        console.log(
          `    ${path} ${what}: ${tries.map((one) => one.status || 'none in 60 s').join('/')} in ${ms.toFixed(0)} ms; ` +
            `/healthz slowest ${slowest.toFixed(1)} ms (${(slowest / quiet.slowest).toFixed(1)}× at rest)` +
            (failed ? `, ${failed} reset` : ''),
        );
      }
    } finally {
      await served.stop();
    }
  }
}

/**
 * `count` connections that each send a POST's headers declaring `length` bytes, and one byte of it,
 * then nothing; resolves once all are open and sent, each with a promise of the ms from its byte to
 * the server's closing it (never resolved while it stays open).
 */
async function idleHolders(served: Served, count: number, path: string, length: number, contentType: string) {
  const { host, port: servedPort } = new URL(served.url);
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<{ socket: Socket; closedAfterMs: Promise<number> }>((resolve) => {
          const socket = connect(Number(servedPort), '127.0.0.1', () => {
            const sent = performance.now();
            const closedAfterMs = new Promise<number>((closed) =>
              socket.once('close', () => closed(performance.now() - sent)),
            );
            socket.write(
              `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${served.url}\r\n` +
                `Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n-`,
              () => resolve({ socket, closedAfterMs }),
            );
          });
          // Read (and drop) what the server answers, so that its closing is seen.
          socket.on('error', () => undefined).resume();
        }),
    ),
  );
}

/** Ordinary POSTs of four kinds from phone `ip`: their statuses. */
async function ordinaryPosts(served: Served, ip: string) {
  const skill = JSON.parse(readFileSync('tests/fixtures/skill/request.json', 'utf8')) as unknown;
  const statuses = {
    impression: (await post(served, '/ads/impressions', new URLSearchParams({ id: '1' }), ip)).status,
    'sign-in': (await post(served, '/admin-only/login', new URLSearchParams({ username: 'x', password: 'y' }), ip))
      .status,
    inquiry: (await post(served, '/contact', new URLSearchParams({ content: '문의' }), ip)).status,
    skill: (
      await post(served, '/api/kakao/skill', JSON.stringify(skill), ip, {
        'Content-Type': 'application/json',
        'X-Kakao-Skill-Secret': SKILL_SECRET,
        Origin: '',
      })
    ).status,
  };
  return Object.entries(statuses)
    .map(([kind, status]) => `${kind} ${status}`)
    .join(', ');
}

async function idleBudget() {
  console.log('Idle connections holding the body budget: ordinary POSTs from another address');
  for (const { label, command } of builds()) {
    const served = await serveForMeasure({ port, command, path: '/contact', env: ENV });
    try {
      await settled(served);
      const alone = await ordinaryPosts(served, '198.51.100.20');
      const held = [
        ...(await idleHolders(
          served,
          12,
          '/ads/apply',
          5 * 1024 * 1024 + 256 * 1024,
          'multipart/form-data; boundary=x',
        )),
        ...(await idleHolders(served, 64, '/contact', 16 * 1024, 'application/x-www-form-urlencoded')),
      ];
      // Time for the server to take every holder's request in.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const beside = await ordinaryPosts(served, '198.51.100.21');
      const cutAfter = await Promise.race([
        held[0].closedAfterMs,
        new Promise<number>((resolve) => setTimeout(() => resolve(NaN), 30_000)),
      ]);
      for (const { socket } of held) socket.destroy();
      console.log(`  ${label}:`);
      console.log(`    without holders: ${alone}`);
      console.log(`    beside 76 idle holders: ${beside}`);
      console.log(
        `    an idle holder cut after ${Number.isNaN(cutAfter) ? 'more than 30 s' : `${(cutAfter / 1000).toFixed(1)} s`}`,
      );
    } finally {
      await served.stop();
    }
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

await repeatedFields();
await idleBudget();
await bodies();
await restarts();
