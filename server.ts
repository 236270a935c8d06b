/**
 * Production entry of the web (docs/architecture.md §The parts): reads the env, joins the Campus
 * Bus API (in-process, unless API_BASE_URL points at a separate one), builds the web's HTTP edge
 * (app/server/edge.server.ts: the fast paths, express, security headers with a CSP that allows each
 * page's inline scripts by their hashes, static files, probes, capped bodies, Remix) and listens.
 * The in-process api starts polling once the server listens; SIGTERM/SIGINT close it gracefully
 * (lib/lifecycle.ts). This file is the one place that joins app/ and api/.
 */
import { announceSetup } from './api/admin/setup';
import { parseApiEnv } from './api/env';
import { openApiRuntime } from './api/runtime';
import type { AdminBinding } from './app/models/session.server';
import type { ApiBinding } from './app/models/upstream.server';
import { createEdge } from './app/server/edge.server';
import { parseWebEnv } from './app/server/env.server';
import { remixBuildLoader } from './app/server/remix-adapter.server';
import { serveUntilSignal, startOrExit } from './lib/lifecycle';
import { logsArePretty, startLogs } from './lib/observability/logs';
import { storedSecret } from './lib/secrets';

/**
 * Reads the env, then begins to open the api (in-process unless API_BASE_URL) and imports the
 * build meanwhile: the server listens without waiting for the database (ADR 025; its requests wait
 * for it, its probes say `starting`). A missing build fails before the database is opened; a build
 * that fails to load, or missing secrets, close it again. What opening throws (DATA_DIR in use, an
 * unreachable database) stops the process once it listens (serveUntilSignal).
 * @throws on a bad env, a missing build or missing secrets.
 */
async function prepare() {
  const env = parseWebEnv();
  startLogs(env);
  // React, Express and Remix read it: never development unless asked for (error details stay out of responses).
  process.env.NODE_ENV = env.NODE_ENV;
  const loadBuild = remixBuildLoader();
  if (env.API_BASE_URL) {
    // parseWebEnv requires SESSION_SECRET and API_SERVICE_TOKEN with API_BASE_URL (production).
    const api: ApiBinding = { baseUrl: env.API_BASE_URL, fetch: (request) => fetch(request) };
    const admin: AdminBinding = {
      serviceToken: env.API_SERVICE_TOKEN!,
      sessionSecret: env.SESSION_SECRET!,
      secureCookie: env.secureCookie,
    };
    return { env, build: await loadBuild(), api, admin, runtime: null, dataDir: null };
  }
  const apiEnv = parseApiEnv();
  const runtime = openApiRuntime(apiEnv);
  const build = await loadBuild().catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  const api: ApiBinding = { baseUrl: 'http://api.internal', fetch: runtime.fetch };
  // The embedded default keeps its secrets under DATA_DIR; production (DATABASE_URL) passes them in env.
  const sessionSecret =
    env.SESSION_SECRET ?? (runtime.embedded ? storedSecret(apiEnv.DATA_DIR, 'SESSION_SECRET') : undefined);
  if (!sessionSecret || !runtime.serviceToken) {
    await runtime.close();
    throw new Error(
      'Invalid configuration:\n  SESSION_SECRET and API_SERVICE_TOKEN are required with DATABASE_URL ' +
        '(production); generate each with: openssl rand -hex 32',
    );
  }
  if (!runtime.embedded && !apiEnv.VAPID_PRIVATE_KEY) {
    await runtime.close();
    throw new Error(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are required with ' +
        'DATABASE_URL (production); generate the keys with: npx web-push generate-vapid-keys',
    );
  }
  const admin: AdminBinding = { serviceToken: runtime.serviceToken, sessionSecret, secureCookie: env.secureCookie };
  return { env, build, api, admin, runtime, dataDir: apiEnv.DATA_DIR };
}

const { env, build, api, admin, runtime, dataDir } = await startOrExit('[web]', prepare);

serveUntilSignal(createEdge({ env, build, api, admin }), {
  port: env.PORT,
  label: `[web] (api ${env.API_BASE_URL ? new URL(env.API_BASE_URL).origin : 'in-process'})`,
  // Pages wait while the in-process api's database opens; the probes say `starting` (ADR 025).
  ready: runtime?.ready,
  onListening: async (firstAnswer) => {
    const started = await runtime?.start(firstAnswer);
    if (started?.setupPath && dataDir) {
      announceSetup('[web]', `http://localhost:${env.PORT}${started.setupPath}`, {
        dataDir,
        toTerminal: process.stdout.isTTY === true && logsArePretty(env),
      });
    }
  },
  onClose: async () => {
    await runtime?.close();
  },
  metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST },
});
