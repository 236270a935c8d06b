/** The KakaoTalk chatbot skill of the upstream api (ADR 011, ADR 024), one function per call. */
import { z } from 'zod';
import { SKILL_SECRET_HEADER, SkillResponseSchema } from '../../contract/skill';
import { upstreamJson, type UpstreamContext } from '~/models/upstream.server';

/**
 * How many skill responses found valid are remembered. The api shares its skill responses (one per
 * question and ad card each second, ADR 024), so a handful are in use at a time.
 */
const CHECKED_MAX = 256;
const checked = new Set<string>();

/**
 * The api's skill response as JSON, checked against SkillResponseSchema once per distinct one: the
 * same JSON is the same skill response, already found valid (and relayed without parsing it again).
 */
const SkillResponseJsonSchema = z.unknown().transform((skillResponse, ctx) => {
  const json = JSON.stringify(skillResponse);
  if (checked.has(json)) return json;
  if (!SkillResponseSchema.safeParse(skillResponse).success) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'not a version 2.0 SkillResponse' });
    return z.NEVER;
  }
  if (checked.size >= CHECKED_MAX) checked.clear();
  checked.add(json);
  return json;
});

/**
 * POST /api/kakao/skill: relays a Kakao i Open Builder skill request to the api as received (the raw
 * JSON body and the caller's secret header; the api authenticates and validates). The skill's fast path
 * (app/server/skill.server.ts) bounds how many are under way.
 * @returns the api's v2.0 skill response as JSON, checked with the contract.
 * @throws UpstreamError with the api's status and message for its refusals (401, 400, 413, 503…),
 *   or with status null when it is unreachable or times out (5000 ms).
 */
export async function relaySkillRequest(
  context: UpstreamContext,
  body: Uint8Array<ArrayBuffer>,
  secret: string | null,
): Promise<string> {
  const headers = secret === null ? undefined : { [SKILL_SECRET_HEADER]: secret };
  return upstreamJson(context, '/api/kakao/skill', SkillResponseJsonSchema, {
    method: 'POST',
    headers,
    body,
    known: (json) => (checked.has(json) ? json : undefined),
  });
}
