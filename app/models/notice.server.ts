/**
 * The service notice on the upstream api (docs/product.md §1, §4), one function per call: the
 * public one the home shows, and the admins' reading and saving of it.
 */
import type { AppLoadContext } from '@remix-run/node';
import { AdminNoticeSchema, ServiceNoticeSchema, type AdminNotice, type PublicNotice } from '../../contract/admin';
import { adminHeaders } from '~/models/admin.server';
import { upstreamJson } from '~/models/upstream.server';

/**
 * GET /api/notice: the home screen's blocking service-suspension notice, set by the admins at
 * /admin-only/notice.
 * @returns its title and text (and their English, if any) when it is on; null when it is off.
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export async function getActiveNotice(context: AppLoadContext): Promise<PublicNotice | null> {
  const { enabled, ...notice } = await upstreamJson(context, '/api/notice', ServiceNoticeSchema);
  return enabled ? notice : null;
}

/** GET /api/admin/notice (docs/product.md §1, §4): the notice with its version. @throws UpstreamError. */
export function getServiceNotice(context: AppLoadContext, actor: string): Promise<AdminNotice> {
  return upstreamJson(context, '/api/admin/notice', AdminNoticeSchema, { headers: adminHeaders(context, actor) });
}

/**
 * PUT /api/admin/notice: saves the notice made on `notice.version` (audited).
 * @throws UpstreamError: status 409 when another admin saved since that version (nothing saved).
 */
export function saveServiceNotice(context: AppLoadContext, actor: string, notice: AdminNotice): Promise<AdminNotice> {
  return upstreamJson(context, '/api/admin/notice', AdminNoticeSchema, {
    method: 'PUT',
    headers: adminHeaders(context, actor),
    json: notice,
  });
}
