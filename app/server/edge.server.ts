/**
 * The web's HTTP edge (docs/architecture.md §The parts, ADR 028): the Node HTTP server that stands
 * between the phones and Remix. The fast paths (app/server/fast-paths.server.ts) answer the
 * refresh, the home page and the chatbot skill; express takes every other request: compression,
 * the security headers (app/server/security-headers.server.ts), public/'s files, the probes,
 * no-store on the admin pages, the origin check, then Remix with each body read within its cap.
 */
import type { Server } from 'node:http';
import { join } from 'node:path';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { clientKeysOf } from '../../lib/client-address';
import { failureLog } from '../../lib/failure-log';
import { PACKAGE_ROOT } from '../../lib/package-root';
import type { AdminBinding } from '~/models/session.server';
import type { ApiBinding } from '~/models/upstream.server';
import { cspSources } from '~/server/csp.server';
import { publicConfigOf, type WebEnv } from '~/server/env.server';
import { asExpressRequest } from '~/server/express-request.server';
import { createFastPathServer } from '~/server/fast-paths.server';
import { createHomePages } from '~/server/home-page-cache.server';
import { createSkillFastPath } from '~/server/skill.server';
import { allowsWrite, CROSS_SITE } from '~/server/origin-check.server';
import { serveProbes } from '~/server/probes.server';
import { remixHandler } from '~/server/remix-adapter.server';
import { createRequestBodies } from '~/server/request-bodies.server';
import { remixRoutePatterns } from '~/server/request-metrics.server';
import { createSecurityHeaders } from '~/server/security-headers.server';
import { serveStaticFiles } from '~/server/static-files.server';
import { createTimeLeftAnswers } from '~/server/time-left-cache.server';

/**
 * The web's server, not yet listening.
 * @param env the web's parsed env (parseWebEnv).
 * @param build the Remix build (build/index.js).
 * @param api where the web reaches the api: in-process or over HTTP (ADR 001).
 * @param admin the admin pages' service token and session secret.
 */
export function createEdge({
  env,
  build,
  api,
  admin,
}: {
  env: WebEnv;
  build: ServerBuild;
  api: ApiBinding;
  admin: AdminBinding;
}): Server {
  const publicConfig = publicConfigOf(env);
  const security = createSecurityHeaders(cspSources(env, publicConfig));
  /** The security headers of an answer that runs no script, for the answers that skip express. */
  const headers = security.of();

  // The phones' refresh (GET /bus/time-left): one answer per second, encoded once (ADR 014).
  // The home page's SSR reads the same answer (load context).
  const timeLeft = createTimeLeftAnswers({
    api,
    headers,
    failures: failureLog(console, {
      failing: '[bus/time-left] the api fails; phones get the 502 until it answers:',
      recovered: '[bus/time-left] the api answers again.',
      level: 'error',
    }),
  });
  const handleRemix = createRequestHandler(build, env.NODE_ENV);
  /**
   * What Remix's loaders and actions get besides the request: the phone's address when known
   * (express req.ip) and the request's id (app/server/fast-paths.server.ts), when it is one phone's.
   */
  const loadContextOf = (clientIp: string | undefined, reqId?: string) => ({
    api,
    clientIp,
    reqId,
    publicConfig,
    admin,
    timeLeft,
  });

  const app = express();
  app.disable('x-powered-by');
  // The phone's address keys the api's rate limits: behind TRUST_PROXY proxies, read X-Forwarded-For.
  app.set('trust proxy', env.TRUST_PROXY);
  app.use(compression());
  app.use(security.middleware);
  serveStaticFiles(app, join(PACKAGE_ROOT, 'public'));
  serveProbes(app, api);
  // Admin pages hold applicants' contacts and inquiries: never kept by a browser or proxy cache.
  // (/admin-only.data is the dashboard's single-fetch data request.)
  app.use(['/admin-only', '/admin-only.data'], (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  /** Request bodies: read within their caps and the budget, or refused (app/server/request-bodies.server.ts). */
  const bodies = createRequestBodies({
    headers,
    clientOf: (req) => clientKeysOf(asExpressRequest(app, req).ip),
  });
  app.use((req, res, next) => (allowsWrite(req) ? next() : bodies.refuse(req, res, CROSS_SITE)));
  app.all('*', remixHandler({ handleRemix, routePattern: remixRoutePatterns(build), loadContextOf, bodies, security }));

  /**
   * The home page's views, each rendered once a second per language whoever asks (ADR 023). Its HTML
   * depends on no header of the request but its language, so it is rendered from its path and query
   * alone, asking for that language, on an origin of its own.
   */
  const homePages = createHomePages({
    render: (url, locale) =>
      handleRemix(
        new Request(new URL(url, 'http://home.internal'), { headers: { 'Accept-Language': locale } }),
        loadContextOf(undefined),
      ),
    documentHeaders: security.of,
  });
  /** The chatbot skill (ADR 024): its bodies read by the same rules as every other. */
  const skill = createSkillFastPath({
    api,
    secret: env.KAKAO_SKILL_SECRET,
    headers,
    // Admitted (its secret passed): the body counts against the skill's own pool.
    readBody: (req, res, deadlineMs) => bodies.read(req, res, { pool: 'skill', deadlineMs }),
    refuse: bodies.refuse,
  });
  return createFastPathServer({ app, trustsProxy: env.TRUST_PROXY > 0, bodies, headers, timeLeft, homePages, skill });
}
