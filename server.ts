/**
 * Production entry of the web (ARCHITECTURE.md): one HTTP server with compression, security headers
 * (CSP with a per-request nonce), long-cached hashed assets, GET /healthz, the Remix request
 * handler, and the Campus Bus API mounted in-process unless API_BASE_URL points at a separate one.
 * SIGTERM/SIGINT close the server gracefully: stop accepting, finish requests, stop the api.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import { HealthResponseSchema } from './contract/bus';
import { SETUP_TOKEN_HOURS } from './api/admin/setup';
import { parseApiEnv } from './api/env';
import { startApiRuntime, type ApiRuntime } from './api/runtime';
import { storedSecret } from './api/secrets';
import { cspSources } from './app/utils/csp.server';
import { CROSS_SITE_MESSAGE, isCrossSiteWrite } from './app/utils/csrf.server';
import { parseWebEnv, publicConfigOf } from './app/utils/env.server';
import type { AdminBinding } from './app/utils/session.server';
import { upstreamJson, type ApiBinding } from './app/utils/upstream.server';

const env = parseWebEnv();
let runtime: ApiRuntime | null = null;
let api: ApiBinding;
let admin: AdminBinding;
if (env.API_BASE_URL) {
  // parseWebEnv requires SESSION_SECRET and API_SERVICE_TOKEN with API_BASE_URL (production).
  api = { baseUrl: env.API_BASE_URL, fetch: (request) => fetch(request) };
  admin = { serviceToken: env.API_SERVICE_TOKEN!, sessionSecret: env.SESSION_SECRET!, secureCookie: env.secureCookie };
} else {
  const apiEnv = parseApiEnv();
  const inProcess = await startApiRuntime(apiEnv);
  runtime = inProcess;
  api = { baseUrl: 'http://api.internal', fetch: async (request) => inProcess.app.fetch(request) };
  // The embedded default keeps its secrets under DATA_DIR; production (DATABASE_URL) passes them in env.
  const sessionSecret =
    env.SESSION_SECRET ?? (inProcess.embedded ? storedSecret(apiEnv.DATA_DIR, 'SESSION_SECRET') : undefined);
  if (!sessionSecret || !inProcess.serviceToken) {
    await inProcess.close();
    throw new Error(
      'Invalid configuration:\n  SESSION_SECRET and API_SERVICE_TOKEN are required with DATABASE_URL ' +
        '(production); generate each with: openssl rand -hex 32',
    );
  }
  admin = { serviceToken: inProcess.serviceToken, sessionSecret, secureCookie: env.secureCookie };
}

const build = (await import(new URL('./build/index.js', import.meta.url).href)) as ServerBuild;

const publicConfig = publicConfigOf(env);
const csp = cspSources(env, publicConfig);

const app = express();
app.disable('x-powered-by');
// The phone's address keys the api's rate limits: behind TRUST_PROXY proxies, read X-Forwarded-For.
app.set('trust proxy', env.TRUST_PROXY);
app.use(compression());
app.use((_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString('base64');
  next();
});
app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`, ...csp.script],
        'connect-src': ["'self'", ...csp.connect],
        'img-src': ["'self'", 'data:', ...csp.img],
        'frame-src': ["'self'", ...csp.frame],
        'upgrade-insecure-requests': null,
      },
    },
    referrerPolicy: { policy: 'same-origin' },
  }),
);
const publicDir = fileURLToPath(new URL('./public', import.meta.url));
app.use('/build', express.static(`${publicDir}/build`, { immutable: true, maxAge: '1y' }));
app.use(express.static(publicDir, { maxAge: '1h' }));

// Public: the feed's state with the failure's kind only (details stay in the api's logs).
app.get('/healthz', async (_req, res) => {
  res.set('Cache-Control', 'no-store');
  try {
    const health = await upstreamJson({ api, cspNonce: '' }, '/api/healthz', HealthResponseSchema);
    res.json({ ...health, feed: { ...health.feed, lastError: health.feed.lastError?.split(':')[0] ?? null } });
  } catch (error) {
    console.error('[web] /healthz: api unreachable:', (error as Error).message);
    res.status(503).json({ status: 'down' });
  }
});

// Admin pages hold applicants' contacts and inquiries: never kept by a browser or proxy cache.
app.use('/admin-only', (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
});

// A cross-site write is refused with 403 here; Remix's own check would throw it as a 500.
app.use((req, res, next) => {
  if (isCrossSiteWrite(req.method, (name) => req.get(name))) {
    res.status(403).type('text/plain; charset=utf-8').send(CROSS_SITE_MESSAGE);
  } else {
    next();
  }
});

app.all(
  '*',
  createRequestHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext: (req, res) => ({
      api,
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip,
      publicConfig,
      admin,
    }),
  }),
);

const server = app.listen(env.PORT, () => {
  const upstream = env.API_BASE_URL ? new URL(env.API_BASE_URL).origin : 'in-process';
  console.info(`[web] listening on http://localhost:${env.PORT} (api ${upstream})`);
  if (runtime?.setupPath) {
    console.info(
      `[web] No admin account yet. Open http://localhost:${env.PORT}${runtime.setupPath} within ` +
        `${SETUP_TOKEN_HOURS} hour to create the first, or stop the server and run: npm run admin:create -- --username NAME`,
    );
  }
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    console.info(`[web] ${signal}: closing`);
    server.close(async () => {
      await runtime?.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
