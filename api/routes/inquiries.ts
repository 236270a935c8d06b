/**
 * Inquiries (docs/product.md §3.8 Inquiry, §7 last row: the reference posted to a placeholder 'endpoint', which
 * this api makes POST /api/inquiries). The admins read them through GET /api/admin/inquiries.
 */
import { Hono } from 'hono';
import { INQUIRY_MESSAGES, InquiryRequestSchema, type InquirySubmitResponse } from '../../contract/inquiries';
import type { ApiContext } from '../context';
import { createInquiry } from '../inquiries/model';
import { rateLimit } from '../rate-limit';
import { jsonBody } from '../validate';

/**
 * Mounts POST / (at /api/inquiries): 201 `{ success: true, message }` with the docs/product.md §8 success
 * message; 400 `{ message }` naming the field for a refused body (the docs/product.md §5 text for empty
 * content); 429 with Retry-After over the client's limit (LIMITS.inquiry).
 */
export function inquiryRoutes({ db, clock, rateLimiters, mail }: ApiContext) {
  return new Hono().post('/', rateLimit(rateLimiters.inquiry), jsonBody(InquiryRequestSchema), async (c) => {
    await createInquiry(db, c.req.valid('json'), clock.now(), mail);
    const body: InquirySubmitResponse = { success: true, message: INQUIRY_MESSAGES.submitted };
    return c.json(body, 201);
  });
}
