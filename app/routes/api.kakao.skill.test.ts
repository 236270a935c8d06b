/**
 * POST /api/kakao/skill on the web (ADR 011) against an msw stand-in for the api: the relay sends
 * the body as received and the caller's X-Kakao-Skill-Secret, nothing of Kakao's own headers; it
 * passes the api's refusals through, and past its bound answers the busy answer at once (ADR 024).
 */
import { http, HttpResponse } from 'msw';
import { readFileSync } from 'node:fs';
import { SKILL_SECRET_HEADER, SkillResponseSchema, type SkillResponse } from '../../contract/kakao';
import { SKILL_REQUESTS_MAX } from '~/models/kakao.server';
import { action, loader } from '~/routes/api.kakao.skill';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';

const server = setupApiServer();
const example = readFileSync(new URL('../../tests/fixtures/kakao/request.json', import.meta.url), 'utf8');
const answer: SkillResponse = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/kakao/response.json', import.meta.url), 'utf8'),
);
/** The fixture's answer saying `text` instead: an answer the relay has not seen yet. */
const answerSaying = (text: string): SkillResponse => {
  const other = structuredClone(answer);
  other.template.outputs[0] = { simpleText: { text } };
  return other;
};

/** The api answering the skill with `reply`, recording the requests it received. */
function skillHandler(reply: () => Response) {
  const received: { body: string; secret: string | null; cookie: string | null; kakaoHeader: string | null }[] = [];
  server.use(
    http.post(`${API_BASE_URL}/api/kakao/skill`, async ({ request }) => {
      received.push({
        body: await request.text(),
        secret: request.headers.get(SKILL_SECRET_HEADER),
        cookie: request.headers.get('Cookie'),
        kakaoHeader: request.headers.get('X-Request-Id'),
      });
      return reply();
    }),
  );
  return received;
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  action({
    request: new Request('http://web.test/api/kakao/skill', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
    context: apiContext(),
    params: {},
  });

describe('POST /api/kakao/skill (web relay)', () => {
  it('relays the body as received and the secret header only, and answers the api’s answer (no-store)', async () => {
    const received = skillHandler(() => HttpResponse.json(answer));
    const response = await post(example, {
      [SKILL_SECRET_HEADER]: 's'.repeat(40),
      Cookie: '__session=admin',
      'X-Request-Id': 'kakao-123',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual(answer);
    expect(received).toEqual([{ body: example, secret: 's'.repeat(40), cookie: null, kakaoHeader: null }]);
  });

  it.each([
    [401, 'Unauthorized'],
    [400, 'Invalid JSON body'],
    [503, 'Kakao skill disabled: KAKAO_SKILL_SECRET is not set'],
  ])('passes the api’s %i and its message through', async (status, message) => {
    skillHandler(() => HttpResponse.json({ message }, { status }));
    const response = await post(example);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ message });
  });

  it('answers 502 with a JSON message when the api answers off-contract', async () => {
    skillHandler(() => HttpResponse.json({ version: '2.0', template: { outputs: [] } }));
    const response = await post(example);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: 'The skill is unavailable right now' });
  });

  it('checks each distinct answer against the contract once, and an off-contract one every time', async () => {
    const check = vi.spyOn(SkillResponseSchema, 'safeParse');
    let reply = answerSaying('막차 · 첫 번째 답');
    skillHandler(() => HttpResponse.json(reply));
    for (let i = 0; i < 3; i += 1) expect(await (await post(example)).json()).toEqual(reply);
    expect(check).toHaveBeenCalledTimes(1);
    reply = answerSaying('막차 · 두 번째 답');
    for (let i = 0; i < 3; i += 1) expect(await (await post(example)).json()).toEqual(reply);
    expect(check).toHaveBeenCalledTimes(2);
    reply = { ...answerSaying('막차 · 세 번째 답'), version: '1.0' } as unknown as SkillResponse;
    for (let i = 0; i < 2; i += 1) expect((await post(example)).status).toBe(502);
    expect(check).toHaveBeenCalledTimes(4);
    check.mockRestore();
  });

  it('past SKILL_REQUESTS_MAX requests under way, answers the busy answer at once without relaying', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let everyoneHeld!: () => void;
    const held = new Promise<void>((resolve) => (everyoneHeld = resolve));
    let relayed = 0;
    server.use(
      http.post(`${API_BASE_URL}/api/kakao/skill`, async () => {
        relayed += 1;
        if (relayed === SKILL_REQUESTS_MAX) everyoneHeld();
        await gate;
        return HttpResponse.json(answer);
      }),
    );
    const taken = Array.from({ length: SKILL_REQUESTS_MAX }, () => post(example));
    await held;

    const busy = await post(example);
    expect(busy.status).toBe(200);
    expect(busy.headers.get('Cache-Control')).toBe('no-store');
    expect(busy.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(SkillResponseSchema.parse(await busy.json())).toEqual({
      version: '2.0',
      template: { outputs: [{ simpleText: { text: '잠시 후 다시 물어봐 주세요' } }] },
    });
    expect(relayed).toBe(SKILL_REQUESTS_MAX);

    release();
    for (const response of await Promise.all(taken)) expect(await response.json()).toEqual(answer);
    expect(await (await post(example)).json()).toEqual(answer);
    expect(relayed).toBe(SKILL_REQUESTS_MAX + 1);
  });

  it('answers 405 to another method', async () => {
    const response = await loader();
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });
});
