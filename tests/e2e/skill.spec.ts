/**
 * The KakaoTalk skill as Kakao i Open Builder reaches it (ADR 011): POST /api/kakao/skill on
 * the built web, relayed to the in-process api. The README's example request is answered with a
 * valid v2.0 response; a wrong secret, bad JSON, an oversized body and other methods are refused
 * cleanly, with a JSON message and no data.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './test';
import { SKILL_SECRET_HEADER, SkillResponseSchema } from '../../contract/skill';
import { E2E_KAKAO_SKILL_SECRET } from './ads-deployment';

const example = JSON.parse(readFileSync(new URL('../fixtures/skill/request.json', import.meta.url), 'utf8'));

test('the skill answers the README example with a valid v2.0 response', async ({ request }) => {
  const response = await request.post('/api/kakao/skill', {
    headers: { [SKILL_SECRET_HEADER]: E2E_KAKAO_SKILL_SECRET },
    data: example,
  });
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  const answer = SkillResponseSchema.parse(await response.json());
  expect(answer.version).toBe('2.0');
  // At the e2e clock (Monday 08:00 KST, demo feed) the up answer lists every route.
  const [first] = answer.template.outputs;
  const text = 'simpleText' in first ? first.simpleText.text : '';
  expect(text).toContain('학교 가는 버스 · ');
  for (const routeNo of ['1150', '1117', '1303', '1005']) expect(text).toMatch(new RegExp(`^${routeNo}번 `, 'm'));
  expect(answer.template.quickReplies?.map((reply) => reply.label)).toContain('나가는 버스');
});

test('a wrong or missing secret, bad JSON, a body over 64 KB and a GET are refused with a JSON message', async ({
  request,
}) => {
  const post = (headers: Record<string, string>, data: string) =>
    request.post('/api/kakao/skill', { headers: { 'content-type': 'application/json', ...headers }, data });
  const good = { [SKILL_SECRET_HEADER]: E2E_KAKAO_SKILL_SECRET };
  const cases = [
    { name: 'no secret', response: await post({}, JSON.stringify(example)), status: 401 },
    {
      name: 'wrong secret',
      response: await post({ [SKILL_SECRET_HEADER]: `${E2E_KAKAO_SKILL_SECRET}x` }, JSON.stringify(example)),
      status: 401,
    },
    { name: 'bad JSON', response: await post(good, '{"userRequest": '), status: 400 },
    { name: 'over 64 KB', response: await post(good, JSON.stringify({ pad: 'x'.repeat(70_000) })), status: 413 },
    { name: 'GET', response: await request.get('/api/kakao/skill'), status: 405 },
  ];
  for (const { name, response, status } of cases) {
    expect(response.status(), name).toBe(status);
    const body = await response.json();
    expect(Object.keys(body), name).toEqual(['message']);
  }
});
