/** `npm run start:api`: serves the Campus Bus API alone on API_PORT (default 4000). */
import { serve } from '@hono/node-server';
import { parseApiEnv } from './env';
import { startApiRuntime } from './runtime';

const env = parseApiEnv();
const runtime = await startApiRuntime(env);
const server = serve({ fetch: runtime.app.fetch, port: env.API_PORT }, ({ port }) => {
  console.info(`[api] listening on http://localhost:${port}`);
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
