/**
 * POST /api/kakao/skill on the web (ADR 011) against an msw stand-in for the api: the relay sends
 * the body as received and the caller's X-Kakao-Skill-Secret, nothing of Kakao's own headers; it
 * passes the api's refusals through and refuses an oversized body itself.
 */
import { http, HttpResponse } from 'msw';
import { readFileSync } from 'node:fs';
import { SKILL_SECRET_HEADER } from '../../contract/kakao';
import { action, loader } from '~/routes/api.kakao.skill';
import { API_BASE_URL, apiContext, setupApiServer } from '../../tests/mocks/api';

const server = setupApiServer();
const example = readFileSync(new URL('../../tests/fixtures/kakao/request.json', import.meta.url), 'utf8');
const answer = JSON.parse(readFileSync(new URL('../../tests/fixtures/kakao/response.json', import.meta.url), 'utf8'));

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

  it('answers 405 to another method', async () => {
    const response = await loader();
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });
});
