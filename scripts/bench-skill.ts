/**
 * `npm run bench:skill [-- --connections 200 --seconds 20]`: load-tests the KakaoTalk skill
 * (POST /api/kakao/skill, issue 9) of the built app with autocannon from this process while
 * server.ts runs in its own (embedded defaults, demo feed), and prints p50/p90/p99 latency and
 * requests/s. The body is the README's example request (tests/fixtures/kakao/request.json), sent
 * with the skill secret. The baseline, measured in the same run at the same concurrency, is the
 * phones' refresh route GET /bus/time-left (memory only, like the skill); the skill's figures are
 * also given as multiples of it. Needs `npm run build` first. Loopback only.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { SKILL_SECRET_HEADER } from '../contract/kakao';
import { latencyLine, loadOptions, serveForMeasure } from './serve-for-measure';

const { connections, duration } = loadOptions({ connections: 200, seconds: 20 });
const secret = 'bench-kakao-skill-secret-0123456789abcdef';
const body = readFileSync(new URL('../tests/fixtures/kakao/request.json', import.meta.url), 'utf8');

const served = await serveForMeasure({
  port: 3300,
  path: '/bus/time-left',
  env: { KAKAO_SKILL_SECRET: secret, PUBLIC_BASE_URL: 'https://bus.example' },
});
try {
  const check = await fetch(`${served.url}/api/kakao/skill`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SKILL_SECRET_HEADER]: secret },
    body,
  });
  if (check.status !== 200) throw new Error(`the skill answered ${check.status}: ${await check.text()}`);

  const baseline = await autocannon({ url: `${served.url}/bus/time-left`, connections, duration });
  const skill = await autocannon({
    url: `${served.url}/api/kakao/skill`,
    method: 'POST',
    headers: { 'content-type': 'application/json', [SKILL_SECRET_HEADER]: secret },
    body,
    connections,
    duration,
  });
  console.log(`${connections} concurrent connections, ${duration} s each (autocannon, loopback, this machine)`);
  console.log(latencyLine('GET /bus/time-left (baseline)', baseline));
  console.log(latencyLine('POST /api/kakao/skill', skill));
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
  console.log(
    `  skill / baseline: p50 ×${ratio(skill.latency.p50, baseline.latency.p50)}, ` +
      `p99 ×${ratio(skill.latency.p99, baseline.latency.p99)}`,
  );
} finally {
  await served.stop();
}
