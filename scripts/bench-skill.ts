/**
 * `npm run bench:skill [-- --connections 200 --seconds 20]`: load-tests the KakaoTalk skill
 * (POST /api/kakao/skill) of the built app with autocannon from this process while
 * server.ts runs in its own (embedded defaults, demo feed), and prints p50/p90/p99 latency and
 * requests/s under three loads: N connections saturating the server, N connections asking once a
 * second each, and one connection. The body is the README's example request (tests/fixtures/kakao/request.json), sent
 * with the skill secret. The baseline, measured in the same run at the same concurrency, is the
 * phones' refresh route GET /bus/time-left (memory only, like the skill; it sends
 * stored bytes ahead of express); the skill's figures
 * are also given as multiples of it. Three in-period kakao ads are stored first, so every answer carries
 * an ad card and counts its impression, as in production. Needs `npm run build` first. Loopback only.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { SKILL_SECRET_HEADER } from '../contract/kakao';
import { openDatabase } from '../api/db/client';
import { ads } from '../api/db/schema';
import { latencyLine, loadOptions, measureDataDir, serveForMeasure } from './serve-for-measure';

const { connections, duration } = loadOptions('Usage: npm run bench:skill -- [--connections 200] [--seconds 20]', {
  connections: 200,
  seconds: 20,
});
const secret = 'bench-kakao-skill-secret-0123456789abcdef';
/** Kakao i Open Builder waits 5 s for a skill's answer; a request unanswered by then counts as a timeout. */
const KAKAO_TIMEOUT_SEC = 5;
const body = readFileSync(new URL('../tests/fixtures/kakao/request.json', import.meta.url), 'utf8');

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

const served = await serveForMeasure({
  port: 3300,
  dataDir,
  path: '/bus/time-left',
  env: { KAKAO_SKILL_SECRET: secret, PUBLIC_BASE_URL: 'https://bus.example' },
});
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

  // Three loads, each on the baseline and then the skill: every connection sending again as soon as
  // it is answered (the server saturated, so latency is mostly queueing); the same connections each
  // asking once a second (below capacity: latency is the answer's own time plus little queueing);
  // one connection (the answer's own time).
  const loads = [
    { title: `${connections} connections, each sending again as soon as answered`, options: { connections } },
    {
      title: `${connections} connections, each asking once a second`,
      options: { connections, overallRate: connections },
    },
    { title: '1 connection', options: { connections: 1 } },
  ];
  const skillRequest = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', [SKILL_SECRET_HEADER]: secret },
    body,
  };
  console.log(
    `autocannon, loopback, this machine, ${duration} s per run; timeout ${KAKAO_TIMEOUT_SEC} s (Kakao's limit)`,
  );
  for (const { title, options } of loads) {
    const common = { ...options, duration, timeout: KAKAO_TIMEOUT_SEC };
    const baseline = await autocannon({ url: `${served.url}/bus/time-left`, ...common });
    const skill = await autocannon({ url: `${served.url}/api/kakao/skill`, ...skillRequest, ...common });
    console.log(title);
    console.log(latencyLine('GET /bus/time-left (baseline)', baseline));
    console.log(latencyLine('POST /api/kakao/skill', skill));
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
    console.log(
      `  skill / baseline: p50 ×${ratio(skill.latency.p50, baseline.latency.p50)}, ` +
        `p99 ×${ratio(skill.latency.p99, baseline.latency.p99)}, ` +
        `req/s ×${ratio(skill.requests.average, baseline.requests.average)}`,
    );
  }
} finally {
  await served.stop();
}
