/**
 * The ad application's checks (docs/product.md §3.5, §5.1), built with the messages of one language:
 * the api's with the Korean ones (AD_CHECK_MESSAGES: its 400s and the Korean form's), an English
 * form with its catalog's (docs/product.md §1 Languages). One set of rules, whatever the language.
 */
import { z } from 'zod';
import { isHttpUrl } from './links';
import { freeText, isOneLine, text, TEXT_MESSAGES, trimmedLine } from './strings';

/** docs/product.md §2: `web` (banner) or `kakao` (chatbot). */
export const AD_TYPES = ['web', 'kakao'] as const;

/** docs/product.md §9: durations in months; one month is AD_MONTH_DAYS days of the paid period. */
export const AD_DURATIONS = [1, 2, 3] as const;
type AdDuration = (typeof AD_DURATIONS)[number];

/** docs/product.md §5 messages of the ad application, in the spec's check order (the image first). */
export const AD_MESSAGES = {
  image: '이미지를 업로드해주세요.',
  type: '광고 유형을 선택해주세요.',
  title: '제목을 입력해주세요.',
  applicantName: '이름을 입력해주세요.',
  applicantPhone: '전화번호를 입력해주세요.',
  email: '이메일을 입력해주세요.',
  duration: '광고 게재 기간을 선택해주세요.',
  content: '광고 메시지를 입력해주세요.',
  /** docs/product.md §5: the file input refuses to open until a type is chosen. */
  typeBeforeImage: '이미지 파일 선택 전 먼저 광고 유형을 선택해주세요.',
  /** docs/product.md §8. */
  submitted: '광고 접수가 완료되었습니다.',
  /** docs/product.md §8. */
  submitFailed: '광고 접수에 실패했습니다.',
} as const;

/** Our messages for what the spec leaves to us (formats and limits), in the same voice. */
export const AD_FORMAT_MESSAGES = {
  phone: '전화번호를 정확히 입력해주세요. (숫자 9~11자리)',
  email: '이메일 형식이 올바르지 않습니다.',
  redirectUrl: '링크는 http:// 또는 https://로 시작하는 주소만 넣을 수 있습니다.',
  imageType: 'JPG, PNG, GIF 이미지만 올릴 수 있습니다.',
  imageSize: '이미지는 5MB 이하만 올릴 수 있습니다.',
  tooLong: (max: number) => `${max}자 이하로 입력해주세요.`,
  invalidCharacter: TEXT_MESSAGES.invalidCharacter,
} as const;

/**
 * The messages of the application's checks in one language: each field's missing value
 * (`image` … `content`, docs/product.md §5.1), its format (`phone`, `badEmail`, `redirectUrl`,
 * `imageType`, `imageSize`), a text over `max` characters (`tooLong`), a control character in
 * free text (`invalidCharacter`) or in a one-line field (`…OneLine`, naming the field).
 */
export type AdCheckMessages = Record<
  | 'image'
  | 'type'
  | 'title'
  | 'applicantName'
  | 'applicantPhone'
  | 'email'
  | 'duration'
  | 'content'
  | 'phone'
  | 'badEmail'
  | 'redirectUrl'
  | 'imageType'
  | 'imageSize'
  | 'invalidCharacter'
  | 'titleOneLine'
  | 'nameOneLine'
  | 'phoneOneLine'
  | 'emailOneLine'
  | 'linkOneLine',
  string
> & { tooLong: (max: number) => string };

/** The checks' messages in Korean: the api's refusals (400) and the Korean form's. */
export const AD_CHECK_MESSAGES: AdCheckMessages = {
  ...AD_MESSAGES,
  phone: AD_FORMAT_MESSAGES.phone,
  badEmail: AD_FORMAT_MESSAGES.email,
  redirectUrl: AD_FORMAT_MESSAGES.redirectUrl,
  imageType: AD_FORMAT_MESSAGES.imageType,
  imageSize: AD_FORMAT_MESSAGES.imageSize,
  invalidCharacter: AD_FORMAT_MESSAGES.invalidCharacter,
  tooLong: AD_FORMAT_MESSAGES.tooLong,
  titleOneLine: TEXT_MESSAGES.oneLine('제목'),
  nameOneLine: TEXT_MESSAGES.oneLine('이름'),
  phoneOneLine: TEXT_MESSAGES.oneLine('전화번호'),
  emailOneLine: TEXT_MESSAGES.oneLine('이메일'),
  linkOneLine: TEXT_MESSAGES.oneLine('링크'),
};

/** Length limits in characters. `content` is a KakaoTalk basicCard description (at most 230). */
export const AD_LIMITS = {
  title: 50,
  applicantName: 30,
  email: 254,
  redirectUrl: 2048,
  contentForManager: 1000,
  content: 230,
} as const;

/** The phone as submitted (docs/product.md §5): digits only, a Korean number of 9–11 digits starting with 0. */
const PHONE_PATTERN = /^0\d{8,10}$/;

/**
 * A required one-line field (contract/strings.ts trimmedLine): trimmed; blank or whitespace-only is
 * missing (docs/product.md §5) and gets `missing`; a control character gets `oneLine`.
 */
export function requiredText(m: AdCheckMessages, missing: string, oneLine: string, max: number) {
  return trimmedLine('', { required_error: missing, invalid_type_error: missing }, oneLine)
    .min(1, missing)
    .max(max, m.tooLong(max));
}

/**
 * An optional field, one-line (refused with `oneLine`) or, without it, free text (a textarea):
 * trimmed; blank becomes undefined.
 */
export function optionalText(m: AdCheckMessages, max: number, oneLine?: string) {
  return (oneLine === undefined ? freeText(undefined, m.invalidCharacter).trim() : trimmedLine('', undefined, oneLine))
    .max(max, m.tooLong(max))
    .optional()
    .transform((value) => (value ? value : undefined));
}

/** docs/product.md §3 `redirectUrl`: optional; when present an absolute http(s) URL. */
export const redirectUrlCheck = (m: AdCheckMessages) =>
  optionalText(m, AD_LIMITS.redirectUrl, m.linkOneLine).refine(
    (value) => value === undefined || isHttpUrl(value),
    m.redirectUrl,
  );

/**
 * The application's fields the form and the api share (docs/product.md §3.5 Ad application), refused
 * with `m`: the ad type, title, name, phone, e-mail (`applicantEmail`), link, note to the reviewer,
 * chatbot message and duration (1, 2 or 3 months, as a number or its form text); `chatbotContent`, to
 * join to an object schema with `.and(…)`, requires the message of a kakao ad (docs/product.md §5),
 * checked even when other fields fail, so every message shows at once.
 */
export function adApplicationChecks(m: AdCheckMessages) {
  const content = optionalText(m, AD_LIMITS.content);
  return {
    type: z.enum(AD_TYPES, { errorMap: () => ({ message: m.type }) }),
    title: requiredText(m, m.title, m.titleOneLine, AD_LIMITS.title),
    applicantName: requiredText(m, m.applicantName, m.nameOneLine, AD_LIMITS.applicantName),
    /**
     * docs/product.md §5: hyphens (and anything else but digits) are dropped before the check; a
     * control character is not dropped but refused, as in every one-line field.
     */
    applicantPhone: z.preprocess(
      (value) => (typeof value === 'string' && isOneLine(value.trim()) ? value.replace(/\D/g, '') : value),
      requiredText(m, m.applicantPhone, m.phoneOneLine, 20).regex(PHONE_PATTERN, m.phone),
    ),
    applicantEmail: requiredText(m, m.email, m.emailOneLine, AD_LIMITS.email).pipe(text().email(m.badEmail)),
    redirectUrl: redirectUrlCheck(m),
    contentForManager: optionalText(m, AD_LIMITS.contentForManager),
    content,
    duration: z.coerce
      .number({ required_error: m.duration, invalid_type_error: m.duration })
      .refine((value): value is AdDuration => (AD_DURATIONS as readonly number[]).includes(value), m.duration),
    chatbotContent: z.object({ type: z.unknown(), content }).superRefine((application, ctx) => {
      if (application.type === 'kakao' && !application.content) {
        ctx.addIssue({ code: 'custom', path: ['content'], message: m.content });
      }
    }),
  };
}
