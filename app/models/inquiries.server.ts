/** Inquiry operations of the upstream api (docs/product.md §7 last row: POST /api/inquiries), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { InquirySubmitResponseSchema, type InquiryRequest } from '../../contract/inquiries';
import { upstreamJson } from '~/utils/upstream.server';

/**
 * POST /api/inquiries: stores the inquiry (docs/product.md §3.8 Inquiry: content and an optional e-mail), under
 * the phone's per-IP limit (the web forwards context.clientIp).
 * @throws UpstreamError (status 400 with the api's message for a refused body, 429 over the
 *   limit, null when the api cannot be reached or times out after 5000 ms).
 */
export async function submitInquiry(context: AppLoadContext, input: InquiryRequest): Promise<void> {
  await upstreamJson(context, '/api/inquiries', InquirySubmitResponseSchema, { method: 'POST', json: input });
}
