/**
 * Inquiry operations of the upstream api (docs/product.md §7 last row: POST /api/inquiries; the
 * admins' reply by e-mail), one function per call.
 */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import { InquirySubmitResponseSchema, type InquiryRequest } from '../../contract/inquiries';
import { adminHeaders } from '~/models/admin.server';
import { sentOrRefusal, type MailRefusal } from '~/models/mail.server';
import { upstreamJson } from '~/models/upstream.server';

/**
 * POST /api/inquiries: stores the inquiry (docs/product.md §3.8 Inquiry: content and an optional e-mail), under
 * the phone's per-IP limit (the web forwards context.clientIp).
 * @throws UpstreamError (status 400 with the api's message for a refused body, 429 over the
 *   limit, null when the api cannot be reached or times out after 5000 ms).
 */
export async function submitInquiry(context: AppLoadContext, input: InquiryRequest): Promise<void> {
  await upstreamJson(context, '/api/inquiries', InquirySubmitResponseSchema, { method: 'POST', json: input });
}

/**
 * POST /api/admin/inquiries/{id}/reply: stores `reply` (parsed with InquiryReplySchema) and queues its e-mail to the inquirer (audited).
 * @returns true; null when there is no such inquiry (404: deleted meanwhile); the api's refusal in
 *   Korean (409, contract INQUIRY_REPLY_MESSAGES) for an inquiry without an e-mail, one answered
 *   already, or while e-mail is off.
 * @throws UpstreamError when the api fails otherwise.
 */
export function replyToInquiry(
  context: AppLoadContext,
  actor: string,
  id: number,
  reply: string,
): Promise<true | null | MailRefusal> {
  return sentOrRefusal(
    upstreamJson(context, `/api/admin/inquiries/${id}/reply`, z.unknown(), {
      method: 'POST',
      headers: adminHeaders(context, actor),
      json: { reply },
    }),
  );
}
