/**
 * Inquiry operations of the upstream api (docs/product.md §7 last row: POST /api/inquiries; the
 * admins' list, deletion and reply by e-mail), one function per call.
 */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import {
  InquiryListResponseSchema,
  InquirySubmitResponseSchema,
  type Inquiry,
  type InquiryRequest,
} from '../../contract/inquiries';
import { adminDelete, adminHeaders } from '~/models/admin.server';
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
 *   Korean (409, contract INQUIRY_REPLY_MESSAGES) for an inquiry without an e-mail, one replied to
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
