/** The KakaoTalk skill of the upstream api (issue 9; ADR 011), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { ApiErrorSchema } from '../../contract/bus';
import { SKILL_SECRET_HEADER, SkillResponseSchema, type SkillResponse } from '../../contract/kakao';
import { UpstreamError, upstreamFetch } from '~/utils/upstream.server';

/**
 * POST /api/kakao/skill: relays a Kakao i Open Builder skill request to the api as received (the raw
 * JSON body and the caller's secret header; the api authenticates and validates).
 * @returns the api's answer: 200 with the v2.0 response (parsed with the contract), or its refusal
 *   (401, 400, 413, 503…) with its message.
 * @throws UpstreamError when the api is unreachable, times out (5000 ms), or answers 200 off-contract.
 */
export async function relaySkillRequest(
  context: AppLoadContext,
  body: Uint8Array<ArrayBuffer>,
  secret: string | null,
): Promise<{ status: 200; answer: SkillResponse } | { status: number; message: string }> {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (secret !== null) headers.set(SKILL_SECRET_HEADER, secret);
  const response = await upstreamFetch(context, '/api/kakao/skill', { method: 'POST', headers, body });
  const json: unknown = await response.json().catch(() => undefined);
  if (response.status === 200) {
    const parsed = SkillResponseSchema.safeParse(json);
    if (!parsed.success) throw new UpstreamError('POST /api/kakao/skill: answer does not match the contract', 200);
    return { status: 200, answer: parsed.data };
  }
  return {
    status: response.status,
    message: ApiErrorSchema.safeParse(json).data?.message ?? `HTTP ${response.status}`,
  };
}
