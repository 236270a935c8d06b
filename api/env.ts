/**
 * The api's configuration, parsed once at start-up. A bad value stops the process with a
 * message naming the variable. Every variable is documented in .env.example and the README.
 */
import { z } from 'zod';
import { ObservabilityEnvSchema } from '../contract/observability';
import { mailboxAddress } from './mail/address';
import { pushHostsOf } from './reminders/push-endpoint';
import { vapidPublicKeyOf } from './reminders/push';
import { SECRET_MIN_LENGTH } from '../lib/secrets';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** An absolute http(s) URL, without a trailing slash. */
export const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

export const ApiEnvSchema = z
  .object({
    ...ObservabilityEnvSchema.shape,
    DATABASE_URL: optionalString,
    DATA_DIR: z.string().default('./data'),
    BUS_FEED: z.enum(['demo', 'gbis']).default('demo'),
    GBIS_SERVICE_KEY: optionalString,
    GBIS_BASE_URL: z.string().url().default('https://apis.data.go.kr/6410000'),
    /** Overrides the campus crossroads' GBIS stationId of api/bus/feed/transit-config.ts. */
    GBIS_ARRIVAL_STATION_ID: optionalString,
    /** Overrides routeIds of api/bus/feed/transit-config.ts: "1150=224000001,1117=…". */
    GBIS_ROUTE_IDS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        const pairs = value
          .split(',')
          .map((pair) => pair.trim())
          .filter(Boolean);
        const ids: Record<string, string> = {};
        for (const pair of pairs) {
          const match = /^(\d+)=(\d+)$/.exec(pair);
          if (!match) {
            ctx.addIssue({ code: 'custom', message: `expected routeNo=routeId pairs, got "${pair}"` });
            return z.NEVER;
          }
          ids[match[1]] = match[2];
        }
        return ids;
      }),
    GBIS_DAILY_QUOTA: z.coerce.number().int().positive().default(1000),
    DEMO_SEED: z.coerce.number().int().default(20240604),
    /**
     * The service days of simulated history a new demo deployment starts with (backfillDemoHistory):
     * its predictions and accuracy figure come from them. 0 starts with none, and no start-up
     * back-fill or backtest to wait for (tests of the processes that do not look at the history).
     */
    DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(28).default(28),
    CLOCK_START: optionalString.pipe(z.string().datetime({ offset: true }).optional()),
    API_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
    /** Where ad images live: local disk under DATA_DIR/images, or an S3-compatible store. */
    STORAGE: z.enum(['local', 's3']).default('local'),
    S3_BUCKET: optionalString,
    /** S3 region; R2 uses "auto". */
    S3_REGION: optionalString.transform((value) => value ?? 'us-east-1'),
    /** S3-compatible endpoint (MinIO, R2); unset → AWS. */
    S3_ENDPOINT: optionalString.pipe(httpUrl.optional()),
    /** Path-style addressing (MinIO and most self-hosted stores need it). */
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', ''])
      .optional()
      .transform((value) => value === 'true'),
    /** Credentials; unset → the AWS SDK's default chain (AWS_ACCESS_KEY_ID, instance roles…). */
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    /** Public base URL the images are loaded from (a CDN or public bucket); unset → the web proxies them at /images/. */
    S3_PUBLIC_BASE_URL: optionalString.pipe(httpUrl.optional()),
    /**
     * The most the ad images may take, in MB (2^20 bytes): every upload the api issued and has not
     * removed yet, stored or still uploadable (image_uploads.byte_size). A presign that would go
     * over it answers 507 (ADR 018).
     */
    IMAGE_STORAGE_MAX_MB: z.coerce.number().int().positive().default(1024),
    /**
     * Bearer token of the admin endpoints, held by the web only. Unset → generated once under
     * DATA_DIR on the embedded default; with DATABASE_URL (production) the admin api answers 503.
     */
    API_SERVICE_TOKEN: optionalString.pipe(
      z
        .string()
        .min(SECRET_MIN_LENGTH, `use at least ${SECRET_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`)
        .optional(),
    ),
    /**
     * The push services reminders may be sent to, replacing the browsers' (a comma list of host,
     * `*.host` or host:port; a port on 127.0.0.1 allows plain http there, for tests only).
     */
    PUSH_ENDPOINT_HOSTS: optionalString.superRefine((value, ctx) => {
      try {
        pushHostsOf(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
    /**
     * The VAPID key pair reminders are signed with (RFC 8292; `npx web-push generate-vapid-keys`),
     * base64url, and its contact, a `mailto:` or `https:` URL the push services may write to. All
     * three or none; unset → generated once under DATA_DIR/secrets/ on the embedded default, the
     * contact PUBLIC_BASE_URL; required in production (with DATABASE_URL `npm start` refuses to
     * start without them, and `npm run start:api` answers 503 to reminders). The private key is secret.
     */
    VAPID_PUBLIC_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^B[A-Za-z0-9_-]{86}$/, 'expected a base64url P-256 public key')
        .optional(),
    ),
    VAPID_PRIVATE_KEY: optionalString.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/, 'expected a base64url P-256 private key')
        .optional(),
    ),
    VAPID_SUBJECT: optionalString.pipe(
      z
        .string()
        .refine(
          (value) => /^mailto:.+@.+/.test(value) || /^https:\/\/[^/]+/.test(value),
          'must be a mailto: or https: URL',
        )
        .optional(),
    ),
    /** The X-Kakao-Skill-Secret Open Builder sends to POST /api/kakao/skill; unset → that endpoint answers 503. */
    KAKAO_SKILL_SECRET: optionalString.pipe(
      z
        .string()
        .min(SECRET_MIN_LENGTH, `use at least ${SECRET_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`)
        .optional(),
    ),
    /**
     * The site's public origin ("https://bus.example.com"), for absolute URLs: the chatbot ad cards
     * Kakao fetches and the links in e-mails. https, or http on this machine (localhost, 127.0.0.1)
     * for a trial.
     */
    PUBLIC_BASE_URL: optionalString.pipe(
      httpUrl
        .refine(
          (value) => value.startsWith('https://') || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(value),
          'must be an https URL (Kakao fetches it), or http://localhost for a trial',
        )
        .optional(),
    ),
    /**
     * Where e-mail goes out (docs/deploy.md §E-mail): `smtp://user:password@host:587` (STARTTLS when
     * the server offers it) or `smtps://…:465`. Secret (it holds the password). Unset → no e-mail is
     * sent, and nothing promises one.
     */
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .url()
        .refine((value) => /^smtps?:\/\//.test(value), 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    /** The sender of every e-mail: "외대 버스 <bus@example.com>" or an address; required with SMTP_URL. */
    MAIL_FROM: optionalString.pipe(
      z
        .string()
        .refine((value) => mailboxAddress(value) !== null, 'expected an address, or "Name <address>"')
        .optional(),
    ),
    /** Who hears of a new application or inquiry: comma-separated addresses; empty → nobody. */
    ADMIN_NOTIFY_EMAILS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        const addresses = value
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean);
        for (const address of addresses) {
          if (!z.string().email().safeParse(address).success) {
            ctx.addIssue({ code: 'custom', message: `"${address}" is not an e-mail address` });
            return z.NEVER;
          }
        }
        return addresses;
      }),
    /** docs/product.md §9: the bank account ad fees are paid to, put in the receipt e-mail (as the web shows it on /ads/apply). All three or none. */
    AD_BANK_NAME: optionalString,
    AD_BANK_ACCOUNT: optionalString,
    AD_BANK_HOLDER: optionalString,
    /** docs/product.md §1, §4: `on` starts the deployment with the service-suspension notice on, until an admin saves it. */
    SERVICE_NOTICE: z.enum(['on', 'off', '']).default('off'),
  })
  .refine((env) => env.BUS_FEED !== 'gbis' || env.GBIS_SERVICE_KEY, {
    message: 'GBIS_SERVICE_KEY is required when BUS_FEED=gbis',
    path: ['GBIS_SERVICE_KEY'],
  })
  .refine((env) => env.STORAGE !== 's3' || env.S3_BUCKET, {
    message: 'S3_BUCKET is required when STORAGE=s3',
    path: ['S3_BUCKET'],
  })
  .refine((env) => !env.S3_ACCESS_KEY_ID === !env.S3_SECRET_ACCESS_KEY, {
    message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    path: ['S3_SECRET_ACCESS_KEY'],
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    message: 'MAIL_FROM is required with SMTP_URL',
    path: ['MAIL_FROM'],
  })
  .refine((env) => !env.SMTP_URL || env.PUBLIC_BASE_URL, {
    message: "PUBLIC_BASE_URL is required with SMTP_URL (the e-mails' links are absolute)",
    path: ['PUBLIC_BASE_URL'],
  })
  .refine((env) => [env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY, env.VAPID_SUBJECT].filter(Boolean).length % 3 === 0, {
    message: 'set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together',
    path: ['VAPID_PUBLIC_KEY'],
  })
  .refine(
    (env) =>
      !env.VAPID_PRIVATE_KEY ||
      !env.VAPID_PUBLIC_KEY ||
      vapidPublicKeyOrNull(env.VAPID_PRIVATE_KEY) === env.VAPID_PUBLIC_KEY,
    {
      message: 'is not the public key of VAPID_PRIVATE_KEY',
      path: ['VAPID_PUBLIC_KEY'],
    },
  )
  .refine(
    (env) => {
      const bank = [env.AD_BANK_NAME, env.AD_BANK_ACCOUNT, env.AD_BANK_HOLDER];
      return bank.every(Boolean) || !bank.some(Boolean);
    },
    { message: 'set AD_BANK_NAME, AD_BANK_ACCOUNT and AD_BANK_HOLDER together', path: ['AD_BANK_NAME'] },
  );

export type ApiEnv = z.infer<typeof ApiEnvSchema>;

/** The public key of a VAPID private key, or null when it is not a P-256 private key. */
function vapidPublicKeyOrNull(privateKey: string): string | null {
  try {
    return vapidPublicKeyOf(privateKey);
  } catch {
    return null;
  }
}

/** @throws Error naming every bad variable. */
export function parseApiEnv(source: Record<string, string | undefined> = process.env): ApiEnv {
  const parsed = ApiEnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
