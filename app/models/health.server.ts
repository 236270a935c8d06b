/** The api's probes, which the web's own relay (app/server/probes.server.ts; docs/deploy.md). */
import { HealthResponseSchema, type HealthResponse } from '../../contract/bus';
import { UpstreamError, upstreamFetch, type UpstreamContext } from '~/models/upstream.server';

/**
 * GET `path`: the api's liveness (/api/healthz) or readiness (/api/readyz) report, with the HTTP
 * status it came with and whether that is a 2xx (a 503 from an api that is not ready, or still
 * opening its database, is a report too).
 * @throws UpstreamError when the api does not answer, or answers off-contract.
 */
export async function getApiHealth(
  context: UpstreamContext,
  path: '/api/healthz' | '/api/readyz',
): Promise<{ ok: boolean; status: number; health: HealthResponse }> {
  const response = await upstreamFetch(context, path);
  const parsed = HealthResponseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new UpstreamError(`${path} answered ${response.status} off-contract`, response.status);
  return { ok: response.ok, status: response.status, health: parsed.data };
}
