/** `npm run start:api`: serves the Campus Bus API alone on API_PORT (default 4000). */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import { setupMessage } from './admin/setup';
import { parseApiEnv } from './env';
import { serveUntilSignal, startOrExit } from './lifecycle';
import { createApiRuntime } from './runtime';

const { env, runtime } = await startOrExit('[api]', async () => {
  const env = parseApiEnv();
  return { env, runtime: await createApiRuntime(env) };
});
serveUntilSignal(createAdaptorServer({ fetch: runtime.app.fetch }) as Server, {
  port: env.API_PORT,
  label: '[api]',
  onListening: async () => {
    await runtime.start();
    // The page is the web's (point a web at this api with API_BASE_URL), so only the path is known here.
    if (runtime.setupPath) console.info(`[api] ${setupMessage(`${runtime.setupPath} on the web`)}`);
  },
  onClose: runtime.close,
});
