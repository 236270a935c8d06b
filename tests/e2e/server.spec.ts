/**
 * What server.ts promises every response: security headers with a per-request
 * CSP nonce on the inline scripts, compression, long-cached hashed assets, and /healthz.
 */
import { expect, test } from '@playwright/test';

test('pages carry a CSP with a fresh nonce that the inline scripts use, and are compressed', async ({ request }) => {
  const first = await request.get('/', { headers: { 'accept-encoding': 'gzip' } });
  const second = await request.get('/');
  const csp = first.headers()['content-security-policy'];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(second.headers()['content-security-policy']).not.toContain(nonce);
  expect(csp).toContain("default-src 'self'");
  expect(await first.text()).toContain(`nonce="${nonce}"`);
  expect(first.headers()['content-encoding']).toBe('gzip');
  expect(first.headers()['x-content-type-options']).toBe('nosniff');
  expect(first.headers()['x-powered-by']).toBeUndefined();
});

test('hashed assets are cached for a year as immutable', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const asset = /src="(\/build\/[^"]+\.js)"|href="(\/build\/[^"]+\.js)"/.exec(html);
  const path = asset?.[1] ?? asset?.[2];
  expect(path).toBeTruthy();
  const response = await request.get(path!);
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('/healthz (liveness) and /readyz (readiness) report the feed for load balancers', async ({ request }) => {
  for (const path of ['/healthz', '/readyz']) {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('no-store');
    const body = await response.json();
    expect(body.status).toBe('ok');
    expect(body.feed).toMatchObject({ source: 'demo', stale: false });
  }
  expect((await (await request.get('/readyz')).json()).database).toBe('ok');
});
