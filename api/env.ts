/**
 * The api's configuration, parsed once at start-up (style.md). A bad value stops the process with a
 * message naming the variable. Every variable is documented in .env.example and the README.
 */
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

export const ApiEnvSchema = z
  .object({
    DATABASE_URL: optionalString,
    DATA_DIR: z.string().default('./data'),
    BUS_FEED: z.enum(['demo', 'gbis']).default('demo'),
    GBIS_SERVICE_KEY: optionalString,
    GBIS_BASE_URL: z.string().url().default('https://apis.data.go.kr/6410000'),
    /** Overrides the campus crossroads' GBIS stationId of api/bus/transit-config.ts. */
    GBIS_ARRIVAL_STATION_ID: optionalString,
    /** Overrides routeIds of api/bus/transit-config.ts: "1150=224000001,1117=…". */
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
    CLOCK_START: optionalString.pipe(z.string().datetime({ offset: true }).optional()),
    API_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
    /** Bearer token of the admin api (/api/admin/*), held by the web only; unset → the admin api answers 503. */
    API_SERVICE_TOKEN: optionalString.pipe(
      z.string().min(32, 'use at least 32 characters (e.g. openssl rand -hex 32)').optional(),
    ),
  })
  .refine((env) => env.BUS_FEED !== 'gbis' || env.GBIS_SERVICE_KEY, {
    message: 'GBIS_SERVICE_KEY is required when BUS_FEED=gbis',
    path: ['GBIS_SERVICE_KEY'],
  });

export type ApiEnv = z.infer<typeof ApiEnvSchema>;

/** @throws Error naming every bad variable. */
export function parseApiEnv(source: Record<string, string | undefined> = process.env): ApiEnv {
  const parsed = ApiEnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
