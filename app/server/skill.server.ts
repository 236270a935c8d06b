/**
 * /api/kakao/skill on the web, the KakaoTalk chatbot's skill URL (ADR 011): Kakao i Open Builder
 * POSTs to it from the internet, and the web relays the request to the api at the same path
 * (app/models/skill.server.ts). It is a fast path, served ahead of express (ADR 024), as are the
 * refresh and the home page. Everything about the request (the shared secret, the JSON, the answer)
 * is the api's; the web adds:
 * - admission: the secret checked (constant time), then a place taken among the requests under
 *   way, both before the body is read. A request without the secret is answered 401 (503 while
 *   none is set) without taking a place or having its body read, so that only Kakao's calls can
 *   take the places; past SKILL_REQUESTS_MAX requests taken, the busy answer at once (HTTP 200,
 *   contract SKILL_BUSY_RESPONSE; it carries no data), so none waits anywhere uncounted;
 * - SKILL_BODY_MS for the body: Open Builder sends it at once and waits 5 s for the answer;
 * - turns: the requests taken are answered in order, SKILL_TURNS_PER_ROUND per round of the event
 *   loop, so that the loop keeps turning (and taking new connections) while many wait;
 * - the server's body rules (app/server/request-bodies.server.ts: the 64 KB cap with its JSON 413, the body budget);
 * - the api's refusals (401, 400, 413, 503…) passed on with their message, an api that does not
 *   answer (or answers off-contract) as 502;
 * - 405 with Allow: POST to any other method.
 * Every answer is JSON, never stored, with the edge's security headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SKILL_BUSY_RESPONSE, SKILL_SECRET_HEADER } from '../../contract/skill';
import { secretCheck } from '../../lib/hash';
import { relaySkillRequest } from '~/models/skill.server';
import { type ApiBinding, rethrowUnlessUpstream } from '~/models/upstream.server';
import type { UnreadAnswer } from '~/server/request-bodies.server';

export const SKILL_PATH = '/api/kakao/skill';

/**
 * Skill requests taken at once: admitted and not yet answered (waiting for their turn, their body
 * being read, or relayed to the api). Past it a request gets the busy answer at once instead of
 * waiting. Chosen by measurement (ADR 024): saturated, the server answers a skill request in about
 * 0.3 ms, so as many waiting are answered within about a third of a second; a lower bound would
 * only swap answers for busy answers.
 */
export const SKILL_REQUESTS_MAX = 1024;

/**
 * Requests whose turn comes in one round of the event loop, at most; the others wait for later
 * rounds. Node takes one new connection per round (ADR 024): answering everyone waiting in one
 * round made rounds of a tenth of a second and more when saturated, and a new connection waited
 * seconds to be taken. Four answers make a round of a millisecond or two; by measurement
 * (ADR 024), 8 and 16 let the slowest first answers grow, 2 took no less.
 */
export const SKILL_TURNS_PER_ROUND = 4;

/**
 * The most ms a skill request's body may take to arrive, from its turn: Open Builder sends its small
 * JSON with the headers and gives up on an answer after 5 s (docs/product.md §11).
 */
export const SKILL_BODY_MS = 5_000;

const JSON_TYPE = 'application/json; charset=utf-8';
/** The busy answer as sent. */
const BUSY_JSON = JSON.stringify(SKILL_BUSY_RESPONSE);
const UNAVAILABLE_JSON = JSON.stringify({ message: 'The skill is unavailable right now' });
const METHOD_NOT_ALLOWED_JSON = JSON.stringify({ message: 'Method not allowed' });
/** The api's own answers to a missing or wrong secret, and to none set (api/routes/skill.ts). */
const UNAUTHORIZED_JSON = JSON.stringify({ message: 'Unauthorized' });
const DISABLED_JSON = JSON.stringify({ message: 'Kakao skill disabled: KAKAO_SKILL_SECRET is not set' });

export type SkillFastPath = {
  /** Answers `req` (for SKILL_PATH: app/server/fast-paths.server.ts routes it here, any method); `clientIp` (the caller's address as express reads it) is passed on to the api. */
  serve(req: IncomingMessage, res: ServerResponse, clientIp: string | undefined): Promise<void>;
};

/**
 * @param api where the web reaches the api (in-process or over HTTP).
 * @param secret KAKAO_SKILL_SECRET; undefined: the skill answers 503.
 * @param headers added to every answer: the edge's security headers.
 * @param readBody the edge's reader of a request body: the body within its route's cap (counted
 *   against the server's budget of bodies) and `deadlineMs`, or undefined once it has answered
 *   instead (413, 503, 408, 400).
 * @param refuse the edge's answer without reading the body (it adds `headers`, Cache-Control:
 *   no-store, and drops what the client still sends).
 */
export function createSkillFastPath(options: {
  api: ApiBinding;
  secret: string | undefined;
  headers: Record<string, string>;
  readBody(req: IncomingMessage, res: ServerResponse, deadlineMs: number): Promise<Uint8Array<ArrayBuffer> | undefined>;
  refuse(req: IncomingMessage, res: ServerResponse, answer: UnreadAnswer): void;
}): SkillFastPath {
  const { api, secret, headers, readBody, refuse } = options;
  const isSecret = secret ? secretCheck(secret) : null;
  let taken = 0;
  /** The requests waiting for their turn, in order of arrival. */
  const waiting: (() => void)[] = [];
  let roundAhead = false;
  /** Gives the next SKILL_TURNS_PER_ROUND requests waiting their turn, and the next round's to those after them. */
  const round = () => {
    for (const start of waiting.splice(0, SKILL_TURNS_PER_ROUND)) start();
    roundAhead = waiting.length > 0;
    if (roundAhead) setImmediate(round);
  };
  /**
   * Resolves at the request's turn: in a later round of the event loop than the one that read it,
   * with at most SKILL_TURNS_PER_ROUND others.
   */
  const turn = () =>
    new Promise<void>((start) => {
      waiting.push(start);
      if (roundAhead) return;
      roundAhead = true;
      setImmediate(round);
    });
  const send = (res: ServerResponse, status: number, json: string) =>
    void res
      .writeHead(status, {
        ...headers,
        'content-type': JSON_TYPE,
        'cache-control': 'no-store',
        'content-length': String(Buffer.byteLength(json)),
      })
      .end(json);

  return {
    async serve(req, res, clientIp) {
      if (req.method !== 'POST') {
        return refuse(req, res, {
          status: 405,
          contentType: JSON_TYPE,
          body: METHOD_NOT_ALLOWED_JSON,
          headers: { Allow: 'POST' },
        });
      }
      if (!isSecret) return refuse(req, res, { status: 503, contentType: JSON_TYPE, body: DISABLED_JSON });
      const given = req.headers[SKILL_SECRET_HEADER.toLowerCase()];
      if (typeof given !== 'string' || !isSecret(given)) {
        return refuse(req, res, { status: 401, contentType: JSON_TYPE, body: UNAUTHORIZED_JSON });
      }
      if (taken >= SKILL_REQUESTS_MAX)
        return refuse(req, res, { status: 200, contentType: JSON_TYPE, body: BUSY_JSON });
      taken += 1;
      try {
        // NOTE: a request whose body came with its headers is read, and relayed to the in-process
        // api, without ever yielding to the event loop: without turns, the requests read in one
        // round would all be answered in it, and `taken` would never pass 1.
        await turn();
        const body = await readBody(req, res, SKILL_BODY_MS);
        if (body === undefined) return;
        // The relay answers JSON (checked with the contract once per distinct answer): sent as it is.
        send(res, 200, await relaySkillRequest({ api, clientIp }, body, given));
      } catch (error) {
        rethrowUnlessUpstream(error);
        // The api's refusals (401, 400, 413, 503) reach Kakao as they are; an unreachable api is a 502.
        if (error.status !== null && error.status !== 200) {
          return send(res, error.status, JSON.stringify({ message: error.serverMessage ?? `HTTP ${error.status}` }));
        }
        console.error('[skill] relay failed:', error.message);
        send(res, 502, UNAVAILABLE_JSON);
      } finally {
        taken -= 1;
      }
    },
  };
}
