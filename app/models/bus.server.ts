/** Bus operations of the upstream api (spec §7), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { TimeLeftResponseSchema, type TimeLeftResponse } from '../../contract/bus';
import { upstreamJson } from '~/utils/upstream.server';

/**
 * GET /api/bus/timeLeft: up arrivals, down predictions, vehicles on the progress line and feed freshness.
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export function getTimeLeft(context: AppLoadContext): Promise<TimeLeftResponse> {
  return upstreamJson(context, '/api/bus/timeLeft', TimeLeftResponseSchema);
}
