/** The public service notice of the upstream api (docs/product.md §1, §4), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { ServiceNoticeSchema, type ServiceNotice } from '../../contract/admin';
import { upstreamJson } from '~/models/upstream.server';

/**
 * GET /api/notice: the home screen's blocking service-suspension notice, set by the admins at
 * /admin-only/notice.
 * @returns its title and text when it is on; null when it is off.
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export async function getActiveNotice(context: AppLoadContext): Promise<Omit<ServiceNotice, 'enabled'> | null> {
  const { enabled, title, text } = await upstreamJson(context, '/api/notice', ServiceNoticeSchema);
  return enabled ? { title, text } : null;
}
