/**
 * `npm run start:api`: serves the Campus Bus API alone on API_PORT (default 4000). It listens while
 * its database opens, its probes saying `starting` meanwhile (ADR 025).
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import { setupMessage } from './admin/setup';
import { parseApiEnv } from './env';
import { serveUntilSignal, startOrExit } from '../lib/lifecycle';
import { openApiRuntime } from './runtime';

const { env, api } = await startOrExit('[api]', async () => {
  const env = parseApiEnv();
  return { env, api: openApiRuntime(env) };
});
serveUntilSignal(createAdaptorServer({ fetch: api.fetch }) as Server, {
  port: env.API_PORT,
  label: '[api]',
  onListening: async (firstAnswer) => {
    const runtime = await api.start(firstAnswer);
    // The page is the web's (point a web at this api with API_BASE_URL), so only the path is known here.
    if (runtime.setupPath) console.info(`[api] ${setupMessage(`${runtime.setupPath} on the web`)}`);
  },
  onClose: api.close,
  metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST },
});
