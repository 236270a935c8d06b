/**
 * The web's configuration, parsed once at start-up by server.ts. A bad value stops the
 * process with a message naming the variable. What pages may show reaches them through one
 * explicit object, `PublicConfig` (AppLoadContext.publicConfig).
 */
import { z } from 'zod';
import { ObservabilityEnvSchema } from '../../contract/observability';
import type { PublicConfig } from '~/utils/public-config';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** An optional secret: at least 32 characters when set. */
const secret = optionalString.pipe(
  z.string().min(32, 'use at least 32 characters (e.g. openssl rand -hex 32)').optional(),
);

/** An optional value that must match `pattern` when set. */
const optionalMatching = (pattern: RegExp, example: string) =>
  optionalString.pipe(z.string().regex(pattern, `expected something like ${example}`).optional());

export const WebEnvSchema = z.object({
  ...ObservabilityEnvSchema.shape,
  /**
   * Remix's mode: development (error details in responses, no caching) only when asked for
   * explicitly; unset or anything else is production, so a forgotten variable leaks nothing.
   */
  NODE_ENV: z
    .string()
    .optional()
    .transform((value): 'development' | 'production' => (value === 'development' ? 'development' : 'production')),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** The api over HTTP; unset → the api runs in-process. */
  API_BASE_URL: optionalString.pipe(z.string().url().optional()),
  /**
   * Express's `trust proxy`: how many proxies in front of the web set X-Forwarded-For (0: none, the
   * socket's address is the phone's). The client address keys the api's rate limits.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** docs/product.md §2, §9: the bank account ad fees are paid to, shown on /ads/apply. All three or none. */
  AD_BANK_NAME: optionalString,
  AD_BANK_ACCOUNT: optionalString,
  AD_BANK_HOLDER: optionalString,
  /** Kakao AdFit ad unit: the first third-party slot; unset → not rendered. */
  KAKAO_ADFIT_UNIT: optionalMatching(/^DAN-[A-Za-z0-9]+$/, 'DAN-abc123'),
  /** Google AdSense publisher and slot: the second third-party slot; both or none. */
  ADSENSE_CLIENT: optionalMatching(/^ca-pub-\d+$/, 'ca-pub-1234567890'),
  ADSENSE_SLOT: optionalMatching(/^\d+$/, '1234567890'),
  /** Where S3-stored images are loaded from (the api's S3_PUBLIC_BASE_URL): allowed in the CSP img-src. */
  S3_PUBLIC_BASE_URL: optionalString.pipe(z.string().url().optional()),
  /**
   * Signs the admin session cookie. Unset → generated once under DATA_DIR on the embedded default;
   * required with API_BASE_URL or DATABASE_URL (production).
   */
  SESSION_SECRET: secret,
  /**
   * The chatbot skill's shared secret (X-Kakao-Skill-Secret), checked at the skill's admission,
   * before a request takes a place or its body is read (app/server/skill.server.ts); the api checks
   * it again. Set it for the web and the api alike; unset → the skill answers 503.
   */
  KAKAO_SKILL_SECRET: secret,
  /** The api's admin bearer token; required here only with API_BASE_URL (in-process, the api's own is used). */
  API_SERVICE_TOKEN: secret,
  /**
   * The session cookie's Secure flag: on in production (NODE_ENV=production), where the site is
   * served over HTTPS. `COOKIE_SECURE=false` turns it off for a plain-HTTP trial on a LAN address.
   */
  COOKIE_SECURE: z.enum(['true', 'false', '']).optional(),
  /** docs/product.md §2/§9 privacy policy: the privacy officer named on /privacypolicy (both or none); unset → the page points to /contact. */
  PRIVACY_OFFICER_NAME: optionalString,
  PRIVACY_OFFICER_EMAIL: optionalString.pipe(z.string().email('expected an e-mail address').optional()),
  /** Google Analytics 4 measurement id (optional); unset → no analytics loaded, no Google host in the CSP. */
  ANALYTICS_ID: optionalMatching(/^G-[A-Z0-9]+$/, 'G-ABC123XYZ9'),
});

export type WebEnv = z.infer<typeof WebEnvSchema> & { secureCookie: boolean };

/** @throws Error naming every bad variable. */
export function parseWebEnv(source: Record<string, string | undefined> = process.env): WebEnv {
  const parsed = WebEnvSchema.superRefine((env, ctx) => {
    const bank = [env.AD_BANK_NAME, env.AD_BANK_ACCOUNT, env.AD_BANK_HOLDER];
    if (bank.some(Boolean) && !bank.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['AD_BANK_NAME'],
        message: 'set AD_BANK_NAME, AD_BANK_ACCOUNT and AD_BANK_HOLDER together',
      });
    }
    for (const name of ['SESSION_SECRET', 'API_SERVICE_TOKEN'] as const) {
      if (env.API_BASE_URL && !env[name]) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'required with API_BASE_URL (openssl rand -hex 32)' });
      }
    }
    if (!env.PRIVACY_OFFICER_NAME !== !env.PRIVACY_OFFICER_EMAIL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PRIVACY_OFFICER_NAME'],
        message: 'set PRIVACY_OFFICER_NAME and PRIVACY_OFFICER_EMAIL together',
      });
    }
    if (!env.ADSENSE_CLIENT !== !env.ADSENSE_SLOT) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADSENSE_CLIENT'],
        message: 'set ADSENSE_CLIENT and ADSENSE_SLOT together',
      });
    }
  }).safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const secureCookie = parsed.data.COOKIE_SECURE
    ? parsed.data.COOKIE_SECURE === 'true'
    : parsed.data.NODE_ENV === 'production';
  return { ...parsed.data, secureCookie };
}

/** The PublicConfig of a parsed env. */
export function publicConfigOf(env: WebEnv): PublicConfig {
  return {
    bankAccount:
      env.AD_BANK_NAME && env.AD_BANK_ACCOUNT && env.AD_BANK_HOLDER
        ? { bank: env.AD_BANK_NAME, number: env.AD_BANK_ACCOUNT, holder: env.AD_BANK_HOLDER }
        : null,
    adSlots: {
      adfitUnit: env.KAKAO_ADFIT_UNIT ?? null,
      adsense: env.ADSENSE_CLIENT && env.ADSENSE_SLOT ? { client: env.ADSENSE_CLIENT, slot: env.ADSENSE_SLOT } : null,
    },
    privacyOfficer:
      env.PRIVACY_OFFICER_NAME && env.PRIVACY_OFFICER_EMAIL
        ? { name: env.PRIVACY_OFFICER_NAME, email: env.PRIVACY_OFFICER_EMAIL }
        : null,
    analyticsId: env.ANALYTICS_ID ?? null,
  };
}
