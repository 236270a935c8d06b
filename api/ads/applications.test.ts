import { eq } from 'drizzle-orm';

import { sha256Hex } from '../../lib/hash';
import { mailOff } from '../mail/outbox';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { listAudit } from '../admin/audit';
import { adApplications, adStatusTokens, ads, imageUploads } from '../db/schema';
import { ACTOR, adRowsIn, at, DAY_MS, NOW } from './ad-rows.fixture';
import { approveApplication, createAdApplication, paidPeriod, rejectApplication } from './applications';

describe('paidPeriod', () => {
  it('runs duration × 30 days of 24 h from the start, whatever the calendar months', () => {
    for (const duration of [1, 2, 3]) {
      const { startsAt, endsAt } = paidPeriod(NOW, duration);
      expect(startsAt).toEqual(NOW);
      expect(endsAt.getTime() - NOW.getTime()).toBe(duration * 30 * DAY_MS);
    }
    // Days, not calendar months: one month from 31 Jan ends on 2 Mar.
    expect(paidPeriod(NOW, 1).endsAt).toEqual(new Date('2026-12-23T10:00:00+09:00'));
    expect(paidPeriod(new Date('2027-01-31T00:00:00+09:00'), 1).endsAt).toEqual(new Date('2027-03-02T00:00:00+09:00'));
  });
});

describe.each(testDatabaseKinds)('ad applications on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const { pendingApplication, insertAd } = adRowsIn(db);

  const applicationRow = async (id: number) =>
    (await db().select().from(adApplications).where(eq(adApplications.id, id)))[0];
  const adCount = async () => (await db().select({ id: ads.id }).from(ads)).length;
  /** The audit log, oldest first, without ids. */
  const audit = async () => (await listAudit(db(), 200)).reverse().map(({ id: _id, ...entry }) => entry);

  describe('createAdApplication', () => {
    const application = {
      type: 'web' as const,
      title: 'Cafe',
      applicantName: '홍길동',
      applicantPhone: '01012345678',
      applicantEmail: 'a@example.com',
      redirectUrl: undefined,
      contentForManager: undefined,
      content: 'ignored for web',
      imageUrl: '/images/web-1.png',
      duration: 2 as const,
      confirmed: false as const,
    };
    const upload = (status: 'issued' | 'stored') => ({
      key: 'web-1.png',
      imageUrl: '/images/web-1.png',
      adType: 'web' as const,
      contentType: 'image/png',
      byteSize: 10,
      status,
      issuedAt: NOW,
      expiresAt: at(600_000),
    });

    it('stores a pending, unconfirmed application when its image is stored', async () => {
      await db().insert(imageUploads).values(upload('stored'));
      const created = await createAdApplication(db(), application, NOW, mailOff);
      expect(created).toEqual({
        id: expect.any(Number),
        statusToken: expect.stringMatching(/^[\w-]{43}$/),
        emailed: false,
      });
      const row = await applicationRow(created!.id);
      // Only the token's SHA-256 is stored.
      const tokens = await db().select().from(adStatusTokens);
      expect(tokens).toEqual([{ tokenHash: sha256Hex(created!.statusToken), applicationId: row.id, createdAt: NOW }]);
      expect(JSON.stringify(tokens)).not.toContain(created!.statusToken);
      expect(row).toMatchObject({
        type: 'web',
        title: 'Cafe',
        status: 'pending',
        confirmed: false,
        redirectUrl: null,
        content: null,
        duration: 2,
        createdAt: NOW,
        decidedAt: null,
      });
    });

    it('stores nothing when the image was issued but never stored', async () => {
      await db().insert(imageUploads).values(upload('issued'));
      expect(await createAdApplication(db(), application, NOW, mailOff)).toBeNull();
      expect(await db().select().from(adApplications)).toEqual([]);
    });
  });

  describe('approveApplication', () => {
    it('turns a pending application into an ad paid from now for duration × 30 days, last in its type', async () => {
      await insertAd({ position: 0 });
      await insertAd({ position: 4 });
      await insertAd({ type: 'kakao', position: 9 });
      const id = await pendingApplication('web', 3);

      const ad = await approveApplication(db(), 'web', id, ACTOR, NOW, mailOff);
      expect(ad).toMatchObject({
        type: 'web',
        title: 'web ad',
        redirectUrl: 'https://example.com/shop',
        imageUrl: '/images/web-application.png',
        content: null,
        position: 5,
        startsAt: NOW,
        endsAt: new Date(NOW.getTime() + 90 * DAY_MS),
        applicationId: id,
      });
      expect(await applicationRow(id)).toMatchObject({ status: 'approved', decidedAt: NOW });
      expect(await audit()).toEqual([
        {
          at: NOW.toISOString(),
          actor: ACTOR,
          action: 'approve',
          target: `ad-request:web:${id}`,
          before: { status: 'pending' },
          after: {
            status: 'approved',
            adId: ad!.id,
            startsAt: NOW.toISOString(),
            endsAt: new Date(NOW.getTime() + 90 * DAY_MS).toISOString(),
            position: 5,
          },
        },
      ]);
    });

    it('starts a type without ads at position 0 and keeps the kakao message', async () => {
      await insertAd({ position: 3 });
      const id = await pendingApplication('kakao', 1);
      const ad = await approveApplication(db(), 'kakao', id, ACTOR, NOW, mailOff);
      expect(ad).toMatchObject({ type: 'kakao', position: 0, content: '점심 할인', endsAt: at(30 * DAY_MS) });
    });

    it('approves nothing twice, nothing of another type, nothing missing, nothing rejected', async () => {
      const id = await pendingApplication('web');
      expect(await approveApplication(db(), 'kakao', id, ACTOR, NOW, mailOff)).toBeNull();
      expect(await applicationRow(id)).toMatchObject({ status: 'pending', decidedAt: null });
      expect(await adCount()).toBe(0);

      expect(await approveApplication(db(), 'web', id, ACTOR, NOW, mailOff)).not.toBeNull();
      expect(await approveApplication(db(), 'web', id, ACTOR, at(60_000), mailOff)).toBeNull();
      expect(await applicationRow(id)).toMatchObject({ status: 'approved', decidedAt: NOW });
      expect(await adCount()).toBe(1);

      expect(await approveApplication(db(), 'web', id + 100, ACTOR, NOW, mailOff)).toBeNull();
      const rejected = await pendingApplication('web');
      expect(await rejectApplication(db(), 'web', rejected, null, ACTOR, NOW, mailOff)).toBe(true);
      expect(await approveApplication(db(), 'web', rejected, ACTOR, NOW, mailOff)).toBeNull();
      expect(await adCount()).toBe(1);
      // Only what happened is audited: one approval and one rejection.
      expect((await audit()).map((entry) => [entry.action, entry.target])).toEqual([
        ['approve', `ad-request:web:${id}`],
        ['reject', `ad-request:web:${rejected}`],
      ]);
    });
  });

  describe('rejectApplication', () => {
    it('rejects a pending application of its type once, and creates no ad', async () => {
      const id = await pendingApplication('kakao');
      expect(await rejectApplication(db(), 'web', id, null, ACTOR, NOW, mailOff)).toBe(false);
      expect(await applicationRow(id)).toMatchObject({ status: 'pending', decidedAt: null });
      expect(await rejectApplication(db(), 'kakao', id, null, ACTOR, NOW, mailOff)).toBe(true);
      expect(await applicationRow(id)).toMatchObject({ status: 'rejected', decidedAt: NOW });
      expect(await rejectApplication(db(), 'kakao', id, null, ACTOR, at(60_000), mailOff)).toBe(false);
      expect(await applicationRow(id)).toMatchObject({ decidedAt: NOW });
      expect(await rejectApplication(db(), 'kakao', id + 100, null, ACTOR, NOW, mailOff)).toBe(false);
      expect(await adCount()).toBe(0);
      expect(await audit()).toEqual([
        {
          at: NOW.toISOString(),
          actor: ACTOR,
          action: 'reject',
          target: `ad-request:kakao:${id}`,
          before: { status: 'pending' },
          after: { status: 'rejected', reason: null },
        },
      ]);
    });
  });
});
