import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { AdApplicationSchema } from '../../contract/ads';
import { adsDatabaseFor, adsTestApi, uploadImageThrough } from '../../tests/setup/ads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { approveRequest, createAdRequest } from '../ads/model';
import { adRequests, ads, imageUploads, inquiries } from '../db/schema';
import { removeExpiredRecords, retentionCutoff, runRetention } from './retention';

/** The fixed "now" of these tests: Monday 23 November 2026, 10:00 KST. */
const NOW = new Date('2026-11-23T10:00:00+09:00');
/** Spec §9 boundaries as of NOW: the same KST wall-clock time 1 and 3 calendar years earlier. */
const INQUIRY_CUTOFF = new Date('2025-11-23T10:00:00+09:00');
const AD_REQUEST_CUTOFF = new Date('2023-11-23T10:00:00+09:00');
const ms = (instant: Date, delta: number) => new Date(instant.getTime() + delta);

describe('retentionCutoff', () => {
  it('is the same KST wall-clock time whole calendar years earlier', () => {
    expect(retentionCutoff(NOW, 1)).toEqual(INQUIRY_CUTOFF);
    expect(retentionCutoff(NOW, 3)).toEqual(AD_REQUEST_CUTOFF);
  });

  it('counts years on the KST calendar, whatever the server’s zone: 29 Feb 2028 05:00 KST less a year is 28 Feb', () => {
    // 2028-02-28T20:00Z in UTC; a year earlier on the UTC calendar would be 1 Mar 05:00 KST.
    expect(retentionCutoff(new Date('2028-02-29T05:00:00+09:00'), 1)).toEqual(new Date('2027-02-28T05:00:00+09:00'));
    expect(retentionCutoff(new Date('2027-01-01T00:30:00+09:00'), 1)).toEqual(new Date('2026-01-01T00:30:00+09:00'));
  });
});

describe.each(testDatabaseKinds)('retention on %s', (kind) => {
  const database = adsDatabaseFor(kind);
  const db = () => database().db;
  let store: ReturnType<typeof tempLocalStore>;
  let logger: ReturnType<typeof recordingLogger>;
  const clock = new FakeClock(NOW);

  beforeEach(() => {
    store = tempLocalStore();
    logger = recordingLogger();
  });
  afterEach(() => store.remove());

  /** An image uploaded through the api (presign + signed PUT), so its file and image_uploads row exist. */
  async function storedImage() {
    const { imageUrl, key } = await uploadImageThrough(adsTestApi({ db: db(), storage: store, clock }), 'web');
    expect(existsSync(join(store.dir, key))).toBe(true);
    return { imageUrl, key };
  }

  /** A web application with `imageUrl`, submitted at `createdAt`. @returns its id. */
  async function application(title: string, imageUrl: string, createdAt: Date): Promise<number> {
    const valid = AdApplicationSchema.parse({
      type: 'web',
      title,
      applicantName: '홍길동',
      applicantPhone: '01012345678',
      applicantEmail: 'owner@example.com',
      imageUrl,
      duration: 1,
    });
    const id = await createAdRequest(db(), valid, createdAt);
    expect(id).not.toBeNull();
    return id!;
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

  it('deletes exactly the inquiries older than 1 year and the applications older than 3 years, with their unused images', async () => {
    await seedInquiries();
    const expired = await storedImage();
    const boundary = await storedImage();
    const published = await storedImage();
    const shared = await storedImage();
    await application('3년 하고 1밀리초', expired.imageUrl, ms(AD_REQUEST_CUTOFF, -1));
    await application('딱 3년', boundary.imageUrl, AD_REQUEST_CUTOFF);
    const approvedId = await application(
      '게재 중인 오래된 광고',
      published.imageUrl,
      new Date('2022-05-01T12:00:00+09:00'),
    );
    const ad = await approveRequest(db(), 'web', approvedId, 'test', new Date('2022-05-02T12:00:00+09:00'));
    await application('같은 이미지, 오래된 신청', shared.imageUrl, ms(AD_REQUEST_CUTOFF, -60_000));
    await application('같은 이미지, 새 신청', shared.imageUrl, ms(NOW, -3_600_000));

    const report = await removeExpiredRecords(db(), store, clock.now());
    expect(report).toEqual({ inquiries: 2, adRequests: 3, images: 1, imagesKept: 2 });

    const left = await db().select().from(inquiries).orderBy(asc(inquiries.id));
    expect(left.map((row) => row.content)).toEqual(['딱 1년', '1년에서 1밀리초 모자람', '어제 문의']);
    const requests = await db().select().from(adRequests).orderBy(asc(adRequests.id));
    expect(requests.map((row) => row.title)).toEqual(['딱 3년', '같은 이미지, 새 신청']);

    // The expired application's image: its file is gone from disk, and its record.
    expect(existsSync(join(store.dir, expired.key))).toBe(false);
    expect(await db().select().from(imageUploads).where(eq(imageUploads.key, expired.key))).toEqual([]);
    // Kept: the boundary's, the published ad's (the ad stays, unlinked from its application), the shared one.
    for (const kept of [boundary, published, shared]) {
      expect(existsSync(join(store.dir, kept.key)), kept.imageUrl).toBe(true);
      expect(await db().select().from(imageUploads).where(eq(imageUploads.key, kept.key))).toHaveLength(1);
    }
    expect(await db().select().from(ads)).toMatchObject([
      { id: ad!.id, title: '게재 중인 오래된 광고', imageUrl: published.imageUrl, requestId: null },
    ]);

    // Nothing is past retention any more: a second run deletes nothing.
    expect(await removeExpiredRecords(db(), store, clock.now())).toEqual({
      inquiries: 0,
      adRequests: 0,
      images: 0,
      imagesKept: 0,
    });
  });

  it('a run in the lease holder deletes and logs the counts, never the contents; a quiet run logs nothing', async () => {
    await seedInquiries();
    const image = await storedImage();
    await application('오래된 신청', image.imageUrl, new Date('2020-01-01T00:00:00+09:00'));
    const deps = { db: db(), storage: store, clock, logger, feed: { role: () => 'leader' as const } };

    expect(await runRetention(deps)).toEqual({ inquiries: 2, adRequests: 1, images: 1, imagesKept: 0 });
    expect(logger.lines).toEqual([
      '[retention] deleted 2 inquiries older than 1 year and 1 ad applications older than 3 years with ' +
        '1 images (0 images kept: still used by an ad or a newer application).',
    ]);
    expect(existsSync(join(store.dir, image.key))).toBe(false);

    expect(await runRetention(deps)).toEqual({ inquiries: 0, adRequests: 0, images: 0, imagesKept: 0 });
    expect(logger.lines).toHaveLength(1);
  });

  it('a follower (another instance holds the poller lease) does nothing', async () => {
    await seedInquiries();
    const image = await storedImage();
    await application('오래된 신청', image.imageUrl, new Date('2020-01-01T00:00:00+09:00'));
    const feed = { role: () => 'follower' as const };

    expect(await runRetention({ db: db(), storage: store, clock, logger, feed })).toBeNull();
    expect(await db().select().from(inquiries)).toHaveLength(5);
    expect(await db().select().from(adRequests)).toHaveLength(1);
    expect(existsSync(join(store.dir, image.key))).toBe(true);
    expect(logger.lines).toEqual([]);
  });
});
