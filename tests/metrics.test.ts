/**
 * The metrics port as a process serves it (docs/deploy.md §Metrics; built: `npm run build`):
 * Prometheus text on METRICS_PORT at 127.0.0.1, never on the public port, with the request
 * durations labelled by route pattern (no token of a URL in a label) and the api's own metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runEntry, type EntryProcess } from './setup/process';

describe('the metrics port', () => {
  let web: EntryProcess;
  let dataDir: string;
  let port: number;
  let metricsPort: number;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-metrics-'));
    [port, metricsPort] = [await freePort(), await freePort()];
    web = runEntry('build/server.js', {
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      CLOCK_START: '2026-11-23T08:00:00+09:00',
    });
    await web.waitFor(/\[bus feed\] demo: this instance polls/);
  }, 90_000);
  afterAll(() => {
    web.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('serves Node’s, the requests’ and the api’s metrics, a route by its pattern, never the token', async () => {
    const token = 'Zq8wS4k1Vb7pHn2mXc5rT9yL';
    for (const path of ['/', '/bus/time-left', `/ads/status/${token}`, '/faq']) {
      await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
    }
    const text = await scrape();
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'campus_bus_feed_age_seconds',
      'campus_bus_feed_polls_total{outcome="ok"}',
      'campus_bus_gbis_daily_quota 1000',
      'campus_bus_mail_outbox_messages{status="pending"} 0',
      'campus_bus_ready 1',
    ]) {
      expect(text).toContain(name);
    }
    for (const route of ['/', '/bus/time-left', '/ads/status/:token', '/faq', '/api/ads/status/:token']) {
      expect(text).toMatch(
        new RegExp(
          `http_request_duration_seconds_count\\{method="GET",route="${route.replace(/[/:]/g, '\\$&')}",status_code="\\d{3}"\\} [1-9]`,
        ),
      );
    }
    expect(text).not.toContain(token);
  });

  it('answers nothing but GET /metrics there, and 404 for /metrics on the public port', async () => {
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(404);
    const publicAnswer = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.text()).not.toContain('http_request_duration_seconds');
  });
});
