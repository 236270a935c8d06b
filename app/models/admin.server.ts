/**
 * The admins themselves on the upstream api (ours; ADR 008), one function per call: sign-in, the
 * one-time setup, sessions and the audit log; and what every admin call carries (adminHeaders:
 * the service token, which only the web's server holds, and the acting admin for the api's audit
 * log). The admin calls about a resource live with its public ones (notice.server.ts,
 * inquiries.server.ts, ads.server.ts, bus.server.ts, mail.server.ts, gbis.server.ts).
 */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import {
  ADMIN_USER_HEADER,
  AdminSessionSchema,
  AuditListResponseSchema,
  type AdminSession,
  type AuditEntry,
} from '../../contract/admin';
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
