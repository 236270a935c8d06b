/**
 * The language of the e-mails (docs/product.md §1 Languages): an application or an inquiry sent
 * from an English page keeps that language (`locale`), and its applicant's or inquirer's e-mails
 * are written in it; the admins' notices stay Korean. An application also keeps the language its
 * content is written in (`lang`), which its ad takes when approved.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../tests/setup/db';
import { application, mailSenderFor } from '../../tests/setup/mail-sender';
import { ACTOR, NOW } from '../ads/ad-rows.fixture';
import { approveApplication, createAdApplication, rejectApplication } from '../ads/applications';
import { adApplications, ads, inquiries } from '../db/schema';
import { replyToInquiry } from '../inquiries/model';

describe.each(testDatabaseKinds)('e-mails in the language of the page on %s', (kind) => {
  const { db, mailOn, storedImage, rows } = mailSenderFor(kind);
  /** An outbox whose sender never runs: the tests read the queued rows. */
  const outbox = () => mailOn('smtp://127.0.0.1:9').outbox;

  it('stores an English application with English content, e-mails its receipt in English and the admins in Korean', async () => {
    await storedImage();
    const created = await createAdApplication(db(), { ...application, locale: 'en', lang: 'en' }, NOW, outbox());
    const [row] = await db().select().from(adApplications).where(eq(adApplications.id, created!.id));
    expect(row).toMatchObject({ locale: 'en', lang: 'en' });
    const [receipt, ...notices] = await rows();
    expect(receipt.subject).toBe(`[HUFS Bus] We received your ad application (application no. ${created!.id})`);
    expect(receipt.text).toContain('Amount: 26,000 KRW × 2 months = 52,000 KRW');
    expect(receipt.html).toContain('<html lang="en">');
    expect(notices).toHaveLength(2);
    for (const notice of notices) {
      expect(notice.subject).toBe(`[외대 버스] 새 광고 신청: 웹 배너 광고 (신청 번호 ${created!.id})`);
      expect(notice.html).toContain('<html lang="ko">');
    }
  });

  it('an application without them is Korean, its content Korean', async () => {
    await storedImage();
    const created = await createAdApplication(db(), application, NOW, outbox());
    const [row] = await db().select().from(adApplications).where(eq(adApplications.id, created!.id));
    expect(row).toMatchObject({ locale: 'ko', lang: 'ko' });
    expect((await rows())[0].subject).toBe(`[외대 버스] 광고 신청을 받았습니다 (신청 번호 ${created!.id})`);
  });

  it('approves an English application into an ad of its content’s language, with the approval in English', async () => {
    await storedImage();
    const mail = outbox();
    const created = await createAdApplication(db(), { ...application, locale: 'en', lang: 'en' }, NOW, mail);
    const ad = await approveApplication(db(), 'web', created!.id, ACTOR, NOW, mail);
    expect(ad?.lang).toBe('en');
    expect((await db().select({ lang: ads.lang }).from(ads))[0].lang).toBe('en');
    const approval = (await rows()).find((row) => row.kind === 'approved');
    expect(approval?.subject).toBe(`[HUFS Bus] Your ad is approved (application no. ${created!.id})`);
  });

  it('keeps the page language apart from the content’s: an English page may apply for a Korean ad, and the reverse', async () => {
    await storedImage();
    const mail = outbox();
    const created = await createAdApplication(db(), { ...application, locale: 'ko', lang: 'en' }, NOW, mail);
    expect(await rejectApplication(db(), 'web', created!.id, null, ACTOR, NOW, mail)).toBe(true);
    const [row] = await db().select().from(adApplications).where(eq(adApplications.id, created!.id));
    expect(row).toMatchObject({ locale: 'ko', lang: 'en' });
    const rejection = (await rows()).find((mailRow) => mailRow.kind === 'rejected');
    expect(rejection?.subject).toBe(`[외대 버스] 광고 신청 검토 결과를 알려드립니다 (신청 번호 ${created!.id})`);
  });

  it('replies in English to an inquiry sent from an English page', async () => {
    const [inquiry] = await db()
      .insert(inquiries)
      .values({ content: 'Is there a night bus?', email: 'rider@example.com', createdAt: NOW, locale: 'en' })
      .returning({ id: inquiries.id });
    expect(await replyToInquiry(db(), inquiry.id, 'Not yet.', ACTOR, NOW, outbox())).toBe(true);
    const [reply] = await rows();
    expect(reply.subject).toBe('[HUFS Bus] A reply to your inquiry');
    expect(reply.text).toContain('Your inquiry of Nov 23, 2026:\n> Is there a night bus?');
  });
});
