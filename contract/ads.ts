/**
 * Ads payloads of the Campus Bus API (docs/product.md §3, §7), shared by the api (which validates and produces
 * them) and the web (which builds requests with them and parses every answer). The spec's fields
 * keep their names; our additions are optional when parsing, so the web keeps working against any
 * server that speaks §7. Validation messages are the spec's own (§5), in Korean here: the
 * application's checks are built in contract/ad-checks.ts, where an English form builds them too.
 */
import { z } from 'zod';
import { normalizeLineBreaks } from './text';
import { freeText, oneLineText, text, TEXT_MESSAGES } from './strings';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales';
import {
  AD_CHECK_MESSAGES,
  AD_FORMAT_MESSAGES,
  AD_LIMITS,
  AD_MESSAGES,
  adApplicationChecks,
  optionalText,
  redirectUrlCheck,
  requiredText,
} from './ad-checks';

export { AD_DURATIONS, AD_FORMAT_MESSAGES, AD_MESSAGES, AD_TYPES } from './ad-checks';

export type AdType = z.infer<typeof AdTypeSchema>;

/** docs/product.md §9: 1 month = 30 days. */
export const AD_MONTH_DAYS = 30;

/** docs/product.md §2, §9: the image size hints in pixels. */
export const AD_IMAGE_SIZE: Readonly<Record<AdType, { width: number; height: number }>> = {
  web: { width: 350, height: 100 },
  kakao: { width: 350, height: 175 },
};

/** Upload cap in bytes (5 MB): the presign request, the signed PUT and the web's form all hold to it. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** docs/product.md §5: the image types accepted (detected from the first bytes), by canonical extension. */
export const IMAGE_CONTENT_TYPES = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif' } as const;
export type ImageExtension = keyof typeof IMAGE_CONTENT_TYPES;

/**
 * The names the api gives stored images: `<ad type>-<uuid>.<jpg|png|gif>` (api/ads/images.ts), one
 * URL path segment. The web serves no other name at /images/.
 */
export const IMAGE_KEY_PATTERN =
  /^(web|kakao)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif)$/;

/**
 * The api's message of a presign refused for its client's own room of images (a 429, ADR 027), by
 * which the web tells it from the rate limit's 429: waiting does not help, a decision on the
 * client's pending applications does.
 */
export const IMAGE_ROOM_FULL_MESSAGE = 'This address holds too many images of undecided applications';

/** The application's fields with the Korean messages: the api's checks (docs/product.md §3.5, §5.1). */
export const adApplicationFields = adApplicationChecks(AD_CHECK_MESSAGES);

/** docs/product.md §2 ad type; anything else (or nothing) gets the docs/product.md §5 message. */
export const AdTypeSchema = adApplicationFields.type;

/**
 * A language of the public pages ('ko' or 'en'; contract/locales.ts; docs/product.md §1 Languages):
 * an application's page language and its content's language. Absent is Korean (the columns' default).
 */
const LocaleSchema = z.enum(LOCALES).optional();

/**
 * An answer's `lang` of content written in `lang` (an AdStatus's, an AdBanner's): none for Korean,
 * which absent means, so an answer about Korean content is as it was before the field.
 */
export const contentLang = (lang: Locale): { lang?: Locale } => (lang === DEFAULT_LOCALE ? {} : { lang });

/**
 * POST /api/ads/{type}/submit body (docs/product.md §3.5 Ad application, §7): `email` is sent as
 * `applicantEmail`; `confirmed` is false at submit; `content` only for kakao (required there).
 * `imageUrl` must be one that the api issued (POST /api/s3/presigned-url/image) and that was uploaded.
 * Ours: `locale`, the language of the page it was sent from (its e-mails'), and `lang`, the
 * language the advertiser wrote the title and text in (the ad's), each 'ko' (absent: Korean) or 'en'.
 */
export const AdApplicationSchema = z
  .object({
    type: AdTypeSchema,
    title: adApplicationFields.title,
    applicantName: adApplicationFields.applicantName,
    applicantPhone: adApplicationFields.applicantPhone,
    redirectUrl: adApplicationFields.redirectUrl,
    contentForManager: adApplicationFields.contentForManager,
    content: adApplicationFields.content,
    applicantEmail: adApplicationFields.applicantEmail,
    imageUrl: requiredText(AD_CHECK_MESSAGES, AD_MESSAGES.image, TEXT_MESSAGES.oneLine('이미지 주소'), 2048),
    duration: adApplicationFields.duration,
    confirmed: z.literal(false).default(false),
    locale: LocaleSchema,
    lang: LocaleSchema,
  })
  .and(adApplicationFields.chatbotContent);
export type AdApplication = z.input<typeof AdApplicationSchema>;

/** docs/product.md §2: the ad types in the product's words (web is the banner, kakao the chatbot). */
export const AD_TYPE_LABELS: Record<AdType, string> = { web: '웹 배너 광고', kakao: '챗봇 광고' };

/**
 * POST /api/ads/{type}/submit answer (docs/product.md §7: the body is not shown). Ours: 201
 * `{ success, id, statusToken, emailed }`: the token of the applicant's status page
 * /ads/status/{statusToken}, and whether a receipt e-mail carrying it was queued (false when the
 * deployment sends no e-mail: SMTP_URL unset).
 */
export const AdSubmitResponseSchema = z.object({
  success: z.boolean().optional(),
  id: z.number().int().optional(),
  statusToken: text().optional(),
  emailed: z.boolean().optional(),
});

/** How many KST days of counters the status page shows (today and the 29 before it). */
export const AD_STATUS_DAYS = 30;

/** One KST day of an ad's counters: `day` is its KST date "yyyy-MM-dd". */
const AdDayCountSchema = z.object({
  day: text().regex(/^\d{4}-\d{2}-\d{2}$/),
  impressions: z.number().int().nonnegative(),
  clicks: z.number().int().nonnegative(),
});
export type AdDayCount = z.infer<typeof AdDayCountSchema>;

/**
 * GET /api/ads/status/{statusToken} answer (ours; public, the token is the secret): the applicant's
 * status page /ads/status/{statusToken}. `appliedAt` is the ISO instant the application arrived;
 * `duration` the months applied for (its price: contract/prices.ts priceWon);
 * `rejectReason` the admin's reason, or null; `period` the paid period of its ad as ISO instants
 * (start inclusive, end exclusive), null until approved; `counts`, once the ad's period has started,
 * its impressions and clicks per KST day over the last AD_STATUS_DAYS KST days ending today
 * (zero-filled, oldest first) with their sums, else null; `takenDownAt`, the ISO instant an admin
 * deleted the ad (its period and counts are then as they were at that moment), else null.
 */
export const AdStatusSchema = z.object({
  type: AdTypeSchema,
  title: text(),
  appliedAt: text().datetime({ offset: true }),
  duration: z.number().int().positive(),
  status: z.enum(['pending', 'approved', 'rejected']),
  rejectReason: text().nullable(),
  period: z
    .object({ startsAt: text().datetime({ offset: true }), endsAt: text().datetime({ offset: true }) })
    .nullable(),
  counts: z
    .object({
      days: z.array(AdDayCountSchema),
      impressions: z.number().int().nonnegative(),
      clicks: z.number().int().nonnegative(),
    })
    .nullable(),
  takenDownAt: text().datetime({ offset: true }).nullable(),
  /** The language the advertiser wrote the title in: the page marks it so (absent: Korean). */
  lang: LocaleSchema,
});
export type AdStatus = z.infer<typeof AdStatusSchema>;

/**
 * POST /api/s3/presigned-url/image body (docs/product.md §3.9 Image upload request): `type` is the ad type the
 * image is for, `extension` defaults to png (jpeg is read as jpg), `byteSize` in bytes, at most
 * IMAGE_MAX_BYTES.
 */
export const ImageUploadRequestSchema = z.object({
  type: AdTypeSchema,
  extension: oneLineText('확장자')
    .toLowerCase()
    .transform((value) => (value === 'jpeg' ? 'jpg' : value))
    .pipe(z.enum(['jpg', 'png', 'gif'], { message: AD_FORMAT_MESSAGES.imageType }))
    .default('png'),
  byteSize: z.number().int().positive().max(IMAGE_MAX_BYTES, AD_FORMAT_MESSAGES.imageSize),
});
export type ImageUploadRequest = z.input<typeof ImageUploadRequestSchema>;

/** docs/product.md §3, §5: the answer must carry both, else the upload is an error. */
export const ImageUploadResponseSchema = z.object({ presignedUrl: text().min(1), imageUrl: text().min(1) });
export type ImageUploadResponse = z.infer<typeof ImageUploadResponseSchema>;

/** docs/product.md §3.4 Ad banner: `src` (image URL) and `url` (link, may be empty). `id` and `title` are ours. */
const AdBannerSchema = z.object({
  src: text(),
  url: text(),
  /** Extra: the ad's id, for the click redirect and the impression beacon. */
  id: z.number().int().optional(),
  /** Extra: the ad's title, the banner's alternative text. */
  title: text().optional(),
  /** Extra: the language the title is written in, which the banner marks it with (absent: Korean). */
  lang: LocaleSchema,
});
export type AdBanner = z.infer<typeof AdBannerSchema>;

/** GET /api/web/ads (docs/product.md §7): the in-period web ads in the admins' order. */
export const AdBannerListResponseSchema = z.object({ data: z.array(AdBannerSchema) });
export type AdBannerListResponse = z.infer<typeof AdBannerListResponseSchema>;

/** POST /api/ads/{id}/clicks answer (ours): where the click redirect sends the visitor. */
export const AdClickResponseSchema = z.object({ redirectUrl: text() });

/** docs/product.md §3.10 Generic admin response: success, message, data. */
export const AdminResponseSchema = z.object({
  success: z.boolean(),
  message: text().optional(),
  data: z.unknown().optional(),
});

/** docs/product.md §3.6 Ad request, list view (ours adds status and createdAt). */
export const AdApplicationSummarySchema = z.object({
  id: z.number().int(),
  title: text(),
  /** Extra: pending, approved or rejected. */
  status: z.enum(['pending', 'approved', 'rejected']).optional(),
  /** Extra: ISO instant the application arrived. */
  createdAt: text().datetime({ offset: true }).optional(),
});
export type AdApplicationSummary = z.infer<typeof AdApplicationSummarySchema>;

/** docs/product.md §3.6 Ad request, list view: id and title (and our extras). GET /api/ads/{type}/submit, newest first. */
export const AdApplicationListResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(AdApplicationSummarySchema),
});

/** docs/product.md §3.6 Ad request (admin view). GET /api/ads/{type}/submit/{id}. */
export const AdApplicationDetailSchema = z.object({
  id: z.number().int(),
  title: text(),
  applicantName: text(),
  applicantPhone: text(),
  applicantEmail: text(),
  duration: z.number().int(),
  redirectUrl: text().nullable().optional(),
  contentForManager: text().nullable().optional(),
  imageUrl: text(),
  /** Extra: the chatbot ad message. */
  content: text().nullable().optional(),
  /** Extra: pending, approved or rejected (the spec does not show status names). */
  status: z.enum(['pending', 'approved', 'rejected']).optional(),
  /** Extra: why it was rejected (the reject dialog's reason), or null. */
  rejectReason: text().nullable().optional(),
  /** Extra: when an admin deleted the ad approved from it (ISO), or null while it stands or none was. */
  adTakenDownAt: text().datetime({ offset: true }).nullable().optional(),
});
export const AdApplicationDetailResponseSchema = z.object({ success: z.boolean(), data: AdApplicationDetailSchema });

/** docs/product.md §3.7 Ad (managed): id, title, redirectUrl, imageUrl. GET /api/{type}/ads/list, PUT /api/{type}/ads/bulk. */
const ManagedAdSchema = z.object({
  id: z.number().int(),
  title: text().nullable(),
  redirectUrl: text().nullable(),
  imageUrl: text().nullable(),
  /** Extra: the paid period, ISO instants (start inclusive, end exclusive). */
  startsAt: text().datetime({ offset: true }).optional(),
  endsAt: text().datetime({ offset: true }).optional(),
  /** Extra: impressions and clicks over all days, and on today's KST date. */
  impressions: z.number().int().optional(),
  clicks: z.number().int().optional(),
  todayImpressions: z.number().int().optional(),
  todayClicks: z.number().int().optional(),
  /** Extra: the ad's version, the ISO instant of its last change: an edit names it (AdEditSchema). */
  version: text().datetime({ offset: true }).optional(),
});
export type ManagedAd = z.infer<typeof ManagedAdSchema>;
export const ManagedAdListResponseSchema = z.object({ success: z.boolean(), data: z.array(ManagedAdSchema) });

/**
 * One ad of PUT /api/{type}/ads/bulk (docs/product.md §3.7 Ad, §7): the fields an admin edits. A blank title or
 * link is stored as none; a link must be http(s); an imageUrl other than the ad's own must be an
 * image uploaded for this ad type (POST /api/s3/presigned-url/image). `version` (ours, optional):
 * the ad's version the edit was made on (ManagedAd.version); an edit that changes an ad another
 * admin changed since is refused, the whole list unsaved (409, STALE_EDIT_MESSAGE).
 */
export const AdEditSchema = z.object({
  id: z.number().int().positive(),
  title: optionalText(AD_CHECK_MESSAGES, AD_LIMITS.title, AD_CHECK_MESSAGES.titleOneLine)
    .nullable()
    .transform((value) => value ?? null),
  redirectUrl: redirectUrlCheck(AD_CHECK_MESSAGES)
    .nullable()
    .transform((value) => value ?? null),
  imageUrl: oneLineText('이미지 주소').min(1).max(2048).nullable(),
  version: oneLineText('버전').datetime({ offset: true }).optional(),
});
export type AdEdit = z.output<typeof AdEditSchema>;

/**
 * PUT /api/{type}/ads/bulk body (docs/product.md §7: the list of ads): each ad's fields, and the list's order
 * becomes the ads' order (the reference lost it; here the home banner and the chatbot follow it).
 * Ads of the type left out keep their relative order after the listed ones.
 */
export const AdBulkRequestSchema = z
  .array(AdEditSchema)
  .min(1)
  .max(500)
  .refine((ads) => new Set(ads.map((ad) => ad.id)).size === ads.length, 'each ad id at most once');

/** The longest reject reason (characters; docs/product.md §4.5). */
export const REJECT_REASON_MAX = 500;

/** The reject dialog's message for a reason over REJECT_REASON_MAX. */
export const REJECT_REASON_TOO_LONG = `거절 사유는 ${REJECT_REASON_MAX}자까지 적을 수 있습니다.`;

/**
 * POST /api/ads/{type}/submit/{id}/reject body (ours; docs/product.md §7 shows none, and none is
 * accepted), also the reject dialog's form: an optional reason, line breaks normalized, trimmed, at
 * most REJECT_REASON_MAX characters, free text (contract/strings.ts); absent or blank is none. It is stored with the decision,
 * e-mailed to the applicant, shown on the status page and in the audit log.
 */
export const RejectRequestSchema = z.object({
  reason: z
    .preprocess(
      (value) => (typeof value === 'string' ? normalizeLineBreaks(value) : value),
      freeText().trim().max(REJECT_REASON_MAX, REJECT_REASON_TOO_LONG),
    )
    .optional(),
});
