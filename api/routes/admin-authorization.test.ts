/**
 * The service token guards every admin endpoint (docs/product.md §6: admin endpoints require a service
 * token that only the web holds). ENDPOINTS lists them all, each with a request that succeeds with
 * the token; a test checks the list against the routes the api registers, so a new admin route that
 * is not added here fails.
 */
import { asc } from 'drizzle-orm';
import type { AdType } from '../../contract/ads';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { createOrResetAdmin, signIn } from '../admin/accounts';
import { saveNotice } from '../admin/notice';
import type { Api } from '../app';
import {
  adminSessions,
  adminUsers,
  adApplications,
  ads,
  auditLog,
  inquiries,
  rateLimits,
  settings,
} from '../db/schema';

const TOKEN = 'authorization-test-service-token-0123456789abcdef';
const PASSWORD = 'seeded password, never shown';

/** What the seeded database holds that no refused request may show. */
const SECRETS = {
  username: 'seeded-admin',
  applicationTitle: 'Seeded application title',
  applicantEmail: 'seeded-applicant@example.com',
  adTitle: 'Seeded ad title',
  adLink: 'https://seeded-ad.example.com/',
  inquiry: 'Seeded inquiry content',
  noticeTitle: 'Seeded notice title',
};

type Seed = { sessionId: string; applicationId: number; otherApplicationId: number; adId: number; inquiryId: number };
type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route as the api registers it (Hono's app.routes); null for a path no route serves. */
  route: string | null;
  path: (seed: Seed) => string;
  headers?: (seed: Seed) => Record<string, string>;
  body?: (seed: Seed) => unknown;
  /** The status with the right token, in this order, on the seeded database. */
  ok: number;
};

const TYPE = '{web|kakao}';
const ID = '{[0-9]+}';
const applicationPath = (type: AdType, id: number) => `/api/ads/${type}/submit/${id}`;

/** Every admin endpoint, in an order in which each request succeeds with the token. */
const ENDPOINTS: Endpoint[] = [
  // Sign-in and sessions (admin-auth.ts).
  {
    method: 'POST',
    route: '/api/admin/login',
    path: () => '/api/admin/login',
    body: () => ({ username: SECRETS.username, password: PASSWORD }),
    ok: 200,
  },
  {
    method: 'GET',
    route: '/api/admin/session',
    path: () => '/api/admin/session',
    headers: (seed) => ({ 'X-Admin-Session': seed.sessionId }),
    ok: 200,
  },
  {
    method: 'DELETE',
    route: '/api/admin/session',
    path: () => '/api/admin/session',
    headers: (seed) => ({ 'X-Admin-Session': seed.sessionId }),
    ok: 204,
  },
  // An admin exists, so setup is over (404) even with the token; admin-auth.test.ts covers a fresh start.
  { method: 'GET', route: '/api/admin/setup', path: () => '/api/admin/setup?token=some-token', ok: 404 },
  {
    method: 'POST',
    route: '/api/admin/setup',
    path: () => '/api/admin/setup',
    body: () => ({ token: 'some-token', username: 'newcomer', password: PASSWORD }),
    ok: 404,
  },
  // The admin pages' data (admin.ts).
  { method: 'GET', route: '/api/admin/backtest', path: () => '/api/admin/backtest?days=1', ok: 200 },
  { method: 'GET', route: '/api/admin/notice', path: () => '/api/admin/notice', ok: 200 },
  {
    method: 'PUT',
    route: '/api/admin/notice',
    path: () => '/api/admin/notice',
    // On the version seeded (saved at the seed's clock), as the admin page would have read it.
    body: () => ({ enabled: true, title: 'Changed', text: 'Changed', version: '2026-11-23T01:00:00.000Z' }),
    ok: 200,
  },
  { method: 'GET', route: '/api/admin/feed', path: () => '/api/admin/feed', ok: 200 },
  {
    method: 'POST',
    route: '/api/admin/timetable-restarts',
    path: () => '/api/admin/timetable-restarts',
    body: () => ({ routeNo: '1150', since: '2026-11-20' }),
    ok: 201,
  },
  { method: 'GET', route: '/api/admin/inquiries', path: () => '/api/admin/inquiries', ok: 200 },
  // E-mail is off in this api (no outbox): the reply and the resend are refused, after the guard.
  {
    method: 'POST',
    route: `/api/admin/inquiries/:id${ID}/reply`,
    path: (seed) => `/api/admin/inquiries/${seed.inquiryId}/reply`,
    body: () => ({ reply: '답변' }),
    ok: 409,
  },
  { method: 'GET', route: '/api/admin/mail', path: () => '/api/admin/mail', ok: 200 },
  { method: 'POST', route: `/api/admin/mail/:id${ID}/resend`, path: () => '/api/admin/mail/1/resend', ok: 409 },
  // The GBIS setup (gbis-setup.ts): this api runs the demo feed, so discovery is refused; an empty
  // setup is refused as a body (400), after the guard.
  { method: 'GET', route: '/api/admin/gbis', path: () => '/api/admin/gbis', ok: 200 },
  { method: 'POST', route: '/api/admin/gbis/discover', path: () => '/api/admin/gbis/discover', ok: 409 },
  { method: 'PUT', route: '/api/admin/gbis', path: () => '/api/admin/gbis', body: () => ({}), ok: 400 },
  {
    method: 'DELETE',
    route: `/api/admin/inquiries/:id${ID}`,
    path: (seed) => `/api/admin/inquiries/${seed.inquiryId}`,
    ok: 200,
  },
  { method: 'GET', route: '/api/admin/audit', path: () => '/api/admin/audit', ok: 200 },
  // Not a route: the guard answers before the 404, so a probe learns nothing of what exists.
  { method: 'GET', route: null, path: () => '/api/admin/no-such-page', ok: 404 },
  // Ad applications and managed ads (ad-review.ts, docs/product.md §7).
  { method: 'GET', route: `/api/ads/:type${TYPE}/submit`, path: () => '/api/ads/web/submit', ok: 200 },
  {
    method: 'GET',
    route: `/api/ads/:type${TYPE}/submit/:id${ID}`,
    path: (seed) => applicationPath('web', seed.applicationId),
    ok: 200,
  },
  {
    method: 'POST',
    route: `/api/ads/:type${TYPE}/submit/:id${ID}/approve`,
    path: (seed) => `${applicationPath('web', seed.applicationId)}/approve`,
    ok: 200,
  },
  {
    method: 'POST',
    route: `/api/ads/:type${TYPE}/submit/:id${ID}/reject`,
    path: (seed) => `${applicationPath('web', seed.otherApplicationId)}/reject`,
    ok: 200,
  },
  {
    method: 'DELETE',
    route: `/api/ads/:type${TYPE}/submit/:id${ID}`,
    path: (seed) => applicationPath('web', seed.otherApplicationId),
    ok: 200,
  },
  { method: 'GET', route: `/api/:type${TYPE}/ads/list`, path: () => '/api/web/ads/list', ok: 200 },
  {
    method: 'PUT',
    route: `/api/:type${TYPE}/ads/bulk`,
    path: () => '/api/web/ads/bulk',
    body: (seed) => [{ id: seed.adId, title: 'Changed', redirectUrl: null, imageUrl: null }],
    ok: 200,
  },
  {
    method: 'DELETE',
    route: `/api/:type${TYPE}/ads/:id${ID}`,
    path: (seed) => `/api/web/ads/${seed.adId}`,
    ok: 200,
  },
];

/** The api's routes that are public on purpose: everything else it registers must be in ENDPOINTS. */
const PUBLIC_ROUTES = [
  'GET /api/bus/timeLeft',
  'GET /api/bus/predicted/all',
  'GET /api/bus/predicted/:routeNo',
  'GET /api/bus/accuracy',
  'POST /api/inquiries',
  `POST /api/ads/:type${TYPE}/submit`,
  'GET /api/ads/status/:token',
  'GET /api/web/ads',
  `POST /api/ads/:id${ID}/impressions`,
  `POST /api/ads/:id${ID}/clicks`,
  'POST /api/s3/presigned-url/image',
  'PUT /api/uploads/:key',
  'GET /api/images/:key',
  'GET /api/healthz',
  'GET /api/readyz',
  'GET /api/notice',
  'POST /api/kakao/skill',
  'POST /api/reminders',
  'DELETE /api/reminders/:id',
  'GET /api/reminders/key',
  'PUT /api/reminders/subscription',
];

/** Authorization headers that are not the service token. */
const WRONG_AUTHORIZATIONS = [
  undefined,
  `Bearer ${TOKEN}x`,
  `Bearer ${TOKEN.slice(0, -1)}`,
  `Bearer ${'x'.repeat(TOKEN.length)}`,
  'Bearer ',
  TOKEN,
  `Basic ${TOKEN}`,
  `Bearer ${TOKEN} extra`,
];

describe.each(testDatabaseKinds)('admin api authorization on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let seed: Seed;

  beforeEach(async () => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    seed = await seedDatabase();
  });
  afterEach(() => store.remove());

  const api = (serviceToken?: string) => testApi({ db: db(), storage: store, clock, serviceToken });

  /** An admin with a session, two pending applications, an ad, an inquiry, a saved notice (and their audit entries). */
  async function seedDatabase(): Promise<Seed> {
    const now = clock.now();
    await createOrResetAdmin(db(), { username: SECRETS.username, password: PASSWORD }, 'cli', now);
    const session = await signIn(db(), { username: SECRETS.username, password: PASSWORD }, '192.0.2.1', now);
    const applicationValues = {
      type: 'web' as const,
      title: SECRETS.applicationTitle,
      applicantName: '홍길동',
      applicantPhone: '01012345678',
      applicantEmail: SECRETS.applicantEmail,
      imageUrl: '/images/web-00000000-0000-0000-0000-000000000001.png',
      duration: 1,
      createdAt: now,
    };
    const [first, second] = await db()
      .insert(adApplications)
      .values([applicationValues, applicationValues])
      .returning({ id: adApplications.id });
    const [ad] = await db()
      .insert(ads)
      .values({
        type: 'web',
        title: SECRETS.adTitle,
        redirectUrl: SECRETS.adLink,
        imageUrl: '/images/web-00000000-0000-0000-0000-000000000002.png',
        position: 0,
        startsAt: now,
        endsAt: new Date(now.getTime() + 86_400_000),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ads.id });
    const [inquiry] = await db()
      .insert(inquiries)
      .values({ content: SECRETS.inquiry, email: 'asker@example.com', createdAt: now })
      .returning({ id: inquiries.id });
    const notice = {
      enabled: true,
      title: SECRETS.noticeTitle,
      text: 'Seeded notice text',
      titleEn: null,
      textEn: null,
    };
    await saveNotice(db(), { ...notice, version: null }, { actor: SECRETS.username, enabledByDefault: false }, now);
    return {
      sessionId: session!.sessionId,
      applicationId: first.id,
      otherApplicationId: second.id,
      adId: ad.id,
      inquiryId: inquiry.id,
    };
  }

  /** Everything the admin endpoints could read or change, to compare before and after. */
  async function everything() {
    return {
      users: await db().select().from(adminUsers).orderBy(asc(adminUsers.id)),
      sessions: await db().select().from(adminSessions).orderBy(asc(adminSessions.idHash)),
      applications: await db().select().from(adApplications).orderBy(asc(adApplications.id)),
      ads: await db().select().from(ads).orderBy(asc(ads.id)),
      audit: await db().select().from(auditLog).orderBy(asc(auditLog.id)),
      settings: await db().select().from(settings).orderBy(asc(settings.key)),
      inquiries: await db().select().from(inquiries).orderBy(asc(inquiries.id)),
      rateLimits: await db().select().from(rateLimits),
    };
  }

  /** Sends `endpoint`'s request through `app`, as the web would, with `authorization` (none when undefined). */
  function send(app: Api, endpoint: Endpoint, authorization: string | undefined) {
    const body = endpoint.body?.(seed);
    return app.request(endpoint.path(seed), {
      method: endpoint.method,
      headers: {
        ...(authorization === undefined ? {} : { Authorization: authorization }),
        'X-Admin-User': SECRETS.username,
        'X-Forwarded-For': '198.51.100.1',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...endpoint.headers?.(seed),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Expects `response` to carry no stored data: exactly `{ message }`, and none of the seeded values. */
  async function expectNothingShown(response: Response, message: string, label: string) {
    const text = await response.text();
    expect(JSON.parse(text), label).toStrictEqual({ message });
    for (const secret of [...Object.values(SECRETS), PASSWORD, seed.sessionId]) {
      expect(text, `${label} shows ${secret}`).not.toContain(secret);
    }
  }

  const label = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path(seed)}`;

  it('lists every admin route the api registers, and nothing public', () => {
    const registered = new Set(
      api(TOKEN)
        .routes.filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method} ${route.path}`),
    );
    const listed = ENDPOINTS.filter((endpoint) => endpoint.route !== null).map(
      (endpoint) => `${endpoint.method} ${endpoint.route}`,
    );
    expect(new Set(listed).size).toBe(listed.length);
    const adminRoutes = [...registered].filter((route) => !PUBLIC_ROUTES.includes(route));
    expect(listed.sort()).toEqual(adminRoutes.sort());
    for (const route of PUBLIC_ROUTES) expect(registered, route).toContain(route);
  });

  it('serves each listed request with the service token (so the refusals below are the guard’s)', async () => {
    const app = api(TOKEN);
    for (const endpoint of ENDPOINTS) {
      const response = await send(app, endpoint, `Bearer ${TOKEN}`);
      expect(response.status, `${label(endpoint)}: ${await response.clone().text()}`).toBe(endpoint.ok);
    }
  });

  it('answers 401 with WWW-Authenticate: Bearer and no stored data without the token or with a wrong one, changing nothing', async () => {
    const app = api(TOKEN);
    const before = await everything();
    for (const endpoint of ENDPOINTS) {
      for (const authorization of WRONG_AUTHORIZATIONS) {
        const response = await send(app, endpoint, authorization);
        const what = `${label(endpoint)} with ${authorization ?? 'no Authorization'}`;
        expect(response.status, what).toBe(401);
        expect(response.headers.get('www-authenticate'), what).toBe('Bearer');
        await expectNothingShown(response, 'Unauthorized', what);
      }
    }
    expect(await everything()).toEqual(before);
  });

  it('answers 503 with no stored data on every endpoint while no service token is configured, changing nothing', async () => {
    const app = api(undefined);
    const before = await everything();
    for (const endpoint of ENDPOINTS) {
      for (const authorization of [undefined, `Bearer ${TOKEN}`, 'Bearer ']) {
        const response = await send(app, endpoint, authorization);
        const what = `${label(endpoint)} with ${authorization ?? 'no Authorization'}`;
        expect(response.status, what).toBe(503);
        await expectNothingShown(response, 'Admin API disabled: API_SERVICE_TOKEN is not set', what);
      }
    }
    expect(await everything()).toEqual(before);
  });
});
