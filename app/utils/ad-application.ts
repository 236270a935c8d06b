/**
 * The ad application form (docs/product.md §2.5 Ad application page, §3, §5, §9): its one zod schema, used by
 * conform in the browser and by the action on the server, and the form's isomorphic helpers (phone
 * formatting, the first-bytes image type); the price is contract/prices.ts.
 */
import { z } from 'zod';
import { AD_DURATIONS, AD_TYPES, IMAGE_MAX_BYTES, type ImageExtension } from '../../contract/ads';
import { DEFAULT_LOCALE, LOCALES } from '../../contract/locales';
import { AD_CHECK_MESSAGES, adApplicationChecks, type AdCheckMessages } from '../../contract/ad-checks';
import type ads from '~/i18n/compiled/ko/ads.js';
import type { MessageParams } from '~/i18n/i18n';

/** The image file as the form carries it (a File in the browser and from the multipart parser). */
export type ImageFile = { name: string; size: number; type: string; arrayBuffer(): Promise<ArrayBuffer> };

export const isFile = (value: unknown): value is ImageFile =>
  typeof value === 'object' && value !== null && 'arrayBuffer' in value && 'size' in value && 'name' in value;

/**
 * The form's schema, refused with `m` (the page's language: AD_CHECK_MESSAGES in Korean, the
 * catalog's in English; docs/product.md §1 Languages). Its keys are in the docs/product.md §5 check
 * order (the image first), so the errors come out in that order; `content` (kakao only) is checked
 * alongside, last. The field names are the spec's, with `email` (sent as applicantEmail), the
 * file as `image`, and ours, `lang`: the language of the ad's title and text ('ko', the default, or
 * 'en'; docs/product.md §2.5).
 */
export function adApplicationFormSchema(m: AdCheckMessages) {
  const fields = adApplicationChecks(m);
  return z
    .object({
      image: z
        .custom<ImageFile>((value) => isFile(value) && value.size > 0, m.image)
        .refine((file) => file.size <= IMAGE_MAX_BYTES, m.imageSize),
      type: fields.type,
      title: fields.title,
      applicantName: fields.applicantName,
      applicantPhone: fields.applicantPhone,
      email: fields.applicantEmail,
      redirectUrl: fields.redirectUrl,
      contentForManager: fields.contentForManager,
      duration: fields.duration,
      // The language the advertiser writes the ad in: the form offers Korean (checked) and English only.
      lang: z.enum(LOCALES).catch(DEFAULT_LOCALE),
    })
    .and(fields.chatbotContent);
}

/**
 * The application's check messages from the ads catalog (app/i18n/messages/{ko,en}/ads.json) through
 * `t`, the page's formatter (useT, or the action's for the request's language; docs/product.md §1
 * Languages): Korean gives AD_CHECK_MESSAGES word for word (the catalog test holds them so).
 */
export function adCheckMessages(t: (key: keyof typeof ads, params?: MessageParams) => string): AdCheckMessages {
  return {
    image: t('check.image'),
    type: t('check.type'),
    title: t('check.title'),
    applicantName: t('check.applicantName'),
    applicantPhone: t('check.applicantPhone'),
    email: t('check.email'),
    duration: t('check.duration'),
    content: t('check.content'),
    phone: t('check.phone'),
    badEmail: t('check.badEmail'),
    redirectUrl: t('check.redirectUrl'),
    imageType: t('check.imageType'),
    imageSize: t('check.imageSize'),
    invalidCharacter: t('check.invalidCharacter'),
    titleOneLine: t('check.titleOneLine'),
    nameOneLine: t('check.nameOneLine'),
    phoneOneLine: t('check.phoneOneLine'),
    emailOneLine: t('check.emailOneLine'),
    linkOneLine: t('check.linkOneLine'),
    tooLong: (max) => t('check.tooLong', { max }),
  };
}

/** The ad types' names' keys in the ads catalog (docs/product.md §2: web is the banner, kakao the chatbot). */
export const AD_TYPE_NAME_KEYS = { web: 'apply.typeName.web', kakao: 'apply.typeName.kakao' } as const;

/** The form's schema in Korean: its field names for the multipart reader, and the Korean page's checks. */
export const AdApplicationFormSchema = adApplicationFormSchema(AD_CHECK_MESSAGES);

export /** The form's field names in the docs/product.md §5 check order (the order of the error summary). */
const FIELD_ORDER = [
  'image',
  'type',
  'title',
  'applicantName',
  'applicantPhone',
  'email',
  'redirectUrl',
  'contentForManager',
  'duration',
  'content',
] as const;

/**
 * A submission's field errors in FIELD_ORDER, each field's first message, for the error summary
 * above the form (the reference showed one alert at a time, in this order).
 */
export function orderedErrors(
  errors: Record<string, string[] | null | undefined> | null | undefined,
): { name: (typeof FIELD_ORDER)[number]; message: string }[] {
  return FIELD_ORDER.flatMap((name) => {
    const message = errors?.[name]?.[0];
    return message ? [{ name, message }] : [];
  });
}

/**
 * The id of the control an error summary link moves to: a radio group's first option (conform ids
 * it `<field id>-<value>`), else the field's own.
 */
export function summaryControlId(fieldId: string, name: string): string {
  if (name === 'type') return `${fieldId}-${AD_TYPES[0]}`;
  if (name === 'duration') return `${fieldId}-${AD_DURATIONS[0]}`;
  return fieldId;
}

/** docs/product.md §5: the phone keeps digits only (at most 11). */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, 11);
}

/** docs/product.md §5: the phone shown as 3-4-4 groups joined by hyphens, as far as it is typed ("0101" → "010-1"). */
export function formatPhone(value: string): string {
  const digits = phoneDigits(value);
  return [digits.slice(0, 3), digits.slice(3, 7), digits.slice(7, 11)].filter(Boolean).join('-');
}

/**
 * docs/product.md §5: the image type by its first 4 bytes: jpg (FF D8 FF), png (89 50 4E 47) or gif
 * ("GIF8"); null for anything else. The browser's and the action's check; the api sniffs the
 * stored object again with the file-type package (api/ads/images.ts), which is the one it trusts.
 */
export function detectImageType(bytes: Uint8Array): ImageExtension | null {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xd8 && c === 0xff) return 'jpg';
  if (a === 0x89 && b === 0x50 && c === 0x4e && d === 0x47) return 'png';
  if (a === 0x47 && b === 0x49 && c === 0x46 && d === 0x38) return 'gif';
  return null;
}
