/** `npm run start:api`: serves the Campus Bus API alone on API_PORT (default 4000). */
import { serve } from '@hono/node-server';
import { setupMessage } from './admin/setup';
import { parseApiEnv } from './env';
import { startApiRuntime } from './runtime';

const env = parseApiEnv();
const runtime = await startApiRuntime(env);
const server = serve({ fetch: runtime.app.fetch, port: env.API_PORT }, ({ port }) => {
  console.info(`[api] listening on http://localhost:${port}`);
  // The page is the web's (point a web at this api with API_BASE_URL), so only the path is known here.
  if (runtime.setupPath) console.info(`[api] ${setupMessage(`${runtime.setupPath} on the web`)}`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    console.info(`[api] ${signal}: closing`);
    server.close(async () => {
      await runtime.close();
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
