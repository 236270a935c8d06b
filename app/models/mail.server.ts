/**
 * The e-mail of the upstream api, one function per call (docs/architecture.md §Layering), for the
 * admin page /admin-only/mail: whether e-mail is on, what waits to be sent, the e-mails that failed
 * and their resend. Also the refusal of an e-mail operation, shared with the inquiry reply.
 */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import { MailOverviewSchema, type MailOverview } from '../../contract/admin';
import { adminHeaders } from '~/models/admin.server';
import { orNullOn404, UpstreamError, upstreamJson } from '~/models/upstream.server';

/** Why the api did not do it (its 409), in its own words. */
export type MailRefusal = { refused: string };

/**
 * `call`'s answer as true; null when the api answered 404 (the thing is gone); the api's refusal
 * when it answered 409 with a message (its state, or e-mail being off, forbids it).
 * @throws what `call` throws otherwise.
 */
export async function sentOrRefusal(call: Promise<unknown>): Promise<true | null | MailRefusal> {
  try {
    return await orNullOn404(call.then(() => true as const));
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 409 && error.serverMessage) {
      return { refused: error.serverMessage };
    }
    throw error;
  }
}

/** GET /api/admin/mail: whether e-mail is on, how many wait, the failed ones newest first. @throws UpstreamError. */
export function getMailOverview(context: AppLoadContext, actor: string): Promise<MailOverview> {
  return upstreamJson(context, '/api/admin/mail', MailOverviewSchema, { headers: adminHeaders(context, actor) });
}

/**
 * POST /api/admin/mail/{id}/resend: queues failed e-mail `id` again (same Message-ID; audited).
 * @returns true; null when there is no such failed e-mail (404: resent already); the api's refusal
 *   while e-mail is off (409).
 * @throws UpstreamError when the api fails otherwise.
 */
export function resendMail(context: AppLoadContext, actor: string, id: number): Promise<true | null | MailRefusal> {
  return sentOrRefusal(
    upstreamJson(context, `/api/admin/mail/${id}/resend`, z.unknown(), {
      method: 'POST',
      headers: adminHeaders(context, actor),
    }),
  );
}
