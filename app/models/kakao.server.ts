/** The KakaoTalk chatbot skill of the upstream api (ADR 011), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { SKILL_SECRET_HEADER, SkillResponseSchema, type SkillResponse } from '../../contract/kakao';
import { upstreamJson } from '~/utils/upstream.server';

/**
 * POST /api/kakao/skill: relays a Kakao i Open Builder skill request to the api as received (the raw
 * JSON body and the caller's secret header; the api authenticates and validates).
 * @returns the api's v2.0 answer, parsed with the contract.
 * @throws UpstreamError with the api's status and message for its refusals (401, 400, 413, 503…),
 *   or with status null when it is unreachable or times out (5000 ms).
 */
export function relaySkillRequest(
  context: AppLoadContext,
  body: Uint8Array<ArrayBuffer>,
  secret: string | null,
): Promise<SkillResponse> {
  const headers = secret === null ? undefined : { [SKILL_SECRET_HEADER]: secret };
  return upstreamJson(context, '/api/kakao/skill', SkillResponseSchema, { method: 'POST', headers, body });
}
