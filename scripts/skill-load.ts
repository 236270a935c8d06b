/**
 * The open-loop loads of `npm run bench:skill` (scripts/bench-skill.ts): connections each asking
 * once a second, spread over the second, and Poisson arrivals, each request timed from its sending
 * to its answer's end, unanswered after Kakao's limit.
 */
import { Agent, request as httpRequest } from 'node:http';
import { SKILL_BUSY_TEXT } from '../contract/skill';
import { Draws } from './history-generator';

/** Kakao i Open Builder waits 5 s for a skill's answer; a request unanswered by then counts as a timeout. */
export const KAKAO_TIMEOUT_SEC = 5;

/** What `paced` measured: the answers' latencies (ms, ascending), the unanswered requests and the busy answers. */
export type Paced = { latencies: number[]; unanswered: number; non2xx: number; busy: number };

/** A request of the loads: what to ask, and how. */
type LoadRequest = { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

/**
 * Asks `request` of `url` on `agent`: the answer's time from sending to its end (ms), its status
 * and whether it is the skill's busy answer; null when it fails or is unanswered after
 * KAKAO_TIMEOUT_SEC (dropped).
 */
function ask(
  url: string,
  request: LoadRequest,
  agent: Agent,
): Promise<{ ms: number; status: number; busy: boolean } | null> {
  return new Promise((resolve) => {
    const sentMs = performance.now();
    const sent = httpRequest(url, { method: request.method, headers: request.headers, agent }, (response) => {
      let answer = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
      response.on('end', () =>
        resolve({
          ms: performance.now() - sentMs,
          status: response.statusCode ?? 0,
          busy: answer.includes(SKILL_BUSY_TEXT),
        }),
      );
    });
    sent.setTimeout(KAKAO_TIMEOUT_SEC * 1000, () => sent.destroy(new Error('unanswered')));
    sent.on('error', () => resolve(null));
    sent.end(request.body);
  });
}

/**
 * `connections` keep-alive connections asking `request` of `url` once a second each for `seconds`,
 * connection k at k/connections of each second, as people asking on their own would. The first
 * second (the connections' set-up) is not counted. A request unanswered after KAKAO_TIMEOUT_SEC is
 * dropped and counted.
 * NOTE: autocannon's rate limit starts every connection's second at the same instant, so its "N
 * connections asking once a second" is a burst of N requests at once every second, whose p99 is
 * the time to answer N at once.
 */
export async function paced(url: string, request: LoadRequest, connections: number, seconds: number): Promise<Paced> {
  const measured: Paced = { latencies: [], unanswered: 0, non2xx: 0, busy: 0 };
  const startMs = performance.now() + 100;
  await Promise.all(
    Array.from({ length: connections }, async (_, k) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let second = 0; second < seconds; second += 1) {
        const atMs = startMs + second * 1000 + (k * 1000) / connections;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs - performance.now())));
        const answer = await ask(url, request, agent);
        if (second === 0) continue;
        if (answer === null) measured.unanswered += 1;
        else {
          measured.latencies.push(answer.ms);
          if (answer.status !== 200) measured.non2xx += 1;
          if (answer.busy) measured.busy += 1;
        }
      }
      agent.destroy();
    }),
  );
  measured.latencies.sort((a, b) => a - b);
  return measured;
}

/** What `poisson` measured of one request: latencies (ms, ascending), errors (no answer or a non-2xx). */
export type Arrivals = { latencies: number[]; errors: number; busy: number };

/**
 * Open-loop load: for `seconds`, each of `targets` gets requests at Poisson arrivals of `rate` per
 * second (exponential gaps from a fixed seed, so two runs send the same schedule), each on its own
 * keep-alive connection from a pool, whatever the earlier ones wait for (people do not wait for
 * each other). A request unanswered after KAKAO_TIMEOUT_SEC counts as an error.
 */
export async function poisson(
  targets: { url: string; request: LoadRequest }[],
  rate: number,
  seconds: number,
): Promise<Arrivals[]> {
  const draws = new Draws(20261123);
  const agent = new Agent({ keepAlive: true, maxSockets: 1_000 });
  const startMs = performance.now() + 100;
  const measured = targets.map((): Arrivals => ({ latencies: [], errors: 0, busy: 0 }));
  const sent: Promise<void>[] = [];
  const schedule = targets.flatMap((_, t) => {
    const times: { atMs: number; target: number }[] = [];
    for (let atMs = 0; ;) {
      atMs += (-Math.log(1 - draws.unit()) * 1000) / rate;
      if (atMs >= seconds * 1000) return times;
      times.push({ atMs, target: t });
    }
  });
  schedule.sort((a, b) => a.atMs - b.atMs);
  for (const { atMs, target } of schedule) {
    const waitMs = startMs + atMs - performance.now();
    if (waitMs > 1) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const { url, request } = targets[target];
    const into = measured[target];
    sent.push(
      ask(url, request, agent).then((answer) => {
        if (answer === null) return void (into.errors += 1);
        into.latencies.push(answer.ms);
        if (answer.status !== 200) into.errors += 1;
        if (answer.busy) into.busy += 1;
      }),
    );
  }
  await Promise.all(sent);
  agent.destroy();
  for (const { latencies } of measured) latencies.sort((a, b) => a - b);
  return measured;
}

/** The `q` quantile (0–1) of ascending `values`, in whole ms. */
export const quantile = (values: number[], q: number) =>
  Math.round(values[Math.min(values.length - 1, Math.floor(values.length * q))] ?? Number.NaN);
