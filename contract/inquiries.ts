/**
 * Inquiry payloads of the Campus Bus API (docs/product.md §3.8 Inquiry, §5.3 Inquiry, §7 last row, §8):
 * the POST /api/inquiries body and answer, the messages of the /contact form, and a stored inquiry
 * as the admins read it. The api validates with InquiryRequestSchema and the web's form parses with
 * the same schema, so the rule is written once.
 */
import { z } from 'zod';
import { AD_FORMAT_MESSAGES } from './ads';
import { normalizeLineBreaks } from './text';
import { formatCount } from './korean-format';
import { LOCALES } from './locales';
import { freeText, text, trimmedLine, TEXT_MESSAGES } from './strings';

/**
 * An inquiry holds at most 2,000 characters. Characters are counted as JavaScript's
 * string length (UTF-16 code units), which is what the textarea's `maxlength` counts, so the
 * browser's cap and the api's rule agree; line breaks count as one (normalizeLineBreaks).
 */
export const INQUIRY_CONTENT_MAX = 2000;
/** The longest e-mail address (RFC 5321 path limit), as the ad application allows. */
const EMAIL_MAX = 254;

/** The /contact form's messages: the docs/product.md §5, §8 ones word for word, and ours in the same voice. */
export const INQUIRY_MESSAGES = {
  /** docs/product.md §8.1 Inquiry success. */
  submitted: '문의가 접수되었습니다.',
  /** docs/product.md §8.1 Inquiry failure. */
  failed: '문의 전송에 실패했습니다.',
  /** docs/product.md §5, §8 Inquiry empty (no final period, as the spec has it). */
  contentRequired: '문의 내용을 입력해주세요',
  contentTooLong: `문의 내용은 ${formatCount(INQUIRY_CONTENT_MAX)}자까지 쓸 수 있습니다. 조금 줄여주세요.`,
  /** The ad application's wording, one message for one mistake. */
  badEmail: AD_FORMAT_MESSAGES.email,
  invalidCharacter: AD_FORMAT_MESSAGES.invalidCharacter,
  /** Shown after `failed` when the api answers 429 (api/rate-limit.ts LIMITS.inquiry). */
  rateLimited: '짧은 시간에 문의를 여러 번 보내셨습니다. 잠시 후 다시 보내주세요.',
} as const;

/** The messages of the inquiry's checks, each a sentence in one language (docs/product.md §5.3, §8). */
export type InquiryCheckMessages = Record<
  'contentRequired' | 'contentTooLong' | 'invalidCharacter' | 'emailOneLine' | 'badEmail',
  string
>;

/** The checks' messages in Korean: the api's refusals (400) and the Korean form's. */
export const INQUIRY_CHECK_MESSAGES: InquiryCheckMessages = {
  contentRequired: INQUIRY_MESSAGES.contentRequired,
  contentTooLong: INQUIRY_MESSAGES.contentTooLong,
  invalidCharacter: INQUIRY_MESSAGES.invalidCharacter,
  emailOneLine: TEXT_MESSAGES.oneLine('이메일'),
  badEmail: INQUIRY_MESSAGES.badEmail,
};

/**
 * The /contact form's fields (docs/product.md §3.8 Inquiry: content and an optional e-mail), refused
 * with `messages` (the page's language; the api's are INQUIRY_CHECK_MESSAGES), checked in this order.
 * `content`: line breaks normalized, trimmed, required (empty or whitespace-only gets the
 * docs/product.md §5 message), at most INQUIRY_CONTENT_MAX characters, free text
 * (contract/strings.ts). `email`: one line, trimmed, '' or absent means none, otherwise an e-mail address.
 */
export function inquiryFormSchema(messages: InquiryCheckMessages) {
  return z.object({
    content: z.preprocess(
      (value) => (typeof value === 'string' ? normalizeLineBreaks(value) : value),
      freeText(
        { required_error: messages.contentRequired, invalid_type_error: messages.contentRequired },
        messages.invalidCharacter,
      )
        .trim()
        .min(1, messages.contentRequired)
        .max(INQUIRY_CONTENT_MAX, messages.contentTooLong),
    ),
    email: trimmedLine('이메일', { invalid_type_error: messages.badEmail }, messages.emailOneLine)
      .transform((value) => value || undefined)
      .pipe(text().max(EMAIL_MAX, messages.badEmail).email(messages.badEmail).optional())
      .optional(),
  });
}

/**
 * POST /api/inquiries body: the form's fields with the Korean messages, and `locale`, the language
 * of the page it was sent from ('ko' or 'en'; docs/product.md §1 Languages), which the api stores
 * with it so the reply is written in it; absent, the table's default, 'ko'.
 */
export const InquiryRequestSchema = inquiryFormSchema(INQUIRY_CHECK_MESSAGES).extend({
  locale: z.enum(LOCALES).optional(),
});
/** A valid POST /api/inquiries body, as the web sends it: its form parsed (inquiryFormSchema), the page's locale added. */
export type InquiryRequest = z.output<typeof InquiryRequestSchema>;

/** POST /api/inquiries answer: 201 with the docs/product.md §8 success message. */
export const InquirySubmitResponseSchema = z.object({ success: z.literal(true), message: text() });
export type InquirySubmitResponse = z.infer<typeof InquirySubmitResponseSchema>;

/** docs/product.md §3.8 Inquiry, stored, as the admin list shows it (GET /api/admin/inquiries). */
export const InquirySchema = z.object({
  id: z.number().int(),
  content: text(),
  email: text().nullable(),
  /** ISO instant. */
  createdAt: text().datetime({ offset: true }),
  /** An admin's reply, e-mailed to `email`; null until replied to. */
  reply: text().nullable(),
  /** ISO instant of the reply; null until replied to. */
  repliedAt: text().datetime({ offset: true }).nullable(),
  /** The language of the page it was sent from: its reply e-mail's (docs/product.md §1 Languages). */
  locale: z.enum(LOCALES),
});
export type Inquiry = z.infer<typeof InquirySchema>;

/** The longest reply (characters), as long as an inquiry may be. */
export const INQUIRY_REPLY_MAX = INQUIRY_CONTENT_MAX;

/** The reply form's messages. */
export const INQUIRY_REPLY_MESSAGES = {
  required: '답변 내용을 입력해주세요.',
  tooLong: `답변은 ${formatCount(INQUIRY_REPLY_MAX)}자까지 보낼 수 있습니다.`,
  noEmail: '이메일을 남기지 않은 문의에는 답변을 보낼 수 없습니다.',
  replied: '이미 답변한 문의입니다.',
  mailOff: '이메일 발송이 꺼져 있어 답변을 보낼 수 없습니다.',
  sent: '답변을 저장했습니다. 이메일은 곧 발송됩니다.',
} as const;

/**
 * POST /api/admin/inquiries/{id}/reply body: the reply, line breaks normalized, trimmed, 1 to
 * INQUIRY_REPLY_MAX characters, free text (contract/strings.ts).
 */
export const InquiryReplySchema = z.object({
  reply: z.preprocess(
    (value) => (typeof value === 'string' ? normalizeLineBreaks(value) : value),
    freeText({ required_error: INQUIRY_REPLY_MESSAGES.required, invalid_type_error: INQUIRY_REPLY_MESSAGES.required })
      .trim()
      .min(1, INQUIRY_REPLY_MESSAGES.required)
      .max(INQUIRY_REPLY_MAX, INQUIRY_REPLY_MESSAGES.tooLong),
  ),
});
export const InquiryListResponseSchema = z.object({ success: z.boolean(), data: z.array(InquirySchema) });
