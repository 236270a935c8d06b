/**
 * The web's probes (docs/deploy.md): /healthz is its liveness (always 200 while it answers), /readyz
 * its readiness (503 unless the api answers and is ready: its database takes a write and its disk
 * has room). Both relay the api's report with the failure's kind only (details stay in its logs).
 */
import type express from 'express';
import { failureLog } from '../../lib/failure-log';
import { answeredAs } from '~/server/request-metrics.server';
import { getApiHealth } from '~/models/health.server';
import { UpstreamError, type ApiBinding } from '~/models/upstream.server';

/** Serves GET /healthz and /readyz on `app`, relaying the api's (reached through `api`). */
export function serveProbes(app: express.Express, api: ApiBinding): void {
  app.get('/healthz', probe(api, '/api/healthz', true));
  app.get('/readyz', probe(api, '/api/readyz', false));
}

/** The handler that relays the api's probe at `path`: the liveness one answers 200 whatever the api says. */
function probe(api: ApiBinding, path: '/api/healthz' | '/api/readyz', liveness: boolean): express.RequestHandler {
  // Probes come every few seconds: a run of failures is logged once, and its end.
  const failures = failureLog(console, {
    failing: `[web] ${path} fails; the web answers ${liveness ? "200 'degraded'" : "503 'unavailable'"}:`,
    recovered: `[web] ${path} answers again.`,
    level: 'error',
  });
  return async (req, res) => {
    answeredAs(res, req.path);
    res.set('Cache-Control', 'no-store');
    try {
      const { ok, status, health } = await getApiHealth({ api }, path);
      const body = { ...health, feed: { ...health.feed, lastError: health.feed.lastError?.split(':')[0] ?? null } };
      if (ok) failures.ok();
      // (An api still opening its database is not failing: it says so, and the probe relays it.)
      else if (health.status !== 'starting')
        failures.fail(`${path} answered ${status} (${health.failure ?? health.status})`);
      // The api's own 503 (its disk nearly full, its database not taking writes) is relayed with its kind.
      res.status(ok ? 200 : 503).json(body);
    } catch (error) {
      failures.fail((error as Error).message);
      // The api answered off-contract, or did not answer.
      const api = error instanceof UpstreamError && error.status !== null ? `answered ${error.status}` : 'unreachable';
      res.status(liveness ? 200 : 503).json({ status: liveness ? 'degraded' : 'unavailable', api });
    }
  };
}
