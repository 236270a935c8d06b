/**
 * The web's HTTP server and the answers it serves ahead of express, helmet, compression and Remix,
 * which took most of their time (the fast paths): the phones' refresh, GET /bus/time-left (ADR 014),
 * and the home page (ADR 023), each made once a second and shared; and the chatbot skill's relay
 * (ADR 024). Every other request goes to express (app/server/edge.server.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type express from 'express';
import { asExpressRequest } from '~/server/express-request.server';
import type { HomePages } from '~/server/home-page-cache.server';
import { SKILL_PATH, type SkillFastPath } from '~/server/skill.server';
import { allowsWrite, CROSS_SITE } from '~/server/origin-check.server';
import { answeredAs, timeRequest } from '~/server/request-metrics.server';
import { requestIdOf } from '../../lib/observability/logs';
import { forRequest } from '../../lib/observability/request-tag';
import { limitOf, tooLarge, UNREADABLE, type RequestBodies } from '~/server/request-bodies.server';
import { hasPlainHost, isAt } from '~/server/request-path.server';
import type { TimeLeftAnswers } from '~/server/time-left-cache.server';
import { TIME_LEFT_PATH } from '~/utils/arrival';

/** GET or HEAD of the refresh path (isAt: with or without a trailing slash, any query). */
const isRefresh = (req: IncomingMessage) =>
  (req.method === 'GET' || req.method === 'HEAD') && isAt(req, TIME_LEFT_PATH);

/**
 * The server: every request timed (app/server/request-metrics.server.ts) and, but for the shared
 * answers' (the refresh, the home), given its id (X-Request-Id: a trusted proxy's, else a new one;
 * the id of its log lines); a Host that is more than `host[:port]` is refused first (Remix's request URL is made
 * from it: one with a path would route the request elsewhere); then the fast paths; then `app`.
 * A request must arrive whole within 2 minutes (Node's default is 5), and its body may pause 10 s
 * at most (`bodies`): a phone's 5 MB photo on a slow link fits.
 * @param app express, for every request but the fast paths'.
 * @param bodies the edge's readers and refusals of request bodies.
 * @param headers the security headers of an answer that runs no script (a failure's 500).
 */
export function createFastPathServer({
  app,
  trustsProxy,
  bodies,
  headers,
  timeLeft,
  homePages,
  skill,
}: {
  app: express.Express;
  /** TRUST_PROXY > 0: a proxy in front sets X-Request-Id (and X-Forwarded-For). */
  trustsProxy: boolean;
  bodies: RequestBodies;
  headers: Record<string, string>;
  timeLeft: TimeLeftAnswers;
  homePages: HomePages;
  skill: SkillFastPath;
}): Server {
  /**
   * The id of a request (X-Request-Id: a trusted proxy's, else a new one), put on the request, where
   * Remix's load context reads it, and on its answer.
   */
  const identify = (req: IncomingMessage, res: ServerResponse): string => {
    const reqId = requestIdOf(req.headers['x-request-id'], trustsProxy);
    req.headers['x-request-id'] = reqId;
    res.setHeader('X-Request-Id', reqId);
    return reqId;
  };

  /**
   * Serves an answer ahead of express; a failure is logged and answered 500, with the request's id.
   * The refresh's and the home's answers are everyone's (one per second): their request is given an
   * id only when one fails, which keeps the tens of thousands of answers a second they serve lean.
   */
  const ahead = (label: string, serve: Promise<void>, req: IncomingMessage, res: ServerResponse) =>
    void serve.catch((error: unknown) => {
      const reqId = String(res.getHeader('X-Request-Id') ?? (res.headersSent ? '' : identify(req, res)));
      console.error(`${label} failed:`, error, forRequest(reqId || undefined));
      if (!res.headersSent) res.writeHead(500, headers).end();
    });

  /**
   * The skill's path: a write from another site refused as on every path (Kakao's servers send
   * neither header that makes it one), and a declared body over its cap, then the skill, told the
   * caller's address (its `ip` as express reads it: TRUST_PROXY).
   */
  function serveSkill(req: IncomingMessage, res: ServerResponse) {
    const request = asExpressRequest(app, req);
    // With or without its trailing slash, the skill's path is the server-to-server one.
    if (!allowsWrite(request, SKILL_PATH)) return bodies.refuse(req, res, CROSS_SITE);
    // A declared body over the cap is refused before anything else, as on every path.
    if (Number(req.headers['content-length']) > limitOf(req).maxBytes) return bodies.refuse(req, res, tooLarge(req));
    ahead('[skill]', skill.serve(req, res, request.ip), req, res);
  }

  const server = createServer((req, res) => {
    timeRequest(req, res);
    if (!hasPlainHost(req)) return bodies.refuse(req, res, UNREADABLE);
    if (isRefresh(req)) {
      answeredAs(res, TIME_LEFT_PATH);
      return ahead('[bus/time-left]', timeLeft.serve(req, res), req, res);
    }
    if (homePages.serves(req)) {
      answeredAs(res, '/');
      return ahead('[home]', homePages.serve(req, res), req, res);
    }
    identify(req, res);
    if (isAt(req, SKILL_PATH)) {
      answeredAs(res, SKILL_PATH);
      return serveSkill(req, res);
    }
    return app(req, res);
  });
  // `Expect: 100-continue` (curl's way with a large body): a body that cannot be taken is refused
  // before the client sends it; otherwise the client is told to go on (Node's default).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (bodies.refusedBeforeContinue(req, res)) return;
    res.writeContinue();
    server.emit('request', req, res);
  });
  server.requestTimeout = 120_000;
  return server;
}
