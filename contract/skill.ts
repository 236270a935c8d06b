/**
 * The Kakao i Open Builder skill payloads (Kakao i Open Builder's skill): the request the bot POSTs to our skill (SkillPayload) and our version 2.0 skill response
 * (SkillResponse), with Open Builder's own field names. Sources: "응답 타입별 JSON 포맷"
 * (https://kakaobusiness.gitbook.io/main/tool/chatbot/skill_guide/answer_json_format, formerly
 * https://i.kakao.com/docs/skill-response-format).
 */
import { z } from 'zod';
import { isHttpUrl } from './links';
import { text } from './strings';

/**
 * Kakao's limits on a skill response, in one place (limits in one schema). Counts are items,
 * lengths are characters (UTF-16 code units, as zod and Kakao count them).
 * - outputs 1–3, quickReplies ≤ 10, basicCard buttons ≤ 3, simpleText.text ≤ 1000, basicCard
 *   description ≤ 230: Kakao's format page, also enforced by the Open Builder SDKs
 *   (chatbot-response-v2-builder: "max Component is 3", "max QuickReply is 10", "description max
 *   length is 230", "max button is 3"); the 230 is also the ad form's `content` limit (contract/ads.ts).
 * - basicCard title ≤ 50, quickReply and button label ≤ 14: Kakao's format page (the ad form's
 *   title limit is 50 too). Thumbnail altText ≤ 50: Kakao's format page, as typed by the
 *   typia-based Open Builder SDKs (`MaxLength<50>`). NOTE: these three were not in the excerpts the search returned;
 *   they are the published figures as we know them. Kakao cuts longer labels on screen.
 */
export const KAKAO_LIMITS = {
  outputs: 3,
  simpleTextText: 1000,
  basicCardTitle: 50,
  basicCardDescription: 230,
  basicCardButtons: 3,
  buttonLabel: 14,
  thumbnailAltText: 50,
  quickReplies: 10,
  quickReplyLabel: 14,
} as const;

/** The header Open Builder's skill settings send with KAKAO_SKILL_SECRET. */
export const SKILL_SECRET_HEADER = 'X-Kakao-Skill-Secret';

/** A larger skill request body is refused with 413 (a real SkillPayload is a few KB). */
export const SKILL_MAX_BODY_BYTES = 64 * 1024;

/**
 * `text` cut to at most `max` characters (UTF-16 units, as Kakao counts), the last one an ellipsis
 * when it was longer. The cut falls between code points, so an emoji is never split in half.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1; // a high surrogate would lose its pair
  return `${text.slice(0, end)}…`;
}

const httpUrl = text().url().refine(isHttpUrl, 'must be an http(s) URL');
const httpsUrl = text()
  .url()
  .refine((value) => value.startsWith('https://'), 'must be an absolute https URL');

/**
 * The parts of Open Builder's SkillPayload the skill reads: the user's utterance and the block's
 * action parameters (`action.params`: name → value, as strings). Everything else (bot, intent,
 * userRequest.user, action.detailParams, contexts, flow…) passes through unread.
 */
export const SkillRequestSchema = z
  .object({
    intent: z.object({ id: text().optional(), name: text().optional() }).passthrough().optional(),
    userRequest: z.object({ utterance: text() }).passthrough(),
    bot: z.object({ id: text().optional(), name: text().optional() }).passthrough().optional(),
    action: z
      .object({
        params: z.record(text(), text()).optional(),
        detailParams: z.record(text(), z.unknown()).optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** A text bubble. */
const SimpleTextSchema = z.object({ text: text().min(1).max(KAKAO_LIMITS.simpleTextText) }).strict();

/** A button opening a web page (action "webLink"). */
const WebLinkButtonSchema = z
  .object({
    action: z.literal('webLink'),
    label: text().min(1).max(KAKAO_LIMITS.buttonLabel),
    webLinkUrl: httpUrl,
  })
  .strict();

/** A card with a thumbnail (Kakao fetches `imageUrl` itself, so it is absolute https), as the chatbot ad. */
export const BasicCardSchema = z
  .object({
    title: text().min(1).max(KAKAO_LIMITS.basicCardTitle).optional(),
    description: text().min(1).max(KAKAO_LIMITS.basicCardDescription).optional(),
    /**
     * fixedRatio false (Kakao's default, sent explicitly): a 2:1 image area, the image's centre
     * cropped to fit, so the spec's 350x175 chatbot ad shows whole. altText is read by screen readers.
     */
    thumbnail: z
      .object({
        imageUrl: httpsUrl,
        altText: text().min(1).max(KAKAO_LIMITS.thumbnailAltText).optional(),
        fixedRatio: z.literal(false),
      })
      .strict(),
    buttons: z.array(WebLinkButtonSchema).max(KAKAO_LIMITS.basicCardButtons).optional(),
  })
  .strict();
export type BasicCard = z.infer<typeof BasicCardSchema>;

/** One output: exactly one of a simpleText or a basicCard (the only components the skill sends). */
const SkillOutputSchema = z.union([
  z.object({ simpleText: SimpleTextSchema }).strict(),
  z.object({ basicCard: BasicCardSchema }).strict(),
]);
export type SkillOutput = z.infer<typeof SkillOutputSchema>;

/** A quick reply that sends `messageText` as the user's next utterance. */
const QuickReplySchema = z
  .object({
    label: text().min(1).max(KAKAO_LIMITS.quickReplyLabel),
    action: z.literal('message'),
    messageText: text().min(1),
  })
  .strict();
export type QuickReply = z.infer<typeof QuickReplySchema>;

/** Our SkillResponse, version 2.0: 1–3 outputs and up to 10 quick replies. */
export const SkillResponseSchema = z
  .object({
    version: z.literal('2.0'),
    template: z
      .object({
        outputs: z.array(SkillOutputSchema).min(1).max(KAKAO_LIMITS.outputs),
        quickReplies: z.array(QuickReplySchema).max(KAKAO_LIMITS.quickReplies).optional(),
      })
      .strict(),
  })
  .strict();
export type SkillResponse = z.infer<typeof SkillResponseSchema>;

/** What the skill says at once while it has more requests under way than it takes (docs/product.md §11, ADR 024). */
export const SKILL_BUSY_TEXT = '잠시 후 다시 물어봐 주세요';

/** The busy skill response: a version 2.0 simpleText saying SKILL_BUSY_TEXT, sent with HTTP 200 so that Kakao shows it. */
export const SKILL_BUSY_RESPONSE = {
  version: '2.0',
  template: { outputs: [{ simpleText: { text: SKILL_BUSY_TEXT } }] },
} as const satisfies SkillResponse;
