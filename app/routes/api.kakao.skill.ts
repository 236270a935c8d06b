/**
 * POST /api/kakao/skill on the web (ADR 011): the KakaoTalk chatbot's skill URL. Kakao i
 * Open Builder calls it from the internet; the web relays it to the api at the same path. A body over
 * 64 KB never gets here (server.ts answers 413, app/utils/body-limit.server.ts); everything else
 * (the shared secret, the JSON, the answer) is the api's, except the busy answer the relay gives at
 * once past its bound (ADR 024). Any other method answers 405.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node';
import { SKILL_SECRET_HEADER } from '../../contract/kakao';
import { relaySkillRequest } from '~/models/kakao.server';
import { UpstreamError } from '~/utils/upstream.server';

const NO_STORE = { 'Cache-Control': 'no-store' };
/** The headers of an answer: JSON, as Remix's json() sends it, never stored. */
const ANSWER_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE };

export async function loader() {
  return json({ message: 'Method not allowed' }, { status: 405, headers: { ...NO_STORE, Allow: 'POST' } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return loader();
  // server.ts has capped it at SKILL_MAX_BODY_BYTES (app/utils/body-limit.server.ts).
  const body = new Uint8Array(await request.arrayBuffer());
  try {
    // The relay answers JSON (checked with the contract once per distinct answer): sent as it is.
    return new Response(await relaySkillRequest(context, body, request.headers.get(SKILL_SECRET_HEADER)), {
      headers: ANSWER_HEADERS,
    });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    // The api's refusals (401, 400, 413, 503) reach Kakao as they are; an unreachable api is a 502.
    if (error.status !== null && error.status !== 200) {
      return json(
        { message: error.serverMessage ?? `HTTP ${error.status}` },
        { status: error.status, headers: NO_STORE },
      );
    }
    console.error('[kakao] skill relay failed:', error.message);
    return json({ message: 'The skill is unavailable right now' }, { status: 502, headers: NO_STORE });
  }
}
