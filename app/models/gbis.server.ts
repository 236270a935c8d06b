/**
 * The GBIS setup of the upstream api (docs/gbis.md §Setup page), for the admin page /admin-only/gbis:
 * one function per call, with the service token and the acting admin (api/routes/gbis-setup.ts).
 */
import type { AppLoadContext } from '@remix-run/node';
import {
  GbisDiscoverResponseSchema,
  GbisSetupSchema,
  type GbisConfig,
  type GbisDiscovery,
  type GbisSetup,
} from '../../contract/gbis';
import { adminHeaders } from '~/models/admin.server';
import { UpstreamError, upstreamJson } from '~/models/upstream.server';

/**
 * The setup page's notice on the demo feed, sent by its loader: it names the api's env variables,
 * which must stay out of the browser bundle (tests/client-bundle.test.ts).
 */
export const GBIS_NOT_IN_USE =
  '지금은 GBIS(경기도 버스정보)를 쓰지 않고 데모 시뮬레이터로 운영 중입니다. 실제 버스 정보를 쓰려면 api의 환경 ' +
  '변수 BUS_FEED=gbis와 GBIS_SERVICE_KEY를 설정하고 다시 시작해주세요.';

/** Discovery makes up to ~20 GBIS calls one after another, each cut after 10 s by the api. */
const DISCOVERY_TIMEOUT_MS = 120_000;

/** GET /api/admin/gbis: the ids in use and where they come from. @throws UpstreamError. */
export function getGbisSetup(context: AppLoadContext, actor: string): Promise<GbisSetup> {
  return upstreamJson(context, '/api/admin/gbis', GbisSetupSchema, { headers: adminHeaders(context, actor) });
}

/** Why a discovery did not run or failed: the api's own message (GBIS not in use, quota, GBIS's failure). */
export type DiscoveryRefusal = { refused: string };

/**
 * POST /api/admin/gbis/discover: runs discovery with the api's GBIS key, counted in today's quota.
 * @returns what it found with the calls spent, or the api's reason when it refused (4xx) or GBIS
 *   failed (502).
 * @throws UpstreamError when the api fails otherwise.
 */
export async function discoverGbis(
  context: AppLoadContext,
  actor: string,
): Promise<{ discovery: GbisDiscovery; callsSpent: number } | DiscoveryRefusal> {
  try {
    return await upstreamJson(context, '/api/admin/gbis/discover', GbisDiscoverResponseSchema, {
      method: 'POST',
      headers: adminHeaders(context, actor),
      timeoutMs: DISCOVERY_TIMEOUT_MS,
    });
  } catch (error) {
    const refused = error instanceof UpstreamError && error.status !== null && error.serverMessage;
    if (refused && ((error.status! >= 400 && error.status! < 500) || error.status === 502)) return { refused };
    throw error;
  }
}

/** PUT /api/admin/gbis: saves the setup (audited); the poller uses it from its next poll. @throws UpstreamError. */
export function saveGbisSetup(context: AppLoadContext, actor: string, config: GbisConfig): Promise<GbisSetup> {
  return upstreamJson(context, '/api/admin/gbis', GbisSetupSchema, {
    method: 'PUT',
    headers: adminHeaders(context, actor),
    json: config,
  });
}
