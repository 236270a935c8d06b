/**
 * An application's languages through the api (docs/product.md §1 Languages, §3.5): `locale`, the
 * page it was sent from, and `lang`, the language of its content, each 'ko' or 'en' (absent: Korean);
 * the content's language goes with the ad onto the status page and the banner list.
 */
import { eq } from 'drizzle-orm';
import { AdBannerListResponseSchema, AdStatusSchema, AdSubmitResponseSchema } from '../../contract/ads';
import { adsApiFor, message, uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { ACTOR } from '../ads/ad-rows.fixture';
import { approveApplication } from '../ads/applications';
import { adApplications } from '../db/schema';
import { mailOff } from '../mail/outbox';

describe.each(testDatabaseKinds)('an application’s languages on %s', (kind) => {
  const { db, clock, app } = adsApiFor(kind);

  const submit = async (fields: Record<string, unknown>, ip = '203.0.113.7') => {
    const { imageUrl } = await uploadImageThrough(app(), 'web', undefined, ip);
    return app().request('/api/ads/web/submit', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({ ...validApplication('web', imageUrl), ...fields }),
    });
  };

  it('stores the page’s language and the content’s; the approved ad’s status and banner carry the content’s', async () => {
    const response = await submit({ locale: 'en', lang: 'en', title: 'Campus Cafe' });
    expect(response.status).toBe(201);
    const { id, statusToken } = AdSubmitResponseSchema.parse(await response.json());
    const [row] = await db().select().from(adApplications).where(eq(adApplications.id, id!));
    expect(row).toMatchObject({ locale: 'en', lang: 'en' });

    await approveApplication(db(), 'web', id!, ACTOR, clock().now(), mailOff);
    const status = AdStatusSchema.parse(await (await app().request(`/api/ads/status/${statusToken}`)).json());
    expect(status).toMatchObject({ title: 'Campus Cafe', lang: 'en' });
    const banners = AdBannerListResponseSchema.parse(await (await app().request('/api/web/ads')).json());
    expect(banners.data).toMatchObject([{ title: 'Campus Cafe', lang: 'en' }]);
  });

  it('takes absent languages as Korean, and says nothing of Korean content', async () => {
    const response = await submit({});
    const { id, statusToken } = AdSubmitResponseSchema.parse(await response.json());
    const [row] = await db().select().from(adApplications).where(eq(adApplications.id, id!));
    expect(row).toMatchObject({ locale: 'ko', lang: 'ko' });
    await approveApplication(db(), 'web', id!, ACTOR, clock().now(), mailOff);
    expect(await (await app().request(`/api/ads/status/${statusToken}`)).json()).not.toHaveProperty('lang');
    expect((await (await app().request('/api/web/ads')).json()).data[0]).not.toHaveProperty('lang');
  });

  it('refuses a language that is not ko or en with 400, storing nothing', async () => {
    const refusals = [{ locale: 'fr' }, { lang: 'ja' }, { locale: 'EN' }, { lang: '' }, { locale: 1 }];
    for (const [index, fields] of refusals.entries()) {
      const response = await submit(fields, `198.51.100.${index + 1}`);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await message(response)).toMatch(/^(locale|lang): /);
    }
    expect(await db().select().from(adApplications)).toEqual([]);
  });
});
