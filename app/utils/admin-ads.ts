/** Names the admin ad pages share (docs/product.md §2: web is the banner, kakao the chatbot). */
import { z } from 'zod';
import { AD_FORMAT_MESSAGES, AdEditSchema, IMAGE_MAX_BYTES, type AdType } from '../../contract/ads';
import { isFile, type ImageFile } from '~/utils/ad-application';

/** The edit page of the managed ads of `type`. */
export const adEditPage = (type: AdType) => `/admin-only/ads/edit/${type}`;

/** Application status badges: pending is marked for review; decided ones say how. */
export const APPLICATION_STATUS_LABELS = { pending: '검토 대기', approved: '승인됨', rejected: '거절됨' } as const;

/** Whether an imageUrl can be shown: one of this site's /images/ paths or an http(s) URL (never javascript: or data:). */
export function isShowableImage(url: string | null | undefined): url is string {
  return !!url && (/^\/images\/[^/]+$/.test(url) || /^https?:\/\//i.test(url));
}

/**
 * The ad edit card's form (docs/product.md §4.6 Ad edit card): the ad's id, its title and link (blank is none;
 * a link must be http(s)), and an optional replacement image. One schema for conform and the action.
 */
export const AdEditFormSchema = z.object({
  id: z.coerce.number().int().positive(),
  title: AdEditSchema.shape.title,
  redirectUrl: AdEditSchema.shape.redirectUrl,
  /** The ad's version the card was opened on (a hidden field): a save on an older one is refused. */
  version: z
    .string()
    .optional()
    .transform((value) => value || undefined),
  image: z
    .custom<ImageFile>((value) => value === undefined || isFile(value))
    .optional()
    .transform((file) => (file && file.size > 0 ? file : undefined))
    .refine((file) => !file || file.size <= IMAGE_MAX_BYTES, AD_FORMAT_MESSAGES.imageSize),
});
