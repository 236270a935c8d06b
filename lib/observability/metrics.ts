/**
 * The process's Prometheus metrics (docs/deploy.md §Metrics): one prom-client registry with Node's
 * default metrics (process_resident_memory_bytes, nodejs_eventloop_lag_seconds, …), the request
 * durations the web's edge and the api record, and the refusals at the door. The api adds its own
 * (the feed, the outbox, the predictions: api/metrics.ts) to the same registry. `serveMetrics`
 * serves it on a port of its own, never the public one.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** The one registry of this process: the web's and the api's metrics, in-process or alone. */
export const registry = new Registry();

/**
 * The resolution (ms) of the event loop histogram behind the metrics
 * `nodejs_eventloop_lag_{min,mean,p50,p90,p99,max}_seconds` (prom-client's, from
 * perf_hooks.monitorEventLoopDelay). Each sample is the time between two ticks of its timer, this
 * long apart on a free loop: an idle process reads about 10 ms, and the loop's delay is a figure
 * less this (docs/deploy.md §Metrics).
 */
export const EVENT_LOOP_RESOLUTION_MS = 10;

collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS });

/**
 * Every answered request, by method, route pattern (never a raw URL: `/ads/status/:token`) and
 * status code, in seconds from its arrival to its last byte handed to the socket.
 */
export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request’s arrival to its answer’s end, seconds, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** Requests refused at the door, by why: `body_cap` (413), `origin` (403), `busy` (the body budget's 503). */
export const doorRefusals = new Counter({
  name: 'campus_bus_door_refusals_total',
  help: 'Requests refused before they reached a handler, by reason: body_cap (413), origin (403), busy (503).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** Requests a rate limiter refused (429), by limiter (api/rate-limit.ts names). */
export const rateLimitRefusals = new Counter({
  name: 'campus_bus_rate_limit_refusals_total',
  help: 'Requests refused by a rate limiter (429), by limiter.',
  labelNames: ['limiter'] as const,
  registers: [registry],
});

/**
 * Serves the registry as Prometheus text at GET /metrics on host:port (METRICS_HOST,
 * METRICS_PORT); anything else answers 404.
 * @returns the listening server (close it on shutdown).
 * @throws when the port cannot be bound (in use, not allowed).
 */
export async function serveMetrics(port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
