/**
 * The web's configuration, parsed once at start-up by server.ts (style.md). A bad value stops the
 * process with a message naming the variable.
 */
import { z } from 'zod';

export const WebEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** The api over HTTP; unset → the api runs in-process. */
  API_BASE_URL: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .pipe(z.string().url().optional()),
});

export type WebEnv = z.infer<typeof WebEnvSchema>;

/** @throws Error naming every bad variable. */
export function parseWebEnv(source: Record<string, string | undefined> = process.env): WebEnv {
  const parsed = WebEnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
