/**
 * Security suite, through the real servers: every page carries the security headers and
 * a CSP that allows its own inline scripts by their hashes (ADR 023), and those alone; no secret's value reaches a page or a script; cross-site writes to the public forms
 * are refused and store nothing; markup and scriptable URLs typed into stored fields never run
 * nor render as links, on the pages that show them. The admin authorization matrix is
 * tests/e2e/admin-authorization.spec.ts (and api/routes/admin-authorization.test.ts); upload abuse
 * and rate limits are proven at the api (api/routes/uploads-signed-urls.test.ts and
 * uploads-limits.test.ts, the routes' tests).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './test';
import { CROSS_SITE_MESSAGE } from '../../app/utils/csrf.server';
import { E2E_SESSION_SECRET, IMAGE_FILES, publicNotice, saveNotice, signIn, storedInquiries } from './admin-deployment';
import {
  ADS_API_URL,
  ADS_WEB_URL,
  E2E_KAKAO_SKILL_SECRET,
  E2E_SERVICE_TOKEN,
  listedApplications,
  phoneIp,
} from './ads-deployment';

const PUBLIC_PAGES = [
  '/',
  '/?tab=down',
  '/faq',
  '/howtouse',
  '/privacypolicy',
  '/contact',
  '/ads/apply',
  '/no-such-page',
];

/**
 * The CSP hash source of each inline script in `html`, computed here apart from
 * app/server/csp.server.ts so the test does not take the app's word for it.
 */
function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter(([tag]) => !/^<script[^>]*\ssrc=/.test(tag))
    .map(([, text]) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
}

/** Asserts the headers server.ts promises on an HTML page, whose `html` is given. */
function expectSecurityHeaders(headers: Record<string, string>, html: string, path: string) {
  const csp = headers['content-security-policy'] ?? '';
  const directive = (name: string) =>
    csp
      .split(';')
      .find((part) => part.trim().startsWith(`${name} `))
      ?.trim();
  const scriptSources = directive('script-src')?.split(' ').slice(1);
  const inline = inlineScriptSources(html);
  expect(inline.length, path).toBeGreaterThan(0);
  // 'self', then exactly the page's inline scripts: no nonce, no 'unsafe-inline'.
  expect(scriptSources, path).toEqual(["'self'", ...new Set(inline)]);
  expect(directive('default-src'), path).toBe("default-src 'self'");
  expect(directive('object-src'), path).toBe("object-src 'none'");
  expect(directive('frame-ancestors'), path).toBe("frame-ancestors 'self'");
  expect(directive('base-uri'), path).toBe("base-uri 'self'");
  expect(directive('form-action'), path).toBe("form-action 'self'");
  expect(headers['x-content-type-options'], path).toBe('nosniff');
  expect(headers['x-frame-options'], path).toBe('SAMEORIGIN');
  expect(headers['referrer-policy'], path).toBe('same-origin');
  expect(headers['strict-transport-security'], path).toMatch(/max-age=\d+/);
  expect(headers['x-powered-by'], path).toBeUndefined();
}

test('every public page carries the security headers and a CSP allowing exactly its inline scripts', async ({
  request,
}) => {
  for (const path of [...PUBLIC_PAGES, '/admin-only/login']) {
    const response = await request.get(path);
    expectSecurityHeaders(response.headers(), await response.text(), path);
  }
});

test.describe('on the split deployment', () => {
  test.use({ baseURL: ADS_WEB_URL });

  test('admin pages carry the headers and Cache-Control: no-store', async ({ page }) => {
    await signIn(page, '/admin-only/inquiries');
    for (const path of ['/admin-only', '/admin-only/inquiries', '/admin-only/ads/web', '/admin-only/notice']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      expectSecurityHeaders(response!.headers(), await response!.text(), path);
      expect(response!.headers()['cache-control'], path).toBe('no-store');
    }
    // Their single-fetch data requests too (the dashboard's is /admin-only.data, outside /admin-only/).
    for (const path of ['/admin-only.data', '/admin-only/inquiries.data']) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()['cache-control'], path).toBe('no-store');
    }
  });

  test('no secret’s value is in any page or script the browser loads', async ({ page }) => {
    const secrets = [E2E_SERVICE_TOKEN, E2E_SESSION_SECRET, E2E_KAKAO_SKILL_SECRET];
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (/text\/html|javascript|json/.test(response.headers()['content-type'] ?? '')) {
        bodies.push(await response.text().catch(() => ''));
      }
    });
    for (const path of [...PUBLIC_PAGES, '/admin-only/login']) await page.goto(path);
    await signIn(page, '/admin-only');
    await page.goto('/admin-only/notice');
    expect(bodies.length).toBeGreaterThan(20);
    for (const secret of secrets) expect(bodies.some((body) => body.includes(secret))).toBe(false);
  });

  test('cross-site writes to the public forms are refused and store nothing', async ({ request }) => {
    const before = (await storedInquiries(request)).length;
    const applicationsBefore = (await listedApplications(request, 'web')).length;
    const evil = { Origin: 'https://evil.example', 'X-Forwarded-For': phoneIp(201) };
    const writes = [
      request.post('/contact', { headers: evil, form: { content: 'cross-site 문의' } }),
      request.post('/ads/apply', { headers: evil, multipart: { type: 'web', title: 'cross-site' } }),
      request.post('/ads/impressions', { headers: evil, data: { ids: [1] } }),
      request.post('/api/kakao/skill', {
        headers: { ...evil, 'X-Kakao-Skill-Secret': E2E_KAKAO_SKILL_SECRET },
        data: { userRequest: { utterance: '버스' } },
      }),
      request.post('/admin-only/login', { headers: evil, form: { username: 'e2e-admin', password: 'x' } }),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.status(), response.url()).toBe(403);
      expect(await response.text()).toBe(CROSS_SITE_MESSAGE);
      expect(response.headers()['set-cookie']).toBeUndefined();
    }
    expect(await storedInquiries(request)).toHaveLength(before);
    expect(await listedApplications(request, 'web')).toHaveLength(applicationsBefore);
  });

  test('markup and scriptable URLs in stored fields never run nor render as links', async ({ page, request }) => {
    const tag = `x${Date.now() % 100_000}`;
    const markup = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script><a href="javascript:window.__xss=1">${tag}</a>`;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // An inquiry and an ad application carrying the markup, stored through the api as the web would.
    const ip = phoneIp(202);
    expect(
      (
        await request.post(`${ADS_API_URL}/api/inquiries`, {
          headers: { 'X-Forwarded-For': ip },
          data: { content: markup },
        })
      ).status(),
    ).toBe(201);
    const png = readFileSync(IMAGE_FILES.web);
    const upload = await request.post(`${ADS_API_URL}/api/s3/presigned-url/image`, {
      headers: { 'X-Forwarded-For': ip },
      data: { type: 'web', extension: 'png', byteSize: png.byteLength },
    });
    const { presignedUrl, imageUrl } = (await upload.json()) as { presignedUrl: string; imageUrl: string };
    expect((await request.put(presignedUrl, { headers: { 'Content-Type': 'image/png' }, data: png })).status()).toBe(
      204,
    );
    const submit = await request.post(`${ADS_API_URL}/api/ads/web/submit`, {
      headers: { 'X-Forwarded-For': ip },
      data: {
        type: 'web',
        title: `${tag}<script>window.__xss=1</script>`, // 50 characters at most
        applicantName: '<b onmouseover="__xss=1">김</b>',
        applicantPhone: '01012345678',
        applicantEmail: 'shop@example.com',
        contentForManager: markup,
        imageUrl,
        duration: 1,
      },
    });
    expect(submit.status()).toBe(201);
    const { id } = (await submit.json()) as { id: number };
    // A scriptable link is refused at the door.
    const refused = await request.post(`${ADS_API_URL}/api/ads/web/submit`, {
      headers: { 'X-Forwarded-For': ip },
      data: {
        type: 'web',
        title: tag,
        applicantName: '김',
        applicantPhone: '01012345678',
        applicantEmail: 'a@b.co',
        redirectUrl: 'javascript:alert(1)',
        imageUrl,
        duration: 1,
      },
    });
    expect(refused.status()).toBe(400);
    // The notice, shown on every phone's home screen.
    const notice = await publicNotice(request);
    await saveNotice(request, { enabled: true, title: `${tag}<script>window.__xss=1</script>`, text: markup });
    try {
      const pagesShowingIt: [string, string][] = [
        ['/', tag],
        ['/admin-only/inquiries', tag],
        [`/admin-only/ads/web/confirm/${id}`, tag],
        ['/admin-only/ads/web', tag],
        ['/admin-only/audit', 'notice'],
      ];
      await signIn(page, '/admin-only/inquiries');
      for (const [path, text] of pagesShowingIt) {
        await page.goto(path);
        await expect(page.getByText(text).first(), path).toBeVisible();
        await expectNothingRan(page, path);
      }
      expect(dialogs).toEqual([]);
    } finally {
      await saveNotice(request, notice);
    }
  });
});

async function expectNothingRan(page: Page, path: string) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), path).toBeUndefined();
  // The markup is text: no element from it, and no scriptable link anywhere.
  expect(await page.locator('img[onerror], [onmouseover], a[href^="javascript:" i]').count(), path).toBe(0);
  expect(
    await page
      .locator('script')
      .evaluateAll((scripts) => scripts.filter((script) => script.textContent === 'window.__xss=1').length),
    path,
  ).toBe(0);
}
