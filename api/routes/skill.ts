/**
 * The KakaoTalk chatbot's skill (docs/product.md §11): POST /skill, called by Kakao i Open Builder with its
 * SkillPayload, answered with a version 2.0 SkillResponse from memory (the feed's state, today's
 * predictions) plus the ad rotation's cached list, well inside Kakao's 5-second limit.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { MiddlewareHandler } from 'hono';
import { SKILL_SECRET_HEADER, SkillRequestSchema } from '../../contract/skill';
import type { ApiContext } from '../context';
import { intentOf } from '../skill/intent';
import { createSkillResponses } from '../skill/shared-responses';
import { consumeRateLimit, type ClientLimiter } from '../rate-limit';
import { secretCheck } from '../../lib/hash';
import { jsonBody } from '../validate';

/**
 * Admits only requests carrying `secret` in X-Kakao-Skill-Secret (compared in constant time). A
 * missing or wrong one spends a point of `failures` for the client's address and its network.
 * @throws HTTPException 503 while no secret is configured, 401 for a missing or wrong one, 429 once
 *   the client has sent too many of those (api/rate-limit.ts skillSecretFailures).
 */
function requireSkillSecret(secret: string | undefined, failures: ClientLimiter): MiddlewareHandler {
  const isSecret = secret ? secretCheck(secret) : null;
  return async (c, next) => {
    if (!isSecret) throw new HTTPException(503, { message: 'Kakao skill disabled: KAKAO_SKILL_SECRET is not set' });
    const given = c.req.header(SKILL_SECRET_HEADER);
    if (given !== undefined && isSecret(given)) return next();
    await consumeRateLimit(c, failures);
    throw new HTTPException(401, { message: 'Unauthorized' });
  };
}

/**
 * Mounts POST /skill; needs the live view (api/bus/live-view.ts), the chatbot ad rotation and
 * skillSecret. The skill response's JSON is shared by the requests asking the same within a second
 * (api/skill/shared-responses.ts, ADR 024). Refusals answer `{ message }`: 503 without a secret
 * configured, 401 for a wrong one (429 after 20 from one client in 15 minutes), 413 over 64 KB
 * (the api's cap of every body, api/app.ts), 400 for a body that is not JSON or not a SkillPayload.
 */
export function skillRoutes({ liveView, chatbotAds, skillSecret, rateLimiters }: ApiContext) {
  const skillResponses = createSkillResponses({ liveView, chatbotAds });
  return new Hono().post(
    '/skill',
    requireSkillSecret(skillSecret, rateLimiters.skillSecretFailures),
    jsonBody(SkillRequestSchema),
    async (c) => {
      const request = c.req.valid('json');
      const json = await skillResponses.jsonFor(intentOf(request.userRequest.utterance, request.action?.params));
      return c.body(json, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    },
  );
}
