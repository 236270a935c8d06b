/**
 * `npm run bench:skill [-- --connections 200 --seconds 20]`: load-tests the KakaoTalk skill
 * (POST /api/kakao/skill) of the built app from this process while server.ts runs in its own
 * (embedded defaults, demo feed), under three loads: N connections saturating the server
 * (autocannon), N connections asking once a second each, and one connection (autocannon). The body
 * is the README's example request (tests/fixtures/skill/request.json), sent with the skill secret.
 * The baseline, measured in the same run at the same concurrency, is the phones' refresh route GET
 * /bus/time-left (memory only, like the skill; it sends stored bytes ahead of express); the
 * skill's figures are also given as multiples of it. Three in-period chatbot ads are stored first, so
 * every answer carries an ad card and counts its impression, as in production. First, during
 * start-up: from 2 s after the first page on the fresh data dir, STARTUP_SECONDS of Poisson arrivals
 * at STARTUP_RATE requests/s each to the skill and to GET / (asking for it compressed, as phones
 * do) while the demo history's back-fill and the day's accuracy backtest run (docs/architecture.md
 * §Work off the serving thread), then the same once they are done, each with the server's event
 * loop delay (its metrics port) and this process's own (a lagging client inflates what it measures). The other
 * loads start once the start-up work is done. Ends with the figures ADR 024 holds the skill to: p99 at N
 * requests/s, and at saturation the slowest answer, the answers over 2 s and over 5 s, and the busy
 * answers; the machine's load average at the start and the end (other work on it moves the figures).
 * Needs `npm run build` first. Loopback only.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { SKILL_BUSY_TEXT, SKILL_SECRET_HEADER } from '../contract/skill';
import { openDatabase } from '../api/db/client';
import { ads } from '../api/db/schema';
import { EVENT_LOOP_RESOLUTION_MS } from '../lib/observability/metrics';
import { latencyLine, loadOptions, measureDataDir, serveForMeasure, startupSettled } from './serve-for-measure';
import { KAKAO_TIMEOUT_SEC, paced, poisson, quantile, type Arrivals, type Paced } from './skill-load';

const { connections, duration } = loadOptions('Usage: npm run bench:skill -- [--connections 200] [--seconds 20]', {
  connections: 200,
  seconds: 20,
});
const secret = 'bench-kakao-skill-secret-0123456789abcdef';
/** ADR 024: under saturation no answer takes longer than this (ms). */
const SLOW_MS = 2000;
/** The start-up run's Poisson rate (requests/s to each of the skill and the home) and length (s). */
const STARTUP_RATE = 200;
const STARTUP_SECONDS = 60;
/** docs/architecture.md §Work off the serving thread: the server's event loop delay p99 during start-up (ms). */
const LOOP_P99_TARGET_MS = 20;
/** What a phone's browser sends as Accept-Encoding. */
const PHONE_ENCODINGS = 'gzip, deflate, br';
/** ADR 024: the p99 the skill keeps at N requests/s (ms). */
const P99_TARGET_MS = 50;
const body = readFileSync(new URL('../tests/fixtures/skill/request.json', import.meta.url), 'utf8');

const dataDir = measureDataDir();
const database = await openDatabase({ dataDir });
const period = { startsAt: new Date('2026-11-01T00:00:00+09:00'), endsAt: new Date('2027-01-01T00:00:00+09:00') };
await database.db.insert(ads).values(
  ['캠퍼스 카페', '정문 분식', '중앙 서점'].map((title, position) => ({
    type: 'kakao' as const,
    title,
    content: `${title}: 학생증을 보여 주시면 10% 할인`,
    imageUrl: `https://bus.example/images/bench-${position}.png`,
    redirectUrl: 'https://shop.example/',
    position,
    ...period,
    createdAt: period.startsAt,
    updatedAt: period.startsAt,
  })),
);
await database.close();

/** One load's result, with what autocannon's summary does not tell. */
type Run = {
  result: autocannon.Result;
  /** Answers that took longer than SLOW_MS, and of them the first answers on a new connection. */
  slow: number;
  slowFirst: number;
  /** Of the requests unanswered after KAKAO_TIMEOUT_SEC (result.timeouts), the first ones on a new connection. */
  unansweredFirst: number;
  /** Answers saying SKILL_BUSY_TEXT. */
  busy: number;
};

/**
 * Runs autocannon with `options`, counting the answers over SLOW_MS (those that came on a new
 * connection, opened at the start or after a timeout, apart: their time includes the connection's
 * set-up) and the busy answers.
 */
function run(options: autocannon.Options): Promise<Run> {
  const counted: Omit<Run, 'result'> = { slow: 0, slowFirst: 0, unansweredFirst: 0, busy: 0 };
  const fresh = new WeakSet<autocannon.Client>();
  const onResponse = (_status: number, answer: string) => {
    if (answer.includes(SKILL_BUSY_TEXT)) counted.busy += 1;
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        ...options,
        requests: options.requests?.map((request) => ({ ...request, onResponse })),
        setupClient: (client) => {
          fresh.add(client);
          // NOTE: @types/autocannon leaves out the client's 'timeout' (it then connects again).
          (client as NodeJS.EventEmitter).on('timeout', () => {
            if (fresh.has(client)) counted.unansweredFirst += 1;
            fresh.add(client);
          });
        },
      },
      (error, result) => (error ? reject(error) : resolve({ result, ...counted })),
    );
    instance.on('response', (client, _status, _bytes, ms) => {
      const first = fresh.delete(client);
      if (ms <= SLOW_MS) return;
      counted.slow += 1;
      if (first) counted.slowFirst += 1;
    });
  });
}

/** The answers over SLOW_MS and over Kakao's limit (unanswered), and the busy answers, as a line. */
const countsLine = ({ result, slow, slowFirst, unansweredFirst, busy }: Run) =>
  `    over ${SLOW_MS / 1000} s: ${slow} (first answers on a new connection: ${slowFirst}); ` +
  `over ${KAKAO_TIMEOUT_SEC} s (unanswered): ${result.timeouts} (first requests on a new connection: ${unansweredFirst}); ` +
  `busy answers: ${busy} of ${result.requests.total}`;

/** `paced`'s figures as a line, as latencyLine gives autocannon's, with the busy answers. */
const pacedLine = (label: string, { latencies, unanswered, non2xx, busy }: Paced, seconds: number) =>
  `  ${label}: p50 ${quantile(latencies, 0.5)} ms, p90 ${quantile(latencies, 0.9)} ms, ` +
  `p99 ${quantile(latencies, 0.99)} ms, max ${quantile(latencies, 1)} ms; ` +
  `${(latencies.length / seconds).toFixed(0)} req/s (total ${latencies.length}); non-2xx ${non2xx}, ` +
  `unanswered after ${KAKAO_TIMEOUT_SEC} s ${unanswered}; busy answers ${busy}`;

/** The served server's metrics port (docs/deploy.md §Metrics). */
const METRICS_PORT = 9471;

/**
 * The server's event loop delay since the last call, in whole ms: prom-client's
 * nodejs_eventloop_lag_p99_seconds and _max_seconds (which a scrape resets), less the histogram's
 * timer interval (EVENT_LOOP_RESOLUTION_MS: an idle loop reads that much).
 */
async function eventLoopDelay(): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
  const ms = (name: string) =>
    Math.round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) * 1000 - EVENT_LOOP_RESOLUTION_MS);
  return { p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
}

/**
 * This process's own event loop delay (the measuring side): while it lags, the latencies it
 * measures grow with it. `read` gives its p99 and max since `start` (whole ms, less the timer
 * interval, as eventLoopDelay).
 */
function ownEventLoopDelay(): { read(): { p99: number; max: number } } {
  const histogram = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e6 - EVENT_LOOP_RESOLUTION_MS);
  return {
    read() {
      histogram.disable();
      return { p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    },
  };
}

/** `poisson`'s figures of one target as a line. */
const arrivalsLine = (label: string, { latencies, errors, busy }: Arrivals) =>
  `  ${label}: p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms, ` +
  `max ${quantile(latencies, 1)} ms, over 1 s ${latencies.filter((ms) => ms > 1000).length}; ` +
  `answered ${latencies.length}, errors ${errors}, busy answers ${busy}`;

/** The machine's load average over 1, 5 and 15 minutes, as a phrase. */
const loadLine = () =>
  `load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(', ')}`;

const served = await serveForMeasure({
  port: 3300,
  // The build, as `npm start` runs it (no tsx loader in the process or its worker threads).
  command: ['node', 'build/server.js'],
  dataDir,
  path: '/bus/time-left',
  env: {
    KAKAO_SKILL_SECRET: secret,
    PUBLIC_BASE_URL: 'https://bus.example',
    METRICS_PORT: String(METRICS_PORT),
  },
});
const skillRequest = {
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', [SKILL_SECRET_HEADER]: secret },
  body,
};
try {
  const check = await fetch(`${served.url}/api/kakao/skill`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SKILL_SECRET_HEADER]: secret },
    body,
  });
  const answer = await check.text();
  if (check.status !== 200 || !answer.includes('"basicCard"')) {
    throw new Error(`the skill answered ${check.status} without an ad card: ${answer}`);
  }
  // During start-up: from 2 s after the first page (serveForMeasure's first 200, which begins the
  // history's work: api/runtime.ts), Poisson arrivals to the skill and to the home at once.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  /** The start-up and steady runs' targets: the skill and the home, at once. */
  const startupTargets = [
    { url: `${served.url}/api/kakao/skill`, request: skillRequest },
    // As a phone's browser asks: the page compressed (it is compressed once a second: ADR 023).
    { url: `${served.url}/`, request: { method: 'GET' as const, headers: { 'accept-encoding': PHONE_ENCODINGS } } },
  ];
  await eventLoopDelay(); // the server's histogram from here on
  let own = ownEventLoopDelay();
  const starting = await poisson(startupTargets, STARTUP_RATE, STARTUP_SECONDS);
  const startingDelay = { server: await eventLoopDelay(), own: own.read() };
  await startupSettled(served);
  await eventLoopDelay();
  own = ownEventLoopDelay();
  const steady = await poisson(startupTargets, STARTUP_RATE, STARTUP_SECONDS);
  const steadyDelay = { server: await eventLoopDelay(), own: own.read() };
  console.log(
    `Poisson arrivals at ${STARTUP_RATE} requests/s each to the skill and to GET /, ${STARTUP_SECONDS} s ` +
      `(at most ${P99_TARGET_MS} ms p99 and nothing over 1 s during start-up: docs/architecture.md §Work off the serving thread)`,
  );
  for (const [label, [skillArrivals, homeArrivals], delay] of [
    ['during start-up (from 2 s after the first page, fresh data dir)', starting, startingDelay],
    ['steady (start-up work done)', steady, steadyDelay],
  ] as const) {
    console.log(label);
    console.log(arrivalsLine('POST /api/kakao/skill', skillArrivals));
    console.log(arrivalsLine('GET /', homeArrivals));
    console.log(
      `  event loop delay over the run: the server's p99 ${delay.server.p99} ms, max ${delay.server.max} ms ` +
        `(at most ${LOOP_P99_TARGET_MS} ms p99 during start-up); ` +
        `the measuring process's p99 ${delay.own.p99} ms, max ${delay.own.max} ms`,
    );
  }

  // Three loads, each on the baseline and then the skill: every connection sending again as soon as
  // it is answered (the server saturated, so latency is mostly queueing); the same connections each
  // asking once a second (below capacity: latency is the answer's own time plus little queueing);
  // one connection (the answer's own time).
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
  console.log(
    `loopback, this machine (${loadLine()}), ${duration} s per run; timeout ${KAKAO_TIMEOUT_SEC} s (Kakao's limit)`,
  );
  const saturation: Run[] = [];
  for (const [title, options] of [
    [`${connections} connections, each sending again as soon as answered (autocannon)`, { connections }],
    ['1 connection (autocannon)', { connections: 1 }],
  ] as const) {
    const common = { ...options, duration, timeout: KAKAO_TIMEOUT_SEC };
    const baseline = await run({ url: `${served.url}/bus/time-left`, ...common, requests: [{ method: 'GET' }] });
    const skill = await run({ url: `${served.url}/api/kakao/skill`, ...common, requests: [skillRequest] });
    saturation.push(skill);
    console.log(title);
    console.log(latencyLine('GET /bus/time-left (baseline)', baseline.result));
    console.log(countsLine(baseline));
    console.log(latencyLine('POST /api/kakao/skill', skill.result));
    console.log(countsLine(skill));
    console.log(
      `  skill / baseline: p50 ×${ratio(skill.result.latency.p50, baseline.result.latency.p50)}, ` +
        `p99 ×${ratio(skill.result.latency.p99, baseline.result.latency.p99)}, ` +
        `req/s ×${ratio(skill.result.requests.average, baseline.result.requests.average)}`,
    );
  }

  const baseline = await paced(`${served.url}/bus/time-left`, { method: 'GET' }, connections, duration);
  const skill = await paced(`${served.url}/api/kakao/skill`, skillRequest, connections, duration);
  console.log(`${connections} connections, each asking once a second, spread over the second`);
  console.log(pacedLine('GET /bus/time-left (baseline)', baseline, duration - 1));
  console.log(pacedLine('POST /api/kakao/skill', skill, duration - 1));
  console.log(
    `  skill / baseline: p50 ×${ratio(quantile(skill.latencies, 0.5), quantile(baseline.latencies, 0.5))}, ` +
      `p99 ×${ratio(quantile(skill.latencies, 0.99), quantile(baseline.latencies, 0.99))}`,
  );

  const [saturated] = saturation;
  const p99 = quantile(skill.latencies, 0.99);
  console.log('The skill against ADR 024 (this run):');
  console.log(
    `  p99 at ${connections} requests/s: ${p99} ms (at most ${P99_TARGET_MS} ms: ${p99 <= P99_TARGET_MS ? 'held' : 'NOT held'})`,
  );
  const late = saturated.slow + saturated.result.timeouts;
  const lateOnOpen = late - saturated.slowFirst - saturated.unansweredFirst;
  console.log(
    `  saturated: slowest answer ${saturated.result.latency.max} ms; over ${SLOW_MS / 1000} s: ${saturated.slow}; ` +
      `over ${KAKAO_TIMEOUT_SEC} s (unanswered): ${saturated.result.timeouts}; ` +
      `busy answers: ${saturated.busy} of ${saturated.result.requests.total}`,
  );
  console.log(
    `    of those over ${SLOW_MS / 1000} s or unanswered, on a connection already answered once: ${lateOnOpen} ` +
      `(none: ${lateOnOpen === 0 ? 'held' : 'NOT held'}); the first request of a new connection: ` +
      `${late - lateOnOpen} (a saturated server accepts new connections slowly: ADR 024)`,
  );
  console.log(`  ${loadLine()} at the end`);
} finally {
  await served.stop();
}
