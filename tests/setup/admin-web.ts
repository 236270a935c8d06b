/**
 * The admin pages against the real api in-process (tests/setup/web-api.ts), for route tests under
 * app/ (which may not import api/): a signed-in admin's cookie, ad applications and ads seeded through
 * the api's own model, contexts whose api fails in one chosen way, and a server render of a route
 * component with given loader (and action) data, read back as a DOM.
 */
import { mailOff } from '../../api/mail/outbox';
import type { ActionFunctionArgs, AppLoadContext } from '@remix-run/node';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { createOrResetAdmin } from '../../api/admin/accounts';
import { approveApplication, createAdApplication } from '../../api/ads/applications';
import { ads } from '../../api/db/schema';
import type { AdType } from '../../contract/ads';
import { listManagedAds } from '~/models/ads.server';
import { validApplication } from './ads-api';
import { startWebApi, type WebApi } from './web-api';
import { deleteAd } from '../../api/ads/managed';

/** The origin of the web in these tests: requests go to it, and mutating ones carry it as Origin. */
export const WEB_ORIGIN = 'http://localhost';

/** The load context of the admin pages: the api's service token and a session secret (64 characters). */
export function adminContext(api: WebApi, serviceToken: string, overrides: Partial<AppLoadContext> = {}) {
  return api.context({
    admin: { serviceToken, sessionSecret: 'x'.repeat(64), secureCookie: false },
    ...overrides,
  });
}

/**
 * A context like `base` whose api answers `intercept(request)` instead, whenever that returns a
 * response (or throws: an api that cannot be reached); otherwise the real api answers.
 */
export function interceptingContext(
  base: AppLoadContext,
  intercept: (request: Request, url: URL) => Promise<Response | undefined> | Response | undefined,
): AppLoadContext {
  const real = base.api.fetch;
  return {
    ...base,
    api: {
      ...base.api,
      fetch: async (request) => (await intercept(request, new URL(request.url))) ?? real(request),
    },
  };
}

/**
 * Creates admin `username` in the api's database and signs in through the login page's action
 * (`login`, app/routes/admin-only_.login.tsx).
 * @returns the Cookie header value of the new session.
 */
export async function signInAdmin(
  api: WebApi,
  context: AppLoadContext,
  login: (args: ActionFunctionArgs) => Promise<Response>,
  account = { username: 'reviewer', password: 'correct horse battery staple' },
): Promise<string> {
  await createOrResetAdmin(api.db, account, 'test', new Date());
  const body = new URLSearchParams({ ...account, redirectTo: '/admin-only' });
  const response = await login({
    request: new Request(`${WEB_ORIGIN}/admin-only/login`, { method: 'POST', body, headers: { Origin: WEB_ORIGIN } }),
    context,
    params: {},
  });
  expect(response.status).toBe(303);
  return cookieOf(response);
}

/** An admin signed in on the api in-process: the api, a context on it with the service token, and the session cookie. */
export type SignedInAdmin = { api: WebApi; context: AppLoadContext; cookie: string };

/**
 * Starts the api in-process with `serviceToken` (and `options`: startWebApi's) and signs an admin in
 * through `login`, the login route's action. The caller closes `api`.
 */
export async function startSignedInAdmin(
  serviceToken: string,
  login: (args: ActionFunctionArgs) => Promise<Response>,
  options: Omit<Parameters<typeof startWebApi>[0], 'serviceToken'> = {},
): Promise<SignedInAdmin> {
  const api = await startWebApi({ serviceToken, ...options });
  const context = adminContext(api, serviceToken);
  return { api, context, cookie: await signInAdmin(api, context, login) };
}

/** The session check every admin request makes (requireAdmin), as callsDuring lists it. */
export const SESSION_CHECK = 'GET /api/admin/session';

/**
 * Registers, for the file, startSignedInAdmin's api and admin (closed after the file), the ads and
 * requests emptied before each test, and console.error silenced in each (the routes log the
 * failures the tests cause). With `freshClientIp`, each test's context has its own client address,
 * so the api's per-address limits never carry over.
 * @returns getters of the api, the admin's context and cookie, read at each call; and callsDuring.
 */
export function signedInAdminFor(
  serviceToken: string,
  login: (args: ActionFunctionArgs) => Promise<Response>,
  { freshClientIp = false } = {},
) {
  let admin: SignedInAdmin;
  let context: AppLoadContext;
  let ipCounter = 0;
  beforeAll(async () => {
    admin = await startSignedInAdmin(serviceToken, login);
    context = admin.context;
  });
  afterAll(() => admin.api.close());
  beforeEach(async () => {
    await resetAds(admin.api);
    if (freshClientIp) context = adminContext(admin.api, serviceToken, { clientIp: `192.0.2.${++ipCounter}` });
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  /** The api calls made while `run` ran, as "METHOD /path". */
  async function callsDuring(run: () => Promise<unknown>): Promise<string[]> {
    const before = admin.api.calls.length;
    await run();
    return admin.api.calls.slice(before).map((request) => `${request.method} ${new URL(request.url).pathname}`);
  }

  return { api: () => admin.api, context: () => context, cookie: () => admin.cookie, callsDuring };
}

/** The `name=value` of a response's Set-Cookie (the admin session cookie). */
export function cookieOf(response: Response): string {
  const header = response.headers.get('Set-Cookie');
  expect(header).toBeTruthy();
  return header!.split(';')[0];
}

/** Empties the ads tables (applications, ads, uploads, counters, rate limits); admins and sessions stay. */
export async function resetAds(api: WebApi): Promise<void> {
  await api.db.execute(
    sql`TRUNCATE ad_daily_counts, ads, ad_requests, image_uploads, rate_limits RESTART IDENTITY CASCADE`,
  );
}

let seeded = 0;

/**
 * Stores a pending application of `type` the way the api does (its image uploaded through the
 * presigned flow first), with `fields` over a complete one.
 * @returns the application's id.
 */
export async function seedAdApplication(
  api: WebApi,
  type: AdType,
  fields: Partial<{ title: string; redirectUrl: string; contentForManager: string; content: string }> = {},
): Promise<number> {
  seeded += 1;
  const { imageUrl } = await api.uploadImage(type, undefined, `198.51.100.${(seeded % 250) + 1}`);
  const application = validApplication(type, imageUrl, {
    title: `광고 ${seeded}`,
    redirectUrl: 'https://cafe.example.com/menu',
    ...(type === 'kakao' ? { content: '오늘의 메뉴' } : {}),
    ...fields,
  });
  const created = await createAdApplication(api.db, application, new Date(), mailOff);
  expect(created).not.toBeNull();
  return created!.id;
}

/** Approves application `id` of `type` through the api's model. @returns the new ad's id. */
export async function approveAdApplication(api: WebApi, type: AdType, id: number): Promise<number> {
  const ad = await approveApplication(api.db, type, id, 'test', new Date(), mailOff);
  expect(ad).not.toBeNull();
  return ad!.id;
}

/** A pending application of `type` approved at once: the managed ad's id. */
export async function seedAd(api: WebApi, type: AdType, fields: Parameters<typeof seedAdApplication>[2] = {}) {
  return approveAdApplication(api, type, await seedAdApplication(api, type, fields));
}

/** Sets fields of ad `id` directly in the ads table (e.g. nulls the api's own writes never leave). */
export async function updateAd(
  api: WebApi,
  id: number,
  fields: Partial<{ title: string | null; redirectUrl: string | null; imageUrl: string | null; updatedAt: Date }>,
) {
  await api.db.update(ads).set(fields).where(eq(ads.id, id));
}

/** Deletes ad `id` of `type` as an admin's delete does (api/ads/managed.ts deleteAd: its application keeps that it was taken down). */
export async function takeDownAd(api: WebApi, type: AdType, id: number, at = new Date()) {
  expect(await deleteAd(api.db, type, id, 'test', at)).toBe(true);
}

/** Deletes ad `id` directly in the ads table (another admin's delete, meanwhile). */
export async function removeAd(api: WebApi, id: number) {
  await api.db.delete(ads).where(eq(ads.id, id));
}

/** Ad `id`'s counters (all days) as the admins' list shows them, through the api with `serviceToken`. */
export async function adCountsOf(api: WebApi, serviceToken: string, id: number) {
  const ad = (await listManagedAds(adminContext(api, serviceToken), 'test', 'web')).find((row) => row.id === id);
  return { impressions: ad?.impressions, clicks: ad?.clicks };
}

/**
 * The four visits that tell phones apart (ADR 018: once per ad, address and User-Agent, per KST day):
 * a phone, the same phone again, another phone behind its address, the same model at another
 * address, from `ips`. The api counts three of them.
 * @returns each visit's status.
 */
export async function visitFromFourPhones(
  visit: (ip: string, userAgent: string) => Promise<Response>,
  ips: [string, string],
): Promise<number[]> {
  const iPhone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';
  const android = 'Mozilla/5.0 (Linux; Android 15)';
  const visits: [string, string][] = [
    [ips[0], iPhone],
    [ips[0], iPhone],
    [ips[0], android],
    [ips[1], iPhone],
  ];
  const statuses: number[] = [];
  for (const [ip, userAgent] of visits) statuses.push((await visit(ip, userAgent)).status);
  return statuses;
}
