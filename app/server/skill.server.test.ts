/**
 * The skill's fast path (ADR 011, ADR 024) behind a plain HTTP server, on a stand-in api: the relay sends
 * the body as received, the caller's X-Kakao-Skill-Secret and address, nothing of Kakao's own
 * headers; it passes the api's refusals through, gives requests their turn a few per round of the
 * event loop, and past its bound answers the busy answer at once; a request without the secret is
 * answered at admission, taking no place and having no body read. The edge's body rules (cap,
 * budget, deadline) are stood in for by reading the body whole; the built server's are
 * tests/skill.test.ts's.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SKILL_BUSY_RESPONSE,
  SKILL_SECRET_HEADER,
  SkillResponseSchema,
  type SkillResponse,
} from '../../contract/skill';
import { readBodyUpTo } from '../../lib/http-body';
import {
  createSkillFastPath,
  SKILL_BODY_MS,
  SKILL_PATH,
  SKILL_REQUESTS_MAX,
  SKILL_TURNS_PER_ROUND,
} from '~/server/skill.server';
import { isAt } from '~/server/request-path.server';

const example = readFileSync(new URL('../../tests/fixtures/skill/request.json', import.meta.url), 'utf8');
const answer: SkillResponse = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/skill/response.json', import.meta.url), 'utf8'),
);
const SECURITY = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'self'" };
const CALLER = '203.0.113.7';
const SECRET = 's'.repeat(40);

/** The fixture's answer saying `text` instead: an answer the relay has not seen yet. */
const answerSaying = (text: string): SkillResponse => {
  const other = structuredClone(answer);
  other.template.outputs[0] = { simpleText: { text } };
  return other;
};

type Received = {
  body: string;
  secret: string | null;
  forwardedFor: string | null;
  cookie: string | null;
  kakaoHeader: string | null;
};

/**
 * The skill behind a loopback server, on an api answering `reply()` and recording what it received;
 * `onTurn` is told when a request's turn comes (its body is read then, within the deadline given).
 * The skill's secret is SECRET unless `secret` says otherwise (null: none set), and `post` sends
 * SECRET unless told.
 */
async function setUp(
  reply: () => Response | Promise<Response>,
  onTurn: (deadlineMs: number) => void = () => {},
  secret: string | null = SECRET,
) {
  const received: Received[] = [];
  const skill = createSkillFastPath({
    api: {
      baseUrl: 'http://api.internal',
      fetch: async (request) => {
        expect(`${request.method} ${new URL(request.url).pathname}`).toBe('POST /api/kakao/skill');
        received.push({
          body: await request.text(),
          secret: request.headers.get(SKILL_SECRET_HEADER),
          forwardedFor: request.headers.get('X-Forwarded-For'),
          cookie: request.headers.get('Cookie'),
          kakaoHeader: request.headers.get('X-Request-Id'),
        });
        return reply();
      },
    },
    secret: secret ?? undefined,
    headers: SECURITY,
    readBody: async (req, _res, deadlineMs) => {
      onTurn(deadlineMs);
      return (await readBodyUpTo({ headers: new Headers(), body: req }, Infinity)) ?? undefined;
    },
    refuse: (_req, res, unread) =>
      void res
        .writeHead(unread.status, { ...SECURITY, 'content-type': unread.contentType, ...unread.headers })
        .end(unread.body),
  });
  const server: Server = createServer((req, res) => {
    if (isAt(req, SKILL_PATH)) void skill.serve(req, res, CALLER);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ask = (path = '/api/kakao/skill', init: RequestInit = {}) => fetch(url + path, init);
  const post = (headers: Record<string, string> = {}, body = example) =>
    ask('/api/kakao/skill', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SKILL_SECRET_HEADER]: SECRET, ...headers },
      body,
    });
  close = () => new Promise((resolve) => server.close(resolve));
  return { received, ask, post };
}

let close = async (): Promise<unknown> => undefined;
afterEach(() => close());

describe('the skill’s fast path', () => {
  it('relays the body as received, the secret and the caller’s address only, and answers the api’s answer', async () => {
    const skill = await setUp(() => Response.json(answer));
    const response = await skill.post({
      Cookie: '__session=admin',
      'X-Request-Id': 'kakao-123',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    for (const [name, value] of Object.entries(SECURITY)) expect(response.headers.get(name), name).toBe(value);
    const text = await response.text();
    expect(response.headers.get('Content-Length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual(answer);
    expect(skill.received).toEqual([
      { body: example, secret: SECRET, forwardedFor: CALLER, cookie: null, kakaoHeader: null },
    ]);
  });

  it.each([
    [401, 'Unauthorized'],
    [400, 'Invalid JSON body'],
    [413, 'Request body too large'],
    [503, 'Kakao skill disabled: KAKAO_SKILL_SECRET is not set'],
  ])('passes the api’s %i and its message through, never stored', async (status, message) => {
    const skill = await setUp(() => Response.json({ message }, { status }));
    const response = await skill.post();
    expect(response.status).toBe(status);
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({ message });
  });

  it('answers a missing or wrong secret 401 at admission: no place taken, no body read, nothing relayed', async () => {
    const turns: number[] = [];
    const skill = await setUp(
      () => Response.json(answer),
      (deadlineMs) => turns.push(deadlineMs),
    );
    for (const headers of [{ [SKILL_SECRET_HEADER]: '' }, { [SKILL_SECRET_HEADER]: `${SECRET}x` }]) {
      const response = await skill.post(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
    }
    expect(turns).toEqual([]);
    expect(skill.received).toEqual([]);
    expect((await skill.post()).status).toBe(200);
    expect(turns).toEqual([SKILL_BODY_MS]);
  });

  it('answers 503 at admission while no secret is set', async () => {
    const skill = await setUp(() => Response.json(answer), undefined, null);
    const response = await skill.post();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: 'Kakao skill disabled: KAKAO_SKILL_SECRET is not set' });
    expect(skill.received).toEqual([]);
  });

  it('answers 502 with a JSON message when the api answers off-contract or does not answer', async () => {
    const failed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const reply of [
      () => Response.json({ version: '2.0', template: { outputs: [] } }),
      () => Promise.reject(new Error('connect ECONNREFUSED')),
    ]) {
      const skill = await setUp(reply);
      const response = await skill.post();
      expect(response.status).toBe(502);
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(await response.json()).toEqual({ message: 'The skill is unavailable right now' });
      await close();
    }
    expect(failed).toHaveBeenCalledTimes(2);
    expect(failed.mock.calls[1].join(' ')).toContain('ECONNREFUSED');
  });

  it('checks each distinct answer against the contract once, and an off-contract one every time', async () => {
    const check = vi.spyOn(SkillResponseSchema, 'safeParse');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let reply = answerSaying('막차 · 첫 번째 답');
    const skill = await setUp(() => Response.json(reply));
    for (let i = 0; i < 3; i += 1) expect(await (await skill.post()).json()).toEqual(reply);
    expect(check).toHaveBeenCalledTimes(1);
    reply = answerSaying('막차 · 두 번째 답');
    for (let i = 0; i < 3; i += 1) expect(await (await skill.post()).json()).toEqual(reply);
    expect(check).toHaveBeenCalledTimes(2);
    reply = { ...answerSaying('막차 · 세 번째 답'), version: '1.0' } as unknown as SkillResponse;
    for (let i = 0; i < 2; i += 1) expect((await skill.post()).status).toBe(502);
    expect(check).toHaveBeenCalledTimes(4);
  });

  it('past SKILL_REQUESTS_MAX requests under way, answers the busy answer at once without relaying', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let everyoneHeld!: () => void;
    const held = new Promise<void>((resolve) => (everyoneHeld = resolve));
    const skill = await setUp(async () => {
      if (skill.received.length === SKILL_REQUESTS_MAX) everyoneHeld();
      await gate;
      return Response.json(answer);
    });
    const taken = Array.from({ length: SKILL_REQUESTS_MAX }, () => skill.post());
    await held;

    // Without the secret, no place is asked for: the skill's answer is the 401, not the busy one.
    expect((await skill.post({ [SKILL_SECRET_HEADER]: 'guess' })).status).toBe(401);
    const busy = await skill.post();
    expect(busy.status).toBe(200);
    expect(busy.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(SkillResponseSchema.parse(await busy.json())).toEqual(SKILL_BUSY_RESPONSE);
    expect(skill.received).toHaveLength(SKILL_REQUESTS_MAX);

    release();
    for (const response of await Promise.all(taken)) expect(await response.json()).toEqual(answer);
    expect(await (await skill.post()).json()).toEqual(answer);
    expect(skill.received).toHaveLength(SKILL_REQUESTS_MAX + 1);
  }, 30_000);

  it('gives at most SKILL_TURNS_PER_ROUND requests their turn in one round of the event loop', async () => {
    let round = 0;
    let ticking = true;
    const tick = () =>
      setImmediate(() => {
        round += 1;
        if (ticking) tick();
      });
    tick();
    const turns = new Map<number, number>();
    let counting = false;
    const skill = await setUp(
      () => Response.json(answer),
      () => counting && turns.set(round, (turns.get(round) ?? 0) + 1),
    );
    // 64 connections opened first (Node takes one per round), then a request on each at once.
    await Promise.all(Array.from({ length: 64 }, async () => (await skill.post()).arrayBuffer()));
    counting = true;
    const responses = await Promise.all(Array.from({ length: 64 }, () => skill.post()));
    ticking = false;
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    expect([...turns.values()].reduce((sum, count) => sum + count)).toBe(64);
    expect(Math.max(...turns.values())).toBe(SKILL_TURNS_PER_ROUND);
  });

  it('answers 405 with Allow: POST to any other method, without relaying', async () => {
    const skill = await setUp(() => Response.json(answer));
    for (const method of ['GET', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await skill.ask('/api/kakao/skill', { method, body: method === 'GET' ? undefined : example });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('Allow'), method).toBe('POST');
      expect(await response.json(), method).toEqual({ message: 'Method not allowed' });
    }
    expect(skill.received).toEqual([]);
  });
});
