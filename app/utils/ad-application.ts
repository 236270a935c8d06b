/**
 * The ad application form (docs/product.md §2.5 Ad application page, §3, §5, §9): its one zod schema, used by
 * conform in the browser and by the action on the server, and the form's isomorphic helpers (phone
 * formatting, the first-bytes image type); the price is contract/prices.ts.
 */
import { z } from 'zod';
import {
  AD_DURATIONS,
  AD_FORMAT_MESSAGES,
  AD_MESSAGES,
  AD_TYPES,
  AdTypeSchema,
  DurationSchema,
  IMAGE_MAX_BYTES,
  adApplicationFields,
  applicantEmailField,
  chatbotAdContentRule,
  type ImageExtension,
} from '../../contract/ads';

/** The image file as the form carries it (a File in the browser and from the multipart parser). */
export type ImageFile = { name: string; size: number; type: string; arrayBuffer(): Promise<ArrayBuffer> };

export const isFile = (value: unknown): value is ImageFile =>
  typeof value === 'object' && value !== null && 'arrayBuffer' in value && 'size' in value && 'name' in value;

/**
 * The form's schema. Its keys are in the docs/product.md §5 check order (the image first), so the errors come
 * out in that order; `content` (kakao only) is checked alongside, last. The field names are the
 * spec's, with `email` (sent as applicantEmail) and the file as `image`.
 */
export const AdApplicationFormSchema = z
  .object({
    image: z
      .custom<ImageFile>((value) => isFile(value) && value.size > 0, AD_MESSAGES.image)
      .refine((file) => file.size <= IMAGE_MAX_BYTES, AD_FORMAT_MESSAGES.imageSize),
    type: AdTypeSchema,
    title: adApplicationFields.title,
    applicantName: adApplicationFields.applicantName,
    applicantPhone: adApplicationFields.applicantPhone,
    email: applicantEmailField,
    redirectUrl: adApplicationFields.redirectUrl,
    contentForManager: adApplicationFields.contentForManager,
    duration: DurationSchema,
  })
  .and(chatbotAdContentRule);
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
