/**
 * What server.ts promises every response: security headers with a CSP that allows a document's
 * inline scripts by their hashes (ADR 023), compression, the home page made once a second and
 * revalidated by its ETag, long-cached hashed assets, pages painted before the scripts that
 * hydrate them are asked for (ADR 026), and /healthz.
 */
import { expect, test } from './test';
import { pageErrors } from './page-errors';

test('pages carry a CSP allowing their inline scripts by hash, and are compressed', async ({ request }) => {
  const response = await request.get('/faq', { headers: { 'accept-encoding': 'gzip' } });
  const csp = response.headers()['content-security-policy'];
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+[;]/);
  expect(csp).not.toContain('nonce');
  expect(await response.text()).not.toContain('nonce=');
  expect(response.headers()['content-encoding']).toBe('gzip');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  expect(response.headers()['x-powered-by']).toBeUndefined();
});

test('the home page is the same bytes for everyone within a second, compressed once, and answers 304 to its ETag', async ({
  request,
}) => {
  // Two phones at once, one preferring brotli: the same page, each in its encoding.
  const [first, second] = await Promise.all([
    request.get('/?dir=down', { headers: { 'accept-encoding': 'gzip' } }),
    request.get('/?dir=down', { headers: { 'accept-encoding': 'br, gzip' } }),
  ]);
  expect(first.headers()['content-encoding']).toBe('gzip');
  expect(second.headers()['content-encoding']).toBe('br');
  expect(first.headers()['cache-control']).toBe('no-cache');
  const etag = first.headers().etag;
  expect(etag).toMatch(/^W\/"[\w-]+"$/);
  expect(second.headers().etag).toBe(etag);
  expect(await second.text()).toBe(await first.text());
  expect(first.headers()['content-security-policy']).toBe(second.headers()['content-security-policy']);
  expect(await first.text()).not.toContain('home.internal');

  // A phone holding the page of this second gets 304 and no body. The page is made again each
  // second, so one try may straddle the turn: asked again at once, one of three gets its 304.
  const statuses: number[] = [];
  for (let tries = 0; tries < 3 && !statuses.includes(304); tries++) {
    const page = await request.get('/?dir=down');
    const revalidated = await request.get('/?dir=down', { headers: { 'if-none-match': page.headers().etag } });
    statuses.push(revalidated.status());
    if (revalidated.status() === 304) expect(await revalidated.body()).toHaveLength(0);
    else expect(revalidated.headers().etag).not.toBe(page.headers().etag);
  }
  expect(statuses).toContain(304);
});

for (const path of ['/', '/ads/apply', '/faq']) {
  test(`${path} is painted before the scripts that hydrate it are asked for, then hydrates without an error or Intl`, async ({
    page,
  }) => {
    const errors = pageErrors(page);
    // A page's first Intl call starts ICU, tens of milliseconds of a phone's main thread (ADR 026):
    // none while the page loads and hydrates. Each Intl formatter, and the locale methods that use
    // one inside, records its name when called.
    await page.addInitScript(() => {
      const used: string[] = [];
      Object.assign(window, { intlUsed: used });
      const record = <T extends object>(owner: T, name: keyof T & string) => {
        const original = owner[name] as (...args: unknown[]) => unknown;
        owner[name] = new Proxy(original, {
          apply: (target, self, args) => (used.push(name), Reflect.apply(target, self, args)),
          construct: (target, args, newTarget) => (used.push(name), Reflect.construct(target, args, newTarget)),
        }) as T[keyof T & string];
      };
      for (const name of [
        'DateTimeFormat',
        'NumberFormat',
        'Collator',
        'PluralRules',
        'RelativeTimeFormat',
        'ListFormat',
        'DisplayNames',
        'Segmenter',
      ] as const) {
        record(Intl, name);
      }
      record(Number.prototype, 'toLocaleString');
      record(Date.prototype, 'toLocaleString');
      record(Date.prototype, 'toLocaleDateString');
      record(Date.prototype, 'toLocaleTimeString');
      record(String.prototype, 'localeCompare');
      record(String.prototype, 'toLocaleUpperCase');
      record(String.prototype, 'toLocaleLowerCase');
      record(Array.prototype, 'toLocaleString');
    });
    await page.goto(path); // resolves once the page is hydrated (./test)
    const { paint, firstScript } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      firstScript: Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/build/') && entry.name.endsWith('.js'))
          .map((entry) => entry.startTime),
      ),
    }));
    expect(paint).toBeGreaterThan(0);
    expect(firstScript).toBeGreaterThanOrEqual(paint);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { intlUsed: string[] }).intlUsed)).toEqual([]);
  });
}

test('hashed assets are cached for a year as immutable', async ({ request }) => {
  const html = await (await request.get('/')).text();
  // The module script imports them (ADR 026).
  const path = /"(\/build\/[^"]+\.js)"/.exec(html)?.[1];
  expect(path).toBeTruthy();
  const response = await request.get(path!);
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  // Compiled whole on a background thread as it arrives (scripts/build.ts COMPILE_HINT, ADR 026).
  expect((await response.text()).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
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
