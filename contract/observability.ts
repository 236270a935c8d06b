/**
 * What the web's and the api's env share about being operated (docs/deploy.md §Metrics, §Logs):
 * each entry (server.ts, api/main.ts) parses it with its own env, so a process in-process or alone
 * reads the same variables.
 */
import { z } from 'zod';
import { text } from './strings';

/** An env value, unset when empty or blank (an `.env` copied from .env.example leaves them so). */
const unsetWhenEmpty = text()
  .optional()
  .transform((value) => value?.trim() || undefined);

export const ObservabilityEnvSchema = z.object({
  /** Serves Prometheus text at GET /metrics on METRICS_HOST:METRICS_PORT; unset → no metrics port. */
  METRICS_PORT: unsetWhenEmpty.pipe(z.coerce.number().int().min(1).max(65535).optional()),
  /** Where the metrics port listens: loopback unless the scraper is elsewhere (a container's 0.0.0.0). */
  METRICS_HOST: unsetWhenEmpty.transform((value) => value ?? '127.0.0.1'),
  /**
   * `json`: one JSON object per line (what a log system reads); `pretty`: human-readable lines.
   * Unset → pretty on a terminal, JSON otherwise.
   */
  LOG_FORMAT: unsetWhenEmpty.pipe(z.enum(['json', 'pretty']).optional()),
  /** The least severe level logged. */
  LOG_LEVEL: unsetWhenEmpty.pipe(z.enum(['debug', 'info', 'warn', 'error']).default('info')),
});

export type ObservabilityEnv = z.infer<typeof ObservabilityEnvSchema>;
