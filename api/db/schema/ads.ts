/**
 * The ads' tables (docs/product.md §3): applications, the managed ads with their paid period and order, their
 * daily counters, the image uploads the api issued, and the shared rate-limit buckets.
 */
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { Locale } from '../../../contract/locales';
import type { AdStatus, AdType } from '../../../contract/ads';

/**
 * What an application keeps of its ad once an admin deletes the ad (api/ads/managed.ts deleteAd):
 * when (ISO), the ad's paid period and its counters as the status page showed them then.
 */
export type AdTakenDown = { at: string; period: NonNullable<AdStatus['period']>; counts: AdStatus['counts'] };

/** docs/product.md §3.12 Ad request status: submitted as pending, later approved or rejected by an admin. */
export type AdApplicationStatus = 'pending' | 'approved' | 'rejected';

/** Ad applications (docs/product.md §3.5 Ad application), stored as submitted: pending with `confirmed` false. */
export const adApplications = pgTable(
  'ad_requests',
  {
    id: serial('id').primaryKey(),
    type: text('type').$type<AdType>().notNull(),
    title: text('title').notNull(),
    applicantName: text('applicant_name').notNull(),
    /** Digits only (docs/product.md §5). */
    applicantPhone: text('applicant_phone').notNull(),
    applicantEmail: text('applicant_email').notNull(),
    /** An http(s) URL, or null. */
    redirectUrl: text('redirect_url'),
    /** An imageUrl this api issued and stored (image_uploads). */
    imageUrl: text('image_url').notNull(),
    contentForManager: text('content_for_manager'),
    /** The chatbot ad message; null for web. */
    content: text('content'),
    /** Months (1, 2 or 3; docs/product.md §9). */
    duration: integer('duration').notNull(),
    confirmed: boolean('confirmed').notNull().default(false),
    status: text('status').$type<AdApplicationStatus>().notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When an admin approved or rejected it. */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Why it was rejected (up to 500 characters; docs/product.md §4.5), shown to the applicant; null otherwise. */
    rejectReason: text('reject_reason'),
    /**
     * The ad approved from it, once an admin deleted it: kept for the applicant's status page until
     * the application's own retention ends; null while the ad stands (or none was approved).
     */
    adTakenDown: jsonb('ad_taken_down').$type<AdTakenDown>(),
    /** The page's language it was sent from ('ko' | 'en'): its e-mails' (docs/product.md §1 Languages). */
    locale: text('locale').$type<Locale>().notNull().default('ko'),
    /** The language its title and text are written in, as the advertiser chose on the form (a BCP 47 tag, 'ko' or 'en'). */
    lang: text('lang').$type<Locale>().notNull().default('ko'),
  },
  (table) => [index('ad_requests_by_type').on(table.type, table.status, table.createdAt)],
);

/**
 * The status page links of the ad applications (/ads/status/{token}): each token is 32 random bytes
 * (base64url), stored only as its SHA-256 (hex). The form's answer carries one, and each e-mail to the
 * applicant a fresh one (the stored hash cannot give the token back), so every link handed out
 * keeps working; all die with their application (deleted or purged).
 */
export const adStatusTokens = pgTable(
  'ad_status_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    applicationId: integer('request_id')
      .notNull()
      .references(() => adApplications.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('ad_status_tokens_by_request').on(table.applicationId)],
);

/**
 * The managed ads (docs/product.md §3.7 Ad): shown while `startsAt <= now < endsAt` (the paid period), in
 * ascending `position` per type. An approved application becomes one (api/ads/applications.ts approveApplication).
 */
export const ads = pgTable(
  'ads',
  {
    id: serial('id').primaryKey(),
    type: text('type').$type<AdType>().notNull(),
    title: text('title'),
    redirectUrl: text('redirect_url'),
    imageUrl: text('image_url'),
    /** The chatbot ad message; null for web. */
    content: text('content'),
    /** The language its title and text are written in ('ko' or 'en'; its application's, else Korean): the page marks them so. */
    lang: text('lang').$type<Locale>().notNull().default('ko'),
    position: integer('position').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** The application it was approved from; null for an ad an admin posted directly. */
    applicationId: integer('request_id')
      .unique()
      .references(() => adApplications.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('ads_by_type').on(table.type, table.position)],
);

/** Impressions and clicks per ad per KST day (as Revive Adserver counts them: by beacon and redirect, rolled up per interval). */
export const adDailyCounts = pgTable(
  'ad_daily_counts',
  {
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    /** KST date "yyyy-MM-dd". */
    day: text('day').notNull(),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.adId, table.day] })],
);

/**
 * What happened to an image upload the api issued: `issued` (URL handed out), `receiving` (the one
 * PUT the local store accepts is under way), `stored` (sniffed and kept).
 */
export type ImageUploadStatus = 'issued' | 'receiving' | 'stored';

/**
 * Image uploads issued by POST /api/s3/presigned-url/image: the object key the server chose, the
 * declared type and size, whether the object was stored and sniffed, and who asked for it (as
 * pseudonyms, for the room each client may hold: ADR 027). An application may only use an imageUrl
 * found here as stored; unreferenced ones are removed 30 minutes after issue, by a sweep every 5
 * minutes (ADR 018).
 */
export const imageUploads = pgTable(
  'image_uploads',
  {
    key: text('key').primaryKey(),
    imageUrl: text('image_url').notNull().unique(),
    adType: text('ad_type').$type<AdType>().notNull(),
    contentType: text('content_type').notNull(),
    /** Bytes. */
    byteSize: integer('byte_size').notNull(),
    status: text('status').$type<ImageUploadStatus>().notNull().default('issued'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** When the presigned URL stops working (issuedAt + 10 min). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * The pseudonym of the client's address key that asked for it (api/ads/images.ts uploaderMarks:
     * an HMAC, never the address); null once UNPAID_APPLICATION_DAYS old (the retention job blanks
     * it) and for uploads issued before it was kept.
     */
    uploader: text('uploader'),
    /** The pseudonym of that client's network key (IPv4 /24, IPv6 /48), kept and blanked alike. */
    uploaderNetwork: text('uploader_network'),
  },
  (table) => [
    index('image_uploads_by_issue').on(table.issuedAt),
    index('image_uploads_by_uploader').on(table.uploader),
    index('image_uploads_by_uploader_network').on(table.uploaderNetwork),
  ],
);

/**
 * Rate-limit buckets of rate-limiter-flexible's RateLimiterDrizzle (its required columns: key,
 * points, expire), shared by every api instance on the database.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});
