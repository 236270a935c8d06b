/**
 * The split deployment the ads stories run against (playwright.config.ts starts it): the api alone
 * on ADS_API_PORT with a service token, and a web on ADS_WEB_PORT that reaches it over HTTP and
 * trusts one proxy hop. Helpers read what the api stored, as an admin's web would.
 */
import { expect, type APIRequestContext } from '@playwright/test';

/** E2E_PORT_OFFSET shifts every e2e port, so two runs on one machine do not collide. */
export const E2E_PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
export const ADS_WEB_PORT = 3110 + E2E_PORT_OFFSET;
export const ADS_API_PORT = 3111 + E2E_PORT_OFFSET;
export const ADS_WEB_URL = `http://localhost:${ADS_WEB_PORT}`;
export const ADS_API_URL = `http://127.0.0.1:${ADS_API_PORT}`;
/** A web whose api (API_BASE_URL on API_DOWN_API_PORT) never runs. */
export const API_DOWN_WEB_PORT = 3112 + E2E_PORT_OFFSET;
export const API_DOWN_API_PORT = 3113 + E2E_PORT_OFFSET;
export const API_DOWN_WEB_URL = `http://localhost:${API_DOWN_WEB_PORT}`;
export const E2E_SERVICE_TOKEN = 'e2e-service-token-0123456789abcdef0123';
/** KAKAO_SKILL_SECRET of the main e2e server, test only. */
export const E2E_KAKAO_SKILL_SECRET = 'e2e-kakao-skill-secret-0123456789abcdef';

/** The api's service-token header (the admin endpoints), as the web sends it. */
export const SERVICE_AUTH = { Authorization: `Bearer ${E2E_SERVICE_TOKEN}` };

/** A client address of its own for each test (the web trusts X-Forwarded-For from one proxy). */
export function phoneIp(seed: number): string {
  return `198.51.100.${(seed % 250) + 1}`;
}

/** The applications of `type`, newest first, as the api lists them (docs/product.md §7 GET /api/ads/{type}/submit). */
export async function listedApplications(request: APIRequestContext, type: 'web' | 'kakao') {
  const response = await request.get(`${ADS_API_URL}/api/ads/${type}/submit`, { headers: SERVICE_AUTH });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { id: number; title: string }[] }).data;
}

/** One application's detail (docs/product.md §7 GET /api/ads/{type}/submit/{id}). */
export async function applicationDetail(request: APIRequestContext, type: 'web' | 'kakao', id: number) {
  const response = await request.get(`${ADS_API_URL}/api/ads/${type}/submit/${id}`, { headers: SERVICE_AUTH });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

/** Approves an application through the api (docs/product.md §7 POST …/approve), as the admin pages will. */
export async function approve(request: APIRequestContext, type: 'web' | 'kakao', id: number): Promise<void> {
  const response = await request.post(`${ADS_API_URL}/api/ads/${type}/submit/${id}/approve`, { headers: SERVICE_AUTH });
  expect(response.status()).toBe(200);
}

/** The managed ads of `type` with their counters (GET /api/{type}/ads/list). */
export async function managedAds(request: APIRequestContext, type: 'web' | 'kakao') {
  const response = await request.get(`${ADS_API_URL}/api/${type}/ads/list`, { headers: SERVICE_AUTH });
  expect(response.status()).toBe(200);
  return (
    (await response.json()) as {
      data: {
        id: number;
        title: string | null;
        redirectUrl: string | null;
        imageUrl: string | null;
        impressions: number;
        clicks: number;
      }[];
    }
  ).data;
}
