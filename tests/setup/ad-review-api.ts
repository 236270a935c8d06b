/**
 * The admin side of the ads api, for api/routes/ad-review-*.test.ts: the api with the service token
 * (adsApiFor: the file's test database, and a store, a clock and the api made afresh for each test),
 * and the admin's calls on it: the application lists and decisions, the managed ads, the audit trail.
 */
import { expect } from 'vitest';
import { AuditListResponseSchema } from '../../contract/admin';
import {
  AdBannerListResponseSchema,
  AdApplicationDetailResponseSchema,
  AdApplicationListResponseSchema,
  AdSubmitResponseSchema,
  ManagedAdListResponseSchema,
  type AdType,
} from '../../contract/ads';
import { adApplications, ads } from '../../api/db/schema';
import { adsApiFor, uploadImageThrough } from './ads-api';
import type { TestDatabaseKind } from './db';

export const DAY_MS = 86_400_000;
const TOKEN = 'ad-review-test-service-token-0123456789abcdef';

/** Registers the setup for the file's suite on `kind` (adsApiFor); returns the helpers, read at each call. */
export function adReviewApiFor(kind: TestDatabaseKind) {
  const { db, store, clock, app } = adsApiFor(kind, TOKEN);

  const authorized = { Authorization: `Bearer ${TOKEN}` };
  /** The service token, and the acting admin the web names (X-Admin-User) unless `actor` is null. */
  const asAdmin = (actor: string | null = 'alice') => ({ ...authorized, ...(actor ? { 'X-Admin-User': actor } : {}) });
  const get = (path: string) => app().request(path, { headers: authorized });
  const post = (path: string, actor?: string | null) =>
    app().request(path, { method: 'POST', headers: asAdmin(actor) });
  const applicationList = (type: AdType) => get(`/api/ads/${type}/submit`);
  const detail = (type: AdType, id: number | string) => get(`/api/ads/${type}/submit/${id}`);
  const approve = (type: AdType, id: number | string, actor?: string | null) =>
    post(`/api/ads/${type}/submit/${id}/approve`, actor);
  const reject = (type: AdType, id: number | string, actor?: string | null) =>
    post(`/api/ads/${type}/submit/${id}/reject`, actor);
  const managedList = (type: AdType) => get(`/api/${type}/ads/list`);
  const bulk = (type: AdType, body: unknown, actor: string | null = 'alice') =>
    app().request(`/api/${type}/ads/bulk`, {
      method: 'PUT',
      headers: { ...asAdmin(actor), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const remove = (type: AdType, id: number | string, actor: string | null = 'alice') =>
    app().request(`/api/${type}/ads/${id}`, { method: 'DELETE', headers: asAdmin(actor) });
  const removeApplication = (type: AdType, id: number | string, actor: string | null = 'alice') =>
    app().request(`/api/ads/${type}/submit/${id}`, { method: 'DELETE', headers: asAdmin(actor) });

  /** The application list of `type` (asserting 200 and the contract shape). */
  async function applications(type: AdType) {
    const response = await applicationList(type);
    expect(response.status).toBe(200);
    return AdApplicationListResponseSchema.parse(await response.json()).data;
  }
  /** The managed ad list of `type` (asserting 200 and the contract shape). */
  async function managed(type: AdType) {
    const response = await managedList(type);
    expect(response.status).toBe(200);
    const body = ManagedAdListResponseSchema.parse(await response.json());
    expect(body.success).toBe(true);
    return body.data;
  }
  /** The audit log through GET /api/admin/audit, oldest first, without ids and times. */
  async function auditTrail() {
    const response = await get('/api/admin/audit');
    expect(response.status).toBe(200);
    const entries = AuditListResponseSchema.parse(await response.json()).data;
    return entries
      .reverse()
      .map(({ actor, action, target, before, after }) => ({ actor, action, target, before, after }));
  }
  /** The web banners (GET /api/web/ads) as titles, in the order the home screen rotates them. */
  async function bannerTitles() {
    const banners = AdBannerListResponseSchema.parse(await (await app().request('/api/web/ads')).json());
    return banners.data.map((banner) => banner.title);
  }
  async function detailStatus(type: AdType, id: number) {
    const response = await detail(type, id);
    expect(response.status).toBe(200);
    return AdApplicationDetailResponseSchema.parse(await response.json()).data.status;
  }

  /** An application row inserted directly; returns its id. */
  async function insertApplication(
    values: Partial<typeof adApplications.$inferInsert> & { title: string },
  ): Promise<number> {
    const [row] = await db()
      .insert(adApplications)
      .values({
        type: 'web',
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'owner@example.com',
        redirectUrl: 'https://cafe.example.com/menu',
        imageUrl: '/images/web-00000000-0000-0000-0000-000000000001.png',
        duration: 1,
        confirmed: false,
        status: 'pending',
        createdAt: clock().now(),
        ...values,
      })
      .returning({ id: adApplications.id });
    return row.id;
  }

  const json = (body: unknown, ip: string) => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(body),
  });
  const uploadedImage = async (type: AdType) => (await uploadImageThrough(app(), type)).imageUrl;
  /** Submits an application through the public api (presign → PUT → POST submit); returns its id. */
  async function submitted(type: AdType, overrides: Record<string, unknown> = {}) {
    const imageUrl = await uploadedImage(type);
    const application = {
      type,
      title: `${type} cafe`,
      applicantName: '홍길동',
      applicantPhone: '010-1234-5678',
      applicantEmail: 'owner@example.com',
      redirectUrl: 'https://cafe.example.com/menu',
      contentForManager: '세금계산서 발행 부탁드립니다.',
      imageUrl,
      duration: 2,
      confirmed: false,
      ...(type === 'kakao' ? { content: '점심 10% 할인' } : {}),
      ...overrides,
    };
    const response = await app().request(`/api/ads/${type}/submit`, json(application, '203.0.113.8'));
    expect(response.status).toBe(201);
    const { id } = AdSubmitResponseSchema.parse(await response.json());
    return { id: id!, imageUrl };
  }

  /** Ads of `type` inserted directly, in period and in the given order (positions 0, 1, …); returns their ids. */
  async function insertAds(type: AdType, ...titles: string[]): Promise<number[]> {
    const now = clock().now();
    const rows = await db()
      .insert(ads)
      .values(
        titles.map((title, position) => ({
          type,
          title,
          redirectUrl: `https://${position}.example.com/`,
          imageUrl: `/images/${type}-00000000-0000-0000-0000-00000000000${position}.png`,
          position,
          startsAt: new Date(now.getTime() - DAY_MS),
          endsAt: new Date(now.getTime() + 30 * DAY_MS),
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({ id: ads.id });
    return rows.map((row) => row.id);
  }
  /** The managed list of `type` as the edit page sends it back in PUT bulk: { id, title, redirectUrl, imageUrl }. */
  async function editable(type: AdType) {
    return (await managed(type)).map(({ id, title, redirectUrl, imageUrl }) => ({ id, title, redirectUrl, imageUrl }));
  }

  return {
    db,
    store,
    clock,
    app,
    asAdmin,
    applicationList,
    detail,
    approve,
    reject,
    bulk,
    remove,
    removeApplication,
    applications,
    managed,
    auditTrail,
    bannerTitles,
    detailStatus,
    insertApplication,
    json,
    submitted,
    insertAds,
    editable,
  };
}
