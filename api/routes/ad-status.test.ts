/**
 * GET /api/ads/status/{token} on the real api: the applicant's token from a real submit, the
 * request then decided or deleted as the admins' routes and the domain do, on a fixed clock.
 */
import { sha256Hex } from '../../lib/hash';
import { eq } from 'drizzle-orm';
import { AdStatusSchema, AdSubmitResponseSchema, type AdType } from '../../contract/ads';
import { ApiErrorSchema } from '../../contract/bus';
import { testApi } from '../../tests/setup/api';
import { uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { approveApplication, issueStatusToken } from '../ads/applications';
import type { Api } from '../app';
import { adDailyCounts, adApplications, adStatusTokens, ads } from '../db/schema';
import { mailOff } from '../mail/outbox';

const SERVICE_TOKEN = 'status-test-service-token-0123456789abcdef';
/** 00:30 KST on Monday 2026-11-23: still Sunday 2026-11-22 in UTC. */
const NOW = new Date('2026-11-23T00:30:00+09:00');
const DAY_MS = 86_400_000;

describe.each(testDatabaseKinds)('GET /api/ads/status/:token on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;

  beforeEach(() => {
    store = tempLocalStore();
    clock = new FakeClock(NOW);
    app = testApi({ db: db(), storage: store, clock, serviceToken: SERVICE_TOKEN });
  });
  afterEach(() => store.remove());

  /** Applies for 2 months through the api as the web does, one day before NOW; returns the application's id and token. */
  async function apply(type: AdType = 'web') {
    clock.set(new Date(NOW.getTime() - DAY_MS));
    const { imageUrl } = await uploadImageThrough(app, type);
    const response = await app.request(`/api/ads/${type}/submit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.7' },
      body: JSON.stringify(validApplication(type, imageUrl, { title: '캠퍼스 카페', duration: 2 })),
    });
    expect(response.status).toBe(201);
    const { id, statusToken } = AdSubmitResponseSchema.parse(await response.json());
    clock.set(NOW);
    return { id: id!, token: statusToken! };
  }

  const status = (token: string, ip = '198.51.100.9') =>
    app.request(`/api/ads/status/${token}`, { headers: { 'X-Forwarded-For': ip } });

  async function read(token: string) {
    const response = await status(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    return AdStatusSchema.parse(await response.json());
  }

  async function expectNotFound(token: string) {
    const response = await status(token);
    expect(response.status).toBe(404);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(ApiErrorSchema.parse(await response.json())).toEqual({ message: 'No such status page' });
  }

  it('tells a pending application: type, title, when it came, the months applied for, no period and no counts', async () => {
    const { token } = await apply('kakao');
    expect(await read(token)).toEqual({
      type: 'kakao',
      title: '캠퍼스 카페',
      appliedAt: '2026-11-21T15:30:00.000Z',
      duration: 2,
      status: 'pending',
      rejectReason: null,
      period: null,
      counts: null,
      takenDownAt: null,
    });
  });

  it('tells an approved, running ad its paid period and the last 30 KST days of counters, zero-filled, oldest first', async () => {
    const { id, token } = await apply();
    const approvedAt = new Date(NOW.getTime() - 40 * DAY_MS);
    const ad = await approveApplication(db(), 'web', id, 'alice', approvedAt, mailOff);
    await db()
      .insert(adDailyCounts)
      .values([
        // The day before the window, its first and last days (today in KST; still 11-22 in UTC), and tomorrow.
        { adId: ad!.id, day: '2026-10-24', impressions: 500, clicks: 50 },
        { adId: ad!.id, day: '2026-10-25', impressions: 7, clicks: 1 },
        { adId: ad!.id, day: '2026-11-10', impressions: 20, clicks: 3 },
        { adId: ad!.id, day: '2026-11-23', impressions: 5, clicks: 2 },
        { adId: ad!.id, day: '2026-11-24', impressions: 900, clicks: 90 },
      ]);

    const answer = await read(token);
    expect(answer).toMatchObject({
      status: 'approved',
      rejectReason: null,
      period: { startsAt: '2026-10-13T15:30:00.000Z', endsAt: '2026-12-12T15:30:00.000Z' },
    });
    const days = answer.counts!.days;
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-10-25', impressions: 7, clicks: 1 });
    expect(days[1]).toEqual({ day: '2026-10-26', impressions: 0, clicks: 0 });
    expect(days.find((day) => day.day === '2026-11-10')).toEqual({ day: '2026-11-10', impressions: 20, clicks: 3 });
    expect(days[29]).toEqual({ day: '2026-11-23', impressions: 5, clicks: 2 });
    expect(days.map((day) => day.day)).toEqual([...days.map((day) => day.day)].sort());
    expect(new Set(days.map((day) => day.day)).size).toBe(30);
    expect(answer.counts).toMatchObject({ impressions: 32, clicks: 6 });

    // At 23:59 KST the window still ends on 11-23; a minute past midnight it moves on a day.
    clock.set('2026-11-23T23:59:00+09:00');
    expect((await read(token)).counts!.days.at(-1)?.day).toBe('2026-11-23');
    clock.set('2026-11-24T00:01:00+09:00');
    const next = (await read(token)).counts!;
    expect([next.days[0].day, next.days.at(-1)?.day]).toEqual(['2026-10-26', '2026-11-24']);
    expect(next).toMatchObject({ impressions: 925, clicks: 95 });
  });

  it('shows no counters before the paid period starts, and none once the ad is deleted', async () => {
    const { id, token } = await apply();
    const ad = await approveApplication(db(), 'web', id, 'alice', NOW, mailOff);
    await db()
      .update(ads)
      .set({ startsAt: new Date(NOW.getTime() + DAY_MS) })
      .where(eq(ads.id, ad!.id));
    expect(await read(token)).toMatchObject({
      status: 'approved',
      period: { startsAt: '2026-11-23T15:30:00.000Z' },
      counts: null,
    });

    const deleted = await app.request(`/api/web/ads/${ad!.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${SERVICE_TOKEN}` },
    });
    expect(deleted.status).toBe(200);
    // Taken down before it ran: when, and its period; no counters (it never ran).
    expect(await read(token)).toMatchObject({
      status: 'approved',
      period: { startsAt: '2026-11-23T15:30:00.000Z' },
      counts: null,
      takenDownAt: NOW.toISOString(),
    });
  });

  it('tells a running ad an admin deleted: taken down when, with its period and its counters as they were then', async () => {
    const { id, token } = await apply();
    const ad = await approveApplication(db(), 'web', id, 'alice', new Date(NOW.getTime() - 10 * DAY_MS), mailOff);
    await db()
      .insert(adDailyCounts)
      .values([{ adId: ad!.id, day: '2026-11-20', impressions: 40, clicks: 4 }]);
    const running = await read(token);
    expect(running.takenDownAt).toBeNull();

    const deleted = await app.request(`/api/web/ads/${ad!.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${SERVICE_TOKEN}` },
    });
    expect(deleted.status).toBe(200);
    clock.advance(3 * 24 * 3600);
    const after = await read(token);
    expect(after).toMatchObject({ status: 'approved', takenDownAt: NOW.toISOString(), period: running.period });
    // The counters of the day it came down, not moving on with the clock.
    expect(after.counts).toEqual(running.counts);
    expect(after.counts).toMatchObject({ impressions: 40, clicks: 4 });
  });

  it('tells a rejected application its reason', async () => {
    const { id, token } = await apply();
    await db()
      .update(adApplications)
      .set({ status: 'rejected', decidedAt: NOW, rejectReason: '이미지의 글씨가 너무 작습니다.' })
      .where(eq(adApplications.id, id));
    expect(await read(token)).toMatchObject({
      status: 'rejected',
      rejectReason: '이미지의 글씨가 너무 작습니다.',
      period: null,
      counts: null,
      takenDownAt: null,
    });
  });

  it('answers to every token of the application (an e-mail carries a fresh one), each on its own: one gone, the others still answer', async () => {
    const { id, token } = await apply();
    const emailed = await issueStatusToken(db(), id, NOW);
    expect((await read(emailed)).title).toBe('캠퍼스 카페');
    await db()
      .delete(adStatusTokens)
      .where(eq(adStatusTokens.tokenHash, sha256Hex(token)));
    await expectNotFound(token);
    expect((await read(emailed)).status).toBe('pending');
  });

  it('answers the same 404 for an unknown, a malformed and a deleted request’s token', async () => {
    const { id, token } = await apply();
    await expectNotFound('A'.repeat(43));
    await expectNotFound('short');
    await expectNotFound(`${token}A`);
    await expectNotFound(encodeURIComponent('+'.repeat(43)));

    const deleted = await app.request(`/api/ads/web/submit/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${SERVICE_TOKEN}` },
    });
    expect(deleted.status).toBe(200);
    await expectNotFound(token);
  });

  it('needs no service token, and answers 429 with Retry-After past 30 looks in 10 minutes from one address', async () => {
    const { token } = await apply();
    for (let look = 0; look < 30; look++) expect((await status(token, '198.51.100.50')).status).toBe(200);
    const refused = await status(token, '198.51.100.50');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    // An unknown token spends from the same budget: guessing gains nothing.
    expect((await status('A'.repeat(43), '198.51.100.50')).status).toBe(429);
    expect((await status(token, '198.51.100.51')).status).toBe(200);
  });
});
