/**
 * Production entry of the web (docs/architecture.md §The parts): one HTTP server with compression, security headers
 * (CSP with a per-request nonce), long-cached hashed assets, GET /healthz and /readyz, the Remix request
 * handler, and the Campus Bus API mounted in-process unless API_BASE_URL points at a separate one.
 * Three answers are served ahead of express: the phones' refresh (ADR 014) and the home page (ADR 023),
 * each made once a second and shared, and the chatbot skill's relay (ADR 024).
 * The in-process api starts polling once the server listens; SIGTERM/SIGINT close it gracefully
 * (lib/lifecycle.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, writeReadableStreamToWritable, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import { HealthResponseSchema } from './contract/bus';
import { setupMessage } from './api/admin/setup';
import { parseApiEnv } from './api/env';
import { failureLog } from './lib/failure-log';
import { serveUntilSignal, startOrExit } from './lib/lifecycle';
import { PACKAGE_ROOT } from './lib/package-root';
import { openApiRuntime } from './api/runtime';
import { storedSecret } from './lib/secrets';
import { cspSources, SCRIPT_HASHES_HEADER } from './app/utils/csp.server';
import { createHomePages } from './app/utils/home-page-cache.server';
import { clientKeysOf } from './lib/client-address';
import { createRequestBodies, limitOf, tooLarge, UNREADABLE } from './app/utils/request-bodies.server';
import { CROSS_SITE_MESSAGE, isAllowedWrite } from './app/utils/csrf.server';
import { createSkillDoor, SKILL_PATH, type UnreadAnswer } from './app/utils/kakao-skill-door.server';
import { hasPlainHost, isAt } from './app/utils/request-path.server';
import { TIME_LEFT_PATH } from './app/utils/arrival';
import { parseWebEnv, publicConfigOf } from './app/utils/env.server';
import type { AdminBinding } from './app/models/session.server';
import { createTimeLeftAnswers } from './app/utils/time-left-cache.server';
import { UpstreamError, upstreamFetch, type ApiBinding } from './app/models/upstream.server';

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
  // React, Express and Remix read it: never development unless asked for (error details stay out of responses).
  process.env.NODE_ENV = env.NODE_ENV;
  const buildPath = join(PACKAGE_ROOT, 'build', 'index.js');
  if (!existsSync(buildPath))
    throw new Error('build/index.js is missing: run `npm run build` first (`npm start` does).');
  const loadBuild = () => import(pathToFileURL(buildPath).href) as Promise<ServerBuild>;
  if (env.API_BASE_URL) {
    // parseWebEnv requires SESSION_SECRET and API_SERVICE_TOKEN with API_BASE_URL (production).
    const api: ApiBinding = { baseUrl: env.API_BASE_URL, fetch: (request) => fetch(request) };
    const admin: AdminBinding = {
      serviceToken: env.API_SERVICE_TOKEN!,
      sessionSecret: env.SESSION_SECRET!,
      secureCookie: env.secureCookie,
    };
    return { env, build: await loadBuild(), api, admin, runtime: null };
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
  const admin: AdminBinding = { serviceToken: runtime.serviceToken, sessionSecret, secureCookie: env.secureCookie };
  return { env, build, api, admin, runtime };
}

const { env, build, api, admin, runtime } = await startOrExit('[web]', prepare);

const publicConfig = publicConfigOf(env);
const csp = cspSources(env, publicConfig);

const app = express();
app.disable('x-powered-by');
// The phone's address keys the api's rate limits: behind TRUST_PROXY proxies, read X-Forwarded-For.
app.set('trust proxy', env.TRUST_PROXY);
app.use(compression());
/** Every header but the CSP (contentSecurityPolicy below). */
const securityHeaders = helmet({ contentSecurityPolicy: false, referrerPolicy: { policy: 'same-origin' } });
/**
 * The CSP. A document's inline scripts are allowed by their hashes (res.locals.scriptSources, set
 * once its HTML is rendered; ADR 023); any other answer runs no inline script.
 */
const contentSecurityPolicy = helmet.contentSecurityPolicy({
  useDefaults: true,
  directives: {
    'script-src': [(_req, res) => (res as express.Response).locals.scriptSources as string, ...csp.script],
    'connect-src': ["'self'", ...csp.connect],
    // blob: the admin's preview of a picked replacement image (an object URL, app/hooks/use-object-url.ts).
    'img-src': ["'self'", 'data:', 'blob:', ...csp.img],
    'frame-src': ["'self'", ...csp.frame],
    'upgrade-insecure-requests': null,
  },
});
/** The script sources of a document whose own scripts' hash sources are `hashes` (app/entry.server.tsx); of any other answer 'self' alone. */
const scriptSourcesOf = (hashes = '') => (hashes ? `'self' ${hashes}` : "'self'");
app.use((req, res, next) => {
  res.locals.scriptSources = scriptSourcesOf();
  securityHeaders(req, res, () => contentSecurityPolicy(req, res, next));
});

/**
 * The security headers of an answer that skips express (the answers served ahead of it below), with the CSP
 * of a document whose own scripts' hash sources are `hashes` (none: an answer that runs no script).
 */
function securityHeadersOf(hashes?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    locals: { scriptSources: scriptSourcesOf(hashes) },
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  const req = {} as IncomingMessage;
  securityHeaders(req, res as unknown as ServerResponse, () => undefined);
  contentSecurityPolicy(req, res as unknown as ServerResponse, () => undefined);
  return headers;
}

// The phones' refresh (GET /bus/time-left): one answer per second, encoded once, served
// ahead of express (ADR 014). The home page's SSR reads the same answer (load context).
const leanHeaders = securityHeadersOf();
const timeLeft = createTimeLeftAnswers({
  api,
  headers: leanHeaders,
  failures: failureLog(console, {
    failing: '[bus/time-left] the api fails; phones get the 502 until it answers:',
    recovered: '[bus/time-left] the api answers again.',
    level: 'error',
  }),
});
/** GET or HEAD of the refresh path (isAt: with or without a trailing slash, any query). */
const isRefresh = (req: IncomingMessage) =>
  (req.method === 'GET' || req.method === 'HEAD') && isAt(req, TIME_LEFT_PATH);
const publicDir = join(PACKAGE_ROOT, 'public');
// The service worker (generated by `npm run build`) is revalidated on every check, so a new
// deployment's worker is found at once; express.static keeps a Cache-Control already set.
app.get('/sw.js', (_req, res, next) => {
  res.set('Cache-Control', 'no-cache');
  next();
});
app.use('/build', express.static(`${publicDir}/build`, { immutable: true, maxAge: '1y' }));
// The other public files (icons, manifest, offline page, worker) are listed once: a page request
// costs no file-system lookup.
const publicFiles = new Set(
  readdirSync(publicDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(publicDir, join(entry.parentPath, entry.name)).split(sep).join('/')}`)
    .filter((path) => !path.startsWith('/build/')),
);
const publicStatic = express.static(publicDir, { maxAge: '1h' });
app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));

// Probes (docs/deploy.md): /healthz is the web's liveness (always 200 while it answers), /readyz
// its readiness (503 unless the api answers and is ready: its database takes a write and its disk
// has room). Both relay the api's report with the failure's kind only (details stay in its logs).
const probe = (path: '/api/healthz' | '/api/readyz', liveness: boolean): express.RequestHandler => {
  // Probes come every few seconds: a run of failures is logged once, and its end.
  const failures = failureLog(console, {
    failing: `[web] ${path} fails; the web answers ${liveness ? "200 'degraded'" : "503 'unavailable'"}:`,
    recovered: `[web] ${path} answers again.`,
    level: 'error',
  });
  return async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    try {
      const response = await upstreamFetch({ api }, path);
      const parsed = HealthResponseSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new UpstreamError(`${path} answered ${response.status} off-contract`, response.status);
      const health = parsed.data;
      const body = { ...health, feed: { ...health.feed, lastError: health.feed.lastError?.split(':')[0] ?? null } };
      if (response.ok) failures.ok();
      // (An api still opening its database is not failing: it says so, and the probe relays it.)
      else if (health.status !== 'starting')
        failures.fail(`${path} answered ${response.status} (${health.failure ?? health.status})`);
      // The api's own 503 (its disk nearly full, its database not taking writes) is relayed with its kind.
      res.status(response.ok ? 200 : 503).json(body);
    } catch (error) {
      failures.fail((error as Error).message);
      // The api answered off-contract, or did not answer.
      const api = error instanceof UpstreamError && error.status !== null ? `answered ${error.status}` : 'unreachable';
      res.status(liveness ? 200 : 503).json({ status: liveness ? 'degraded' : 'unavailable', api });
    }
  };
};
app.get('/healthz', probe('/api/healthz', true));
app.get('/readyz', probe('/api/readyz', false));

// Admin pages hold applicants' contacts and inquiries: never kept by a browser or proxy cache.
// (/admin-only.data is the dashboard's single-fetch data request.)
app.use(['/admin-only', '/admin-only.data'], (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
});

/**
 * This site's host as the browser used it (`host[:port]`): express's hostname, which follows
 * X-Forwarded-Host only behind TRUST_PROXY proxies, with the port of X-Forwarded-Host's first entry
 * or Host (as @remix-run/express reads it). The same host makes Remix's request URL, so the origin check here
 * and the one in the actions (assertSameOrigin) agree.
 */
function hostOf(req: express.Request): string {
  const host = (req.get('x-forwarded-host') ?? req.get('host') ?? '').split(',', 1)[0].trim();
  const port = /:(\d+)$/.exec(host)?.[1];
  return `${req.hostname}${port ? `:${port}` : ''}`;
}

/** What a write from another site is told (app/utils/csrf.server.ts). */
const CROSS_SITE: UnreadAnswer = { status: 403, contentType: 'text/plain; charset=utf-8', body: CROSS_SITE_MESSAGE };

/**
 * Whether `req` (read as express reads it) is a write this site takes on `path` (its own path
 * unless given): from this site's pages, or on a server-to-server path (app/utils/csrf.server.ts).
 */
const allowsWrite = (req: express.Request, path = req.path) =>
  isAllowedWrite(
    req.method,
    path,
    (name) => req.get(name),
    () => hostOf(req),
  );

/** Request bodies: read within their caps and the budget, or refused (app/utils/request-bodies.server.ts). */
const bodies = createRequestBodies({
  headers: leanHeaders,
  clientOf: (req) => clientKeysOf(asExpressRequest(req).ip),
});
const refuseBody = bodies.refuse;

// Writes come from this site's pages only; Remix's own check of document POSTs would throw a
// cross-site one as a 500.
app.use((req, res, next) => (allowsWrite(req) ? next() : refuseBody(req, res, CROSS_SITE)));

/**
 * The Fetch request Remix gets for `req`, with its `body` already read: the URL as the browser
 * used it (hostOf), every header, and a signal that aborts when the client goes away before the
 * answer is sent. (What @remix-run/express does, but for a body read whole and within its cap.)
 * @throws TypeError when the Host (or X-Forwarded-Host) makes no URL.
 */
function remixRequestOf(req: express.Request, res: express.Response, body: Uint8Array<ArrayBuffer> | null): Request {
  const url = new URL(`${req.protocol}://${hostOf(req)}${req.originalUrl}`);
  const controller = new AbortController();
  res.on('close', () => res.writableFinished || controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return new Request(url, { method: req.method, headers, body, signal: controller.signal });
}

const handleRemix = createRequestHandler(build, env.NODE_ENV);
/** What Remix's loaders and actions get besides the request: the phone's address when known (express req.ip). */
const loadContextOf = (clientIp: string | undefined) => ({ api, clientIp, publicConfig, admin, timeLeft });

/**
 * Sends Remix's `response` to `res`. A document's CSP allows its own inline scripts by the hashes
 * its render gave (SCRIPT_HASHES_HEADER, which is not sent; ADR 023).
 */
async function sendRemixResponse(req: express.Request, res: express.Response, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === SCRIPT_HASHES_HEADER) continue;
    // Set-Cookie adds up, a cookie each; any other header of the route's replaces the middleware's
    // (the status page's Referrer-Policy over helmet's), so that it is sent once.
    if (name === 'set-cookie') res.append(name, value);
    else res.setHeader(name, value);
  }
  const hashes = response.headers.get(SCRIPT_HASHES_HEADER);
  if (hashes !== null) {
    res.locals.scriptSources = scriptSourcesOf(hashes);
    contentSecurityPolicy(req, res, () => undefined);
  }
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/**
 * Remix, given each body whole and within its route's cap (bodies.read): an action reads its form at
 * once and never more than the cap.
 */
app.all('*', async (req, res, next) => {
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : await bodies.read(req, res);
  if (body === undefined) return;
  let request: Request;
  try {
    request = remixRequestOf(req, res, body);
  } catch {
    return bodies.unreadable(res);
  }
  try {
    await sendRemixResponse(req, res, await handleRemix(request, loadContextOf(req.ip)));
  } catch (error) {
    next(error);
  }
});

/**
 * The home page's views, each rendered once a second whoever asks (ADR 023). Its HTML depends on
 * no header of the request, so it is rendered from its path and query alone, on an origin of its own.
 */
const homePages = createHomePages({
  render: (url) => handleRemix(new Request(new URL(url, 'http://home.internal')), loadContextOf(undefined)),
  documentHeaders: securityHeadersOf,
});

/** Serves an answer ahead of express; a failure is logged and answered 500. */
const ahead = (label: string, serve: Promise<void>, res: ServerResponse) =>
  void serve.catch((error: unknown) => {
    console.error(`${label} failed:`, error);
    if (!res.headersSent) res.writeHead(500, leanHeaders).end();
  });

/**
 * The chatbot skill (ADR 024): its JSON relayed to the api without express, helmet, compression or
 * Remix, which took most of an answer's time; its bodies read by the same rules as every other.
 */
const skill = createSkillDoor({
  api,
  secret: env.KAKAO_SKILL_SECRET,
  headers: leanHeaders,
  // The secret passed at the door: the body counts against the skill's own pool.
  readBody: (req, res, deadlineMs) => bodies.read(req, res, { pool: 'skill', deadlineMs }),
  refuse: refuseBody,
});
/**
 * `req` read as express reads it (express's request prototype, as app(req, res) would give it),
 * for the skill's answer: its `ip` and `hostname` follow TRUST_PROXY.
 */
const asExpressRequest = (req: IncomingMessage) => Object.setPrototypeOf(req, app.request) as express.Request;
/**
 * The skill's path: a write from another site refused as on every path (Kakao's servers send
 * neither header that makes it one), and a declared body over its cap, then the door, told the
 * caller's address.
 */
function serveSkill(req: IncomingMessage, res: ServerResponse) {
  const request = asExpressRequest(req);
  // With or without its trailing slash, the skill's path is the server-to-server one.
  if (!allowsWrite(request, SKILL_PATH)) return refuseBody(req, res, CROSS_SITE);
  // A declared body over the cap is refused before anything else, as on every path.
  if (Number(req.headers['content-length']) > limitOf(req).maxBytes) return refuseBody(req, res, tooLarge(req));
  ahead('[kakao/skill]', skill.serve(req, res, request.ip), res);
}

const server = createServer((req, res) => {
  // Remix's request URL is made from the Host: one with a path would route the request elsewhere.
  if (!hasPlainHost(req)) return refuseBody(req, res, UNREADABLE);
  if (isRefresh(req)) return ahead('[bus/time-left]', timeLeft.serve(req, res), res);
  if (homePages.serves(req)) return ahead('[home]', homePages.serve(req, res), res);
  if (isAt(req, SKILL_PATH)) return serveSkill(req, res);
  return app(req, res);
});
// `Expect: 100-continue` (curl's way with a large body): a body that cannot be taken is refused
// before the client sends it; otherwise the client is told to go on (Node's default).
server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
  if (bodies.refusedBeforeContinue(req, res)) return;
  res.writeContinue();
  server.emit('request', req, res);
});

// A request must arrive whole within 2 minutes (Node's default is 5), and its body may pause 10 s
// at most (app/utils/request-bodies.server.ts). A phone's 5 MB photo on a slow link fits.
server.requestTimeout = 120_000;

serveUntilSignal(server, {
  port: env.PORT,
  label: `[web] (api ${env.API_BASE_URL ? new URL(env.API_BASE_URL).origin : 'in-process'})`,
  // Pages wait at the door while the in-process api's database opens; the probes say `starting` (ADR 025).
  ready: runtime?.ready,
  onListening: async (firstAnswer) => {
    const started = await runtime?.start(firstAnswer);
    if (started?.setupPath) console.info(`[web] ${setupMessage(`http://localhost:${env.PORT}${started.setupPath}`)}`);
  },
  onClose: async () => {
    await runtime?.close();
  },
});
