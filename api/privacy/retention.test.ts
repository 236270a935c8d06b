import { existsSync } from 'node:fs';
import { mailOff } from '../mail/outbox';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { testApi } from '../../tests/setup/api';
import { uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { createOrResetAdmin, signIn } from '../admin/accounts';
import { approveApplication, createAdApplication } from '../ads/applications';
import { adApplications, ads, auditLog, imageUploads, inquiries, pushSubscriptions, reminders } from '../db/schema';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import { removeExpiredRecords, retentionCutoff, runRetention, unpaidCutoff, type RetentionReport } from './retention';

/** The fixed "now" of these tests: Monday 23 November 2026, 10:00 KST. */
const NOW = new Date('2026-11-23T10:00:00+09:00');
/** docs/product.md §9 boundaries as of NOW: the same KST wall-clock time 1 and 3 calendar years earlier. */
const INQUIRY_CUTOFF = new Date('2025-11-23T10:00:00+09:00');
const AD_APPLICATION_CUTOFF = new Date('2023-11-23T10:00:00+09:00');
const ms = (instant: Date, delta: number) => new Date(instant.getTime() + delta);
const DAY_MS = 86_400_000;
/** A run that removed nothing. */
const NOTHING: RetentionReport = {
  inquiries: 0,
  adApplications: 0,
  unpaidAdApplications: 0,
  images: 0,
  imagesKept: 0,
  endedAdsUnlinked: 0,
  uploaderMarks: 0,
  signInIps: 0,
  mail: 0,
  pushSubscriptions: 0,
};

describe('retentionCutoff', () => {
  it('is the same KST wall-clock time whole calendar years earlier', () => {
    expect(retentionCutoff(NOW, 1)).toEqual(INQUIRY_CUTOFF);
    expect(retentionCutoff(NOW, 3)).toEqual(AD_APPLICATION_CUTOFF);
  });

  it('counts years on the KST calendar, whatever the server’s zone: 29 Feb 2028 05:00 KST less a year is 28 Feb', () => {
    // 2028-02-28T20:00Z in UTC; a year earlier on the UTC calendar would be 1 Mar 05:00 KST.
    expect(retentionCutoff(new Date('2028-02-29T05:00:00+09:00'), 1)).toEqual(new Date('2027-02-28T05:00:00+09:00'));
    expect(retentionCutoff(new Date('2027-01-01T00:30:00+09:00'), 1)).toEqual(new Date('2026-01-01T00:30:00+09:00'));
  });
});

describe.each(testDatabaseKinds)('retention on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  let store: ReturnType<typeof tempLocalStore>;
  let logger: ReturnType<typeof recordingLogger>;
  const clock = new FakeClock(NOW);

  beforeEach(() => {
    store = tempLocalStore();
    logger = recordingLogger();
  });
  afterEach(() => store.remove());

  /**
   * An image uploaded through the api (presign + signed PUT) at `at`, from `ip`, so its file and
   * image_uploads row (with its uploader's pseudonyms) exist.
   */
  async function storedImage(at = NOW, ip?: string) {
    const api = testApi({ db: db(), storage: store, clock: new FakeClock(at) });
    const { imageUrl, key } = await uploadImageThrough(api, 'web', undefined, ip);
    expect(existsSync(join(store.dir, key))).toBe(true);
    return { imageUrl, key };
  }

  /**
   * A web application with `imageUrl`, submitted at `createdAt`, pending (unpaid) or, a day after,
   * rejected (decided: only the 3-year period applies to it). @returns its id.
   */
  async function application(
    title: string,
    imageUrl: string,
    createdAt: Date,
    status: 'pending' | 'rejected' = 'pending',
  ): Promise<number> {
    const valid = validApplication('web', imageUrl, { title });
    const created = await createAdApplication(db(), valid, createdAt, mailOff);
    expect(created).not.toBeNull();
    if (status === 'rejected') {
      await db()
        .update(adApplications)
        .set({ status, decidedAt: ms(createdAt, DAY_MS) })
        .where(eq(adApplications.id, created!.id));
    }
    return created!.id;
  }

  /** Inquiries around the 1-year boundary, and their expected fate. */
  async function seedInquiries() {
    await db()
      .insert(inquiries)
      .values([
        { content: '오래된 문의', email: 'old@example.com', createdAt: new Date('2024-03-01T09:00:00+09:00') },
        { content: '1년 하고 1밀리초', email: null, createdAt: ms(INQUIRY_CUTOFF, -1) },
        { content: '딱 1년', email: null, createdAt: INQUIRY_CUTOFF },
        { content: '1년에서 1밀리초 모자람', email: null, createdAt: ms(INQUIRY_CUTOFF, 1) },
        { content: '어제 문의', email: 'new@example.com', createdAt: ms(NOW, -86_400_000) },
      ]);
  }

  it('deletes exactly the inquiries older than 1 year and the applications older than 3 years, with their images unless a showing ad or a newer application uses them', async () => {
    await seedInquiries();
    const expired = await storedImage();
    const boundary = await storedImage();
    const ended = await storedImage();
    const showing = await storedImage();
    const shared = await storedImage();
    await application('3년 하고 1밀리초', expired.imageUrl, ms(AD_APPLICATION_CUTOFF, -1), 'rejected');
    await application('딱 3년', boundary.imageUrl, AD_APPLICATION_CUTOFF, 'rejected');
    const endedId = await application('게재 중인 오래된 광고', ended.imageUrl, new Date('2022-05-01T12:00:00+09:00'));
    // Approved for 1 month in May 2022: its period ended on 1 June 2022.
    const endedAd = await approveApplication(
      db(),
      'web',
      endedId,
      'test',
      new Date('2022-05-02T12:00:00+09:00'),
      mailOff,
    );
    const showingId = await application(
      '오래 기다린 신청, 어제 승인',
      showing.imageUrl,
      ms(AD_APPLICATION_CUTOFF, -DAY_MS),
    );
    // Approved yesterday for 1 month: it shows until 22 December 2026.
    const showingAd = await approveApplication(db(), 'web', showingId, 'test', ms(NOW, -DAY_MS), mailOff);
    await application('같은 이미지, 오래된 신청', shared.imageUrl, ms(AD_APPLICATION_CUTOFF, -60_000), 'rejected');
    await application('같은 이미지, 새 신청', shared.imageUrl, ms(NOW, -3_600_000));

    const report = await removeExpiredRecords(db(), store, clock.now());
    expect(report).toEqual({
      ...NOTHING,
      inquiries: 2,
      adApplications: 4,
      images: 2,
      imagesKept: 2,
      endedAdsUnlinked: 1,
    });

    const left = await db().select().from(inquiries).orderBy(asc(inquiries.id));
    expect(left.map((row) => row.content)).toEqual(['딱 1년', '1년에서 1밀리초 모자람', '어제 문의']);
    const applications = await db().select().from(adApplications).orderBy(asc(adApplications.id));
    expect(applications.map((row) => row.title)).toEqual(['딱 3년', '같은 이미지, 새 신청']);

    // Gone: the expired application's image, and the ended ad's: their files from disk, and their records.
    for (const gone of [expired, ended]) {
      expect(existsSync(join(store.dir, gone.key)), gone.imageUrl).toBe(false);
      expect(await db().select().from(imageUploads).where(eq(imageUploads.key, gone.key))).toEqual([]);
    }
    // Kept: the boundary's, the showing ad's, the one a newer application uses.
    for (const kept of [boundary, showing, shared]) {
      expect(existsSync(join(store.dir, kept.key)), kept.imageUrl).toBe(true);
      expect(await db().select().from(imageUploads).where(eq(imageUploads.key, kept.key))).toHaveLength(1);
    }
    // Both ads stay, unlinked from their deleted applications; the ended one without its image.
    expect(await db().select().from(ads).orderBy(asc(ads.id))).toMatchObject([
      { id: endedAd!.id, title: '게재 중인 오래된 광고', imageUrl: null, applicationId: null, updatedAt: NOW },
      { id: showingAd!.id, title: '오래 기다린 신청, 어제 승인', imageUrl: showing.imageUrl, applicationId: null },
    ]);

    // Nothing is past retention any more: a second run removes nothing.
    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual(NOTHING);
  });

  it('an ad whose period ends exactly now has ended (it loses the image); one ending a millisecond later keeps it', async () => {
    const atNow = await storedImage();
    const later = await storedImage();
    for (const [title, image, endsAt] of [
      ['지금 끝난 광고', atNow, NOW],
      ['1밀리초 뒤에 끝나는 광고', later, ms(NOW, 1)],
    ] as const) {
      await application(title, image.imageUrl, new Date('2020-01-01T00:00:00+09:00'), 'rejected');
      const period = { startsAt: ms(endsAt, -30 * DAY_MS), endsAt };
      await db()
        .insert(ads)
        .values({
          type: 'web',
          title,
          imageUrl: image.imageUrl,
          position: 0,
          ...period,
          createdAt: NOW,
          updatedAt: NOW,
        });
    }

    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual({
      ...NOTHING,
      adApplications: 2,
      images: 1,
      imagesKept: 1,
      endedAdsUnlinked: 1,
    });
    expect(existsSync(join(store.dir, atNow.key))).toBe(false);
    expect(existsSync(join(store.dir, later.key))).toBe(true);
    const left = await db().select({ title: ads.title, imageUrl: ads.imageUrl }).from(ads).orderBy(asc(ads.id));
    expect(left).toEqual([
      { title: '지금 끝난 광고', imageUrl: null },
      { title: '1밀리초 뒤에 끝나는 광고', imageUrl: later.imageUrl },
    ]);
  });

  it(`deletes the applications still unpaid ${UNPAID_APPLICATION_DAYS} days after their submission, with their images; decided ones stay`, async () => {
    const boundary = ms(NOW, -UNPAID_APPLICATION_DAYS * DAY_MS);
    expect(unpaidCutoff(NOW)).toEqual(boundary);
    const lapsed = await storedImage(ms(boundary, -1));
    const atBoundary = await storedImage(boundary);
    const rejected = await storedImage(ms(NOW, -40 * DAY_MS));
    const paid = await storedImage(ms(NOW, -40 * DAY_MS));
    const reused = await storedImage(ms(NOW, -40 * DAY_MS));
    await application('30일 하고 1밀리초', lapsed.imageUrl, ms(boundary, -1));
    await application('딱 30일', atBoundary.imageUrl, boundary);
    await application('거절된 신청', rejected.imageUrl, ms(NOW, -40 * DAY_MS), 'rejected');
    const paidId = await application('입금 확인, 승인', paid.imageUrl, ms(NOW, -40 * DAY_MS));
    await approveApplication(db(), 'web', paidId, 'test', ms(NOW, -35 * DAY_MS), mailOff);
    await application('같은 이미지, 입금하지 않은 신청', reused.imageUrl, ms(NOW, -40 * DAY_MS));
    await application('같은 이미지, 새 신청', reused.imageUrl, ms(NOW, -DAY_MS));

    // The two lapsed applications and one image go; the image a newer application uses stays. The
    // uploaders of the three images left that were issued before the boundary are blanked; the
    // boundary's is kept.
    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual({
      ...NOTHING,
      unpaidAdApplications: 2,
      images: 1,
      imagesKept: 1,
      uploaderMarks: 3,
    });
    const applications = await db()
      .select({ title: adApplications.title })
      .from(adApplications)
      .orderBy(asc(adApplications.id));
    expect(applications.map((row) => row.title)).toEqual([
      '딱 30일',
      '거절된 신청',
      '입금 확인, 승인',
      '같은 이미지, 새 신청',
    ]);
    expect(existsSync(join(store.dir, lapsed.key))).toBe(false);
    expect(await db().select().from(imageUploads).where(eq(imageUploads.key, lapsed.key))).toEqual([]);
    const uploads = await db()
      .select({ key: imageUploads.key, uploader: imageUploads.uploader, network: imageUploads.uploaderNetwork })
      .from(imageUploads);
    expect(uploads).toHaveLength(4);
    for (const upload of uploads) {
      const marked = upload.key === atBoundary.key;
      expect(upload.uploader !== null, upload.key).toBe(marked);
      expect(upload.network !== null, upload.key).toBe(marked);
    }

    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual(NOTHING);
  });

  it('blanks the client IP of admin sign-in attempts older than 1 year and keeps the rest of each entry', async () => {
    const account = { username: 'keeper', password: 'correct horse battery staple' };
    await createOrResetAdmin(db(), account, 'cli', new Date('2024-01-01T00:00:00+09:00'));
    const attempts: [password: string, client: string, at: Date][] = [
      [account.password, '192.0.2.1', new Date('2024-03-01T09:00:00+09:00')],
      ['wrong password', '192.0.2.2', ms(INQUIRY_CUTOFF, -1)],
      [account.password, '192.0.2.3', INQUIRY_CUTOFF],
      ['wrong password', '192.0.2.4', ms(NOW, -DAY_MS)],
    ];
    for (const [password, client, at] of attempts) await signIn(db(), { ...account, password }, client, at);
    const entries = async () =>
      (await db().select().from(auditLog).orderBy(asc(auditLog.id))).map(({ action, target, at, after }) => ({
        action,
        target,
        at,
        after,
      }));
    const before = await entries();

    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual({ ...NOTHING, signInIps: 2 });
    expect(await entries()).toEqual([
      before[0], // admin-created: no client, untouched
      { action: 'sign-in', target: 'admin:keeper', at: attempts[0][2], after: { client: null } },
      { action: 'sign-in-failed', target: 'admin:keeper', at: attempts[1][2], after: { client: null } },
      { action: 'sign-in', target: 'admin:keeper', at: INQUIRY_CUTOFF, after: { client: '192.0.2.3' } },
      { action: 'sign-in-failed', target: 'admin:keeper', at: attempts[3][2], after: { client: '192.0.2.4' } },
    ]);
    expect(before[0].action).toBe('admin-created');

    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual(NOTHING);
  });

  it('deletes a push subscription given over 23 hours ago, or with no pending reminder, with its reminders', async () => {
    const given = (hoursAgo: number) => ms(NOW, -hoursAgo * 3_600_000);
    const subscription = (endpoint: string, hoursAgo: number) => ({
      endpoint: `https://fcm.googleapis.com/fcm/send/${endpoint}`,
      p256dh: 'key',
      auth: 'secret',
      createdAt: given(hoursAgo),
    });
    const rows = await db()
      .insert(pushSubscriptions)
      .values([subscription('old', 23.01), subscription('fresh', 22.99), subscription('spent', 1)])
      .returning({ id: pushSubscriptions.id });
    const reminder = (id: string, subscriptionId: number, sentAt: Date | null) => ({
      id,
      subscriptionId,
      routeNo: '1150' as const,
      direction: 'up' as const,
      leadMin: 5,
      locale: 'ko' as const,
      targetAt: NOW,
      plateNo: null,
      createdAt: given(1),
      sentAt,
    });
    await db()
      .insert(reminders)
      .values([
        reminder('a', rows[0].id, null),
        reminder('b', rows[1].id, null),
        reminder('c', rows[2].id, given(0.5)),
      ]);
    expect(await removeExpiredRecords(db(), store, NOW)).toEqual({ ...NOTHING, pushSubscriptions: 2 });
    expect((await db().select().from(pushSubscriptions)).map((row) => row.endpoint)).toEqual([
      'https://fcm.googleapis.com/fcm/send/fresh',
    ]);
    expect((await db().select().from(reminders)).map((row) => row.id)).toEqual(['b']);
  });

  it('a run in the lease holder removes and logs the counts, never the contents; a quiet run logs nothing', async () => {
    await seedInquiries();
    const image = await storedImage();
    await application('오래된 신청', image.imageUrl, new Date('2020-01-01T00:00:00+09:00'), 'rejected');
    const unpaid = await storedImage(ms(NOW, -40 * DAY_MS));
    await application('입금하지 않은 신청', unpaid.imageUrl, ms(NOW, -40 * DAY_MS));
    await signIn(
      db(),
      { username: 'nobody', password: 'a guess' },
      '198.51.100.77',
      new Date('2024-03-01T09:00:00+09:00'),
    );
    const deps = { db: db(), storage: store, clock, logger, feed: { role: () => 'leader' as const } };

    expect(await runRetention(deps)).toEqual({
      ...NOTHING,
      inquiries: 2,
      adApplications: 1,
      unpaidAdApplications: 1,
      images: 2,
      signInIps: 1,
    });
    expect(logger.lines).toEqual([
      '[retention] deleted 2 inquiries older than 1 year, 1 ad applications older than 3 years and 1 unpaid ' +
        'ones older than 30 days with 2 images (0 kept: used by a showing or scheduled ad or a newer ' +
        'application; 0 ended ads lost their image); blanked the uploader of 0 images issued over 30 days ago ' +
        'and the client IP of 1 admin sign-in entries older than 1 year; deleted 0 e-mails sent or failed over ' +
        '30 days ago and 0 push subscriptions with no pending reminder or given over 23 hours ago.',
    ]);
    expect(logger.lines.join()).not.toContain('198.51.100.77');
    expect(existsSync(join(store.dir, image.key))).toBe(false);

    expect(await runRetention(deps)).toEqual(NOTHING);
    expect(logger.lines).toHaveLength(1);
  });

  it('a follower (another instance holds the poller lease) does nothing', async () => {
    await seedInquiries();
    const image = await storedImage();
    await application('오래된 신청', image.imageUrl, new Date('2020-01-01T00:00:00+09:00'));
    const feed = { role: () => 'follower' as const };

    expect(await runRetention({ db: db(), storage: store, clock, logger, feed })).toBeNull();
    expect(await db().select().from(inquiries)).toHaveLength(5);
    expect(await db().select().from(adApplications)).toHaveLength(1);
    expect(existsSync(join(store.dir, image.key))).toBe(true);
    expect(logger.lines).toEqual([]);
  });
});
