/**
 * `npm run start:api`: serves the Campus Bus API alone on API_PORT (default 4000). It listens while
 * its database opens, its probes saying `starting` meanwhile (ADR 025).
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import { announceSetup } from './admin/setup';
import { parseApiEnv } from './env';
import { serveUntilSignal, startOrExit } from '../lib/lifecycle';
import { logsArePretty, startLogs } from '../lib/observability/logs';
import { openApiRuntime } from './runtime';

const { env, api } = await startOrExit('[api]', async () => {
  const env = parseApiEnv();
  startLogs(env);
  return { env, api: openApiRuntime(env) };
});
serveUntilSignal(createAdaptorServer({ fetch: api.fetch }) as Server, {
  port: env.API_PORT,
  label: '[api]',
  onListening: async (firstAnswer) => {
    const runtime = await api.start(firstAnswer);
    // The page is the web's (point a web at this api with API_BASE_URL), so only the path is known here.
    if (runtime.setupPath) {
      announceSetup('[api]', `${runtime.setupPath} on the web`, {
        dataDir: env.DATA_DIR,
        toTerminal: process.stdout.isTTY === true && logsArePretty(env),
      });
    }
  },
  onClose: api.close,
  metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST },
});
