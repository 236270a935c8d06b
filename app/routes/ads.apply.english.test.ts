/**
 * /ads/apply's action for an English page (docs/product.md §1 Languages, §5.1, §8): the request's
 * language (Accept-Language, or the switch's cookie; never a form field) picks the messages, the
 * server checks in the spec's order with the same outcome as in Korean, and the application reaches
 * the api with the page's language (`locale`, its e-mails') and the ad's (`lang`, the advertiser's
 * choice). The Korean answers: ads.apply.fields.test.ts and the others.
 */
import { languageCookie } from '~/i18n/locale.server';
import ko from '~/i18n/compiled/ko/ads.js';
import { AD_CHECK_MESSAGES } from '../../contract/ad-checks';
import { adCheckMessages, orderedErrors } from '~/utils/ad-application';
import { adsApplyActionFor, form, WEB_FIELDS } from '../../tests/setup/ads-apply-action';

const { submit, added } = adsApplyActionFor();

/** A post of `fields` (and the test image, unless `image` is null) to /ads/apply with `headers`. */
const post = (fields: Record<string, string>, headers: Record<string, string>, image?: null) =>
  new Request('http://localhost/ads/apply', { method: 'POST', body: form(fields, image), headers });
const ENGLISH = { 'Accept-Language': 'en-US,en;q=0.9' };

describe('the ads catalog in Korean', () => {
  it('says the api’s check messages word for word', () => {
    const fromCatalog = adCheckMessages((key, params) => ko[key](params));
    expect({ ...fromCatalog, tooLong: fromCatalog.tooLong(50) }).toEqual({
      ...Object.fromEntries(Object.keys(fromCatalog).map((key) => [key, AD_CHECK_MESSAGES[key as 'image']])),
      tooLong: AD_CHECK_MESSAGES.tooLong(50),
    });
  });
});

describe('action, for an English page', () => {
  it('refuses an empty kakao application with every English message, in the spec’s check order', async () => {
    const { status, data } = await submit(post({ type: 'kakao' }, ENGLISH, null));
    expect(status).toBe(400);
    expect(orderedErrors(data.result.error).map(({ message }) => message)).toEqual([
      'Please upload an image.',
      'Please enter a title.',
      'Please enter your name.',
      'Please enter a phone number.',
      'Please enter an e-mail address.',
      'Please choose how long the ad runs.',
      'Please enter the ad message.',
    ]);
  });

  it('words the format checks in English, the cookie choosing the language over Accept-Language', async () => {
    const cookie = languageCookie('en', false).split(';')[0];
    const fields = {
      ...WEB_FIELDS,
      type: 'banner',
      title: 'Cafe\nBar',
      applicantPhone: '12345',
      email: 'owner',
      redirectUrl: 'cafe.example.com',
      duration: '4',
    };
    const { status, data } = await submit(post(fields, { Cookie: cookie, 'Accept-Language': 'ko' }));
    expect(status).toBe(400);
    expect(orderedErrors(data.result.error).map(({ message }) => message)).toEqual([
      'Please choose an ad type.',
      'The title cannot contain line breaks or control characters.',
      'Please enter a valid phone number (9 to 11 digits).',
      'This e-mail address is not valid.',
      'The link must be an address starting with http:// or https://.',
      'Please choose how long the ad runs.',
    ]);
    const long = await submit(post({ ...WEB_FIELDS, title: 'a'.repeat(51) }, ENGLISH));
    expect(long.data.result.error).toEqual({ title: ['Please enter at most 50 characters.'] });
  });

  it('refuses a file that is no image in English', async () => {
    const fake = new File([new Uint8Array([1, 2, 3, 4])], 'ad.png', { type: 'image/png' });
    const body = form(WEB_FIELDS, fake);
    const { data } = await submit(
      new Request('http://localhost/ads/apply', { method: 'POST', body, headers: ENGLISH }),
    );
    expect(data.result.error).toEqual({ image: ['Only JPG, PNG and GIF images can be uploaded.'] });
  });

  it('sends the application with the page’s language and the advertiser’s', async () => {
    const rows = await added(async () => {
      expect((await submit(post({ ...WEB_FIELDS, lang: 'en' }, ENGLISH))).submitted).toBe(true);
    });
    expect(rows).toMatchObject([{ title: '캠퍼스 카페', locale: 'en', lang: 'en' }]);
  });

  it('sends Korean for a Korean page and an ad whose language was not chosen', async () => {
    const rows = await added(async () => {
      expect((await submit(post(WEB_FIELDS, { 'Accept-Language': 'ko-KR' }))).submitted).toBe(true);
    });
    expect(rows).toMatchObject([{ locale: 'ko', lang: 'ko' }]);
  });

  it('takes no page language from the form: a `locale` field is no field of it, and the post is refused', async () => {
    const rows = await added(async () => {
      const { status, data } = await submit(post({ ...WEB_FIELDS, locale: 'ko' }, ENGLISH));
      expect(status).toBe(400);
      expect(data.result.error).toEqual({ '': ['Your ad application could not be sent.'] });
    });
    expect(rows).toEqual([]);
  });
});
