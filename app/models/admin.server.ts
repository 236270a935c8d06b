/**
 * The admin operations of the upstream api (ours; ADR 008), one function per call. Every call
 * carries the service token, which only the web's server holds, and names the acting admin for
 * the api's audit log.
 */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import {
  ADMIN_USER_HEADER,
  AdminFeedStatusSchema,
  AdminSessionSchema,
  AuditListResponseSchema,
  BacktestReportSchema,
  ServiceNoticeSchema,
  type AdminFeedStatus,
  type AdminSession,
  type AuditEntry,
  type BacktestReport,
  type ServiceNotice,
} from '../../contract/admin';
import { InquiryListResponseSchema, type Inquiry } from '../../contract/inquiries';
import { orNullOn404, UpstreamError, upstreamJson } from '~/models/upstream.server';

/** The acting admin's username, or null before anyone signed in (login, setup). */
type Actor = string | null;

/**
 * The headers of an admin call: the service token, and the acting admin when there is one.
 * @throws UpstreamError (503) when the web was started without the admin binding.
 */
export function adminHeaders(context: AppLoadContext, actor: Actor): Record<string, string> {
  if (!context.admin) throw new UpstreamError('admin: no service token configured', 503);
  return {
    Authorization: `Bearer ${context.admin.serviceToken}`,
    ...(actor ? { [ADMIN_USER_HEADER]: actor } : {}),
  };
}

/** Too many requests from this client: wait `retryAfterSec` seconds (the api's Retry-After). */
export type RateLimited = { refused: 'rate-limited'; retryAfterSec: number };

/** Why a sign-in failed: wrong credentials, or too many failures (wait `retryAfterSec`). */
export type SignInRefusal = { refused: 'credentials' } | RateLimited;

/**
 * The api's 429 as a refusal, or null for any other error. Without a Retry-After the wait is the
 * 15 minutes the api's sign-in and setup limits count over (README "Sessions and sign-in limits").
 */
function rateLimitedBy(error: unknown): RateLimited | null {
  if (!(error instanceof UpstreamError) || error.status !== 429) return null;
  return { refused: 'rate-limited', retryAfterSec: error.retryAfterSec ?? 15 * 60 };
}

/**
 * POST /api/admin/login.
 * @returns the new session, or why not.
 * @throws UpstreamError when the api fails otherwise.
 */
export async function signIn(
  context: AppLoadContext,
  credentials: { username: string; password: string },
): Promise<AdminSession | SignInRefusal> {
  try {
    return await upstreamJson(context, '/api/admin/login', AdminSessionSchema, {
      method: 'POST',
      headers: adminHeaders(context, null),
      json: credentials,
    });
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 401) return { refused: 'credentials' };
    const limited = rateLimitedBy(error);
    if (limited) return limited;
    throw error;
  }
}

/**
 * GET /api/admin/session: the live session `sessionId`.
 * @returns null when it is unknown, expired or signed out (404).
 * @throws UpstreamError when the api fails.
 */
export async function findAdminSession(context: AppLoadContext, sessionId: string): Promise<AdminSession | null> {
  return orNullOn404(
    upstreamJson(context, '/api/admin/session', AdminSessionSchema, {
      headers: { ...adminHeaders(context, null), 'X-Admin-Session': sessionId },
    }),
  );
}

/** DELETE /api/admin/session: signs `sessionId` out. @throws UpstreamError when the api fails. */
export async function signOut(context: AppLoadContext, sessionId: string): Promise<void> {
  await upstreamJson(context, '/api/admin/session', z.unknown(), {
    method: 'DELETE',
    headers: { ...adminHeaders(context, null), 'X-Admin-Session': sessionId },
  });
}

/**
 * GET /api/admin/setup?token=: whether `token` is the live one-time setup token.
 * @returns true or false (404), or RateLimited when this client sent too many setup requests (429:
 *   the api limits them per address, GET and POST together).
 * @throws UpstreamError when the api fails otherwise.
 */
export async function isSetupOpen(context: AppLoadContext, token: string): Promise<boolean | RateLimited> {
  try {
    const open = upstreamJson(context, `/api/admin/setup?token=${encodeURIComponent(token)}`, z.unknown(), {
      headers: adminHeaders(context, null),
    }).then(() => true);
    return (await orNullOn404(open)) ?? false;
  } catch (error) {
    const limited = rateLimitedBy(error);
    if (limited) return limited;
    throw error;
  }
}

/**
 * POST /api/admin/setup: creates the first admin with the one-time token and signs them in.
 * @returns the session, null when the token is no longer valid (404), or RateLimited when this
 *   client sent too many setup requests (429).
 * @throws UpstreamError when the api fails otherwise.
 */
export async function completeSetup(
  context: AppLoadContext,
  request: { token: string; username: string; password: string },
): Promise<AdminSession | null | RateLimited> {
  try {
    return await orNullOn404(
      upstreamJson(context, '/api/admin/setup', AdminSessionSchema, {
        method: 'POST',
        headers: adminHeaders(context, null),
        json: request,
      }),
    );
  } catch (error) {
    const limited = rateLimitedBy(error);
    if (limited) return limited;
    throw error;
  }
}

/** GET /api/admin/notice (docs/product.md §1, §4). @throws UpstreamError. */
export function getServiceNotice(context: AppLoadContext, actor: string): Promise<ServiceNotice> {
  return upstreamJson(context, '/api/admin/notice', ServiceNoticeSchema, { headers: adminHeaders(context, actor) });
}

/** PUT /api/admin/notice: saves the notice (audited). @throws UpstreamError. */
export function saveServiceNotice(
  context: AppLoadContext,
  actor: string,
  notice: ServiceNotice,
): Promise<ServiceNotice> {
  return upstreamJson(context, '/api/admin/notice', ServiceNoticeSchema, {
    method: 'PUT',
    headers: adminHeaders(context, actor),
    json: notice,
  });
}

/** GET /api/admin/feed: the bus feed's health with today's upstream calls. @throws UpstreamError. */
export function getFeedStatus(context: AppLoadContext, actor: string): Promise<AdminFeedStatus> {
  return upstreamJson(context, '/api/admin/feed', AdminFeedStatusSchema, { headers: adminHeaders(context, actor) });
}

/** GET /api/admin/backtest?days=N: the prediction backtest (CPU-bound: up to a second). @throws UpstreamError. */
export function getBacktest(context: AppLoadContext, actor: string, days: number): Promise<BacktestReport> {
  return upstreamJson(context, `/api/admin/backtest?days=${days}`, BacktestReportSchema, {
    headers: adminHeaders(context, actor),
    timeoutMs: 15_000,
  });
}

/** GET /api/admin/inquiries: newest first. @throws UpstreamError. */
export async function listInquiries(context: AppLoadContext, actor: string): Promise<Inquiry[]> {
  const answer = await upstreamJson(context, '/api/admin/inquiries', InquiryListResponseSchema, {
    headers: adminHeaders(context, actor),
  });
  return answer.data;
}

/**
 * DELETE /api/admin/inquiries/{id}: deletes one inquiry on its sender's request (the privacy
 * policy's 제7조); the api audits it.
 * @returns false when there is no such inquiry (404: deleted already).
 * @throws UpstreamError when the api fails otherwise.
 */
export function deleteInquiry(context: AppLoadContext, actor: string, id: number): Promise<boolean> {
  return adminDelete(context, actor, `/api/admin/inquiries/${id}`);
}

/**
 * DELETE `path` on the admin api as `actor` (the erasures on request, privacy policy 제7조).
 * @returns true when deleted, false when there was nothing to delete (404).
 * @throws UpstreamError when the api fails otherwise.
 */
export async function adminDelete(context: AppLoadContext, actor: string, path: string): Promise<boolean> {
  const deleted = upstreamJson(context, path, z.unknown(), {
    method: 'DELETE',
    headers: adminHeaders(context, actor),
  }).then(() => true);
  return (await orNullOn404(deleted)) ?? false;
}

/** GET /api/admin/audit: the latest 200 entries, newest first. @throws UpstreamError. */
export async function listAudit(context: AppLoadContext, actor: string): Promise<AuditEntry[]> {
  const answer = await upstreamJson(context, '/api/admin/audit', AuditListResponseSchema, {
    headers: adminHeaders(context, actor),
  });
  return answer.data;
}
