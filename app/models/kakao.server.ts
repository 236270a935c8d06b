/** The KakaoTalk chatbot skill of the upstream api (ADR 011, ADR 024), one function per call. */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import { SKILL_BUSY_ANSWER, SKILL_SECRET_HEADER, SkillResponseSchema } from '../../contract/kakao';
import { upstreamJson } from '~/utils/upstream.server';

/**
 * Skill requests taken at once: admitted and not yet answered (waiting for their turn, or relayed
 * to the api). Past it a request gets the busy answer at once instead of waiting. Chosen by
 * measurement (ADR 024): saturated, the server answers a skill request in about 0.64 ms, so the
 * requests one round of the event loop admits are answered within about 0.65 s; a busy answer
 * costs nearly as much (the web's middleware and Remix, ~0.57 ms), so a lower bound would only
 * swap answers for busy answers.
 */
export const SKILL_REQUESTS_MAX = 1024;

/** The busy answer as sent (contract SKILL_BUSY_ANSWER). */
const BUSY_JSON = JSON.stringify(SKILL_BUSY_ANSWER);

/**
 * How many answers found valid are remembered. The api shares its answers (one per question and ad
 * card each second, ADR 024), so a handful are in use at a time.
 */
const CHECKED_MAX = 256;
const checked = new Set<string>();

/**
 * The api's answer as JSON, checked against SkillResponseSchema once per distinct answer: the same
 * JSON is the same answer, already found valid.
 */
const SkillAnswerJsonSchema = z.unknown().transform((answer, ctx) => {
  const json = JSON.stringify(answer);
  if (checked.has(json)) return json;
  if (!SkillResponseSchema.safeParse(answer).success) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'not a version 2.0 SkillResponse' });
    return z.NEVER;
  }
  if (checked.size >= CHECKED_MAX) checked.clear();
  checked.add(json);
  return json;
});

let taken = 0;

/**
 * POST /api/kakao/skill: relays a Kakao i Open Builder skill request to the api as received (the raw
 * JSON body and the caller's secret header; the api authenticates and validates). With
 * SKILL_REQUESTS_MAX requests taken already, answers the busy answer at once without relaying (so
 * whatever the secret: it carries no data).
 * @returns the api's v2.0 answer as JSON, checked with the contract, or the busy answer's.
 * @throws UpstreamError with the api's status and message for its refusals (401, 400, 413, 503…),
 *   or with status null when it is unreachable or times out (5000 ms).
 */
export async function relaySkillRequest(
  context: AppLoadContext,
  body: Uint8Array<ArrayBuffer>,
  secret: string | null,
): Promise<string> {
  if (taken >= SKILL_REQUESTS_MAX) return BUSY_JSON;
  taken += 1;
  try {
    // NOTE: the api in-process answers without ever yielding, so a request would be relayed whole
    // before the next one is read and `taken` would never pass 1. Taking a turn first, the
    // requests read in one round of the event loop are all counted, then relayed in order.
    await nextTurn();
    const headers = secret === null ? undefined : { [SKILL_SECRET_HEADER]: secret };
    return await upstreamJson(context, '/api/kakao/skill', SkillAnswerJsonSchema, { method: 'POST', headers, body });
  } finally {
    taken -= 1;
  }
}
