/**
 * /contact's action for an English page (docs/product.md §1 Languages, §5.3, §8): the request's
 * language (Accept-Language, or the switch's cookie; never a form field) picks the messages, the
 * checks run on the server in the same order with the same outcome as in Korean, and the inquiry
 * reaches the api with its language. The Korean answers: contact.test.ts.
 */
import en from '~/i18n/compiled/en.js';
import ko from '~/i18n/compiled/ko/contact.js';
import { languageCookie } from '~/i18n/locale.server';
import { INQUIRY_CHECK_MESSAGES, INQUIRY_MESSAGES } from '../../contract/inquiries';
import { interceptingContext } from '../../tests/setup/admin-web';
import { contactForm } from '../../tests/setup/contact-form';

const ENGLISH = { 'Accept-Language': 'en-US,en;q=0.9' };
const { freshContext, send, inquiryCalls } = contactForm('test-service-token-for-contact-english');

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** Each Korean message of the contact catalog → its English one. */
const inEnglish = new Map(
  Object.keys(ko).map((key) => {
    const params = { max: '2,000', near: 100, count: '0', name: '' };
    return [ko[key as keyof typeof ko](params), en[key as keyof typeof ko](params)];
  }),
);

describe('the action in English', () => {
  it('refuses each mistake with the English of the Korean answer, field by field, in the same order', async () => {
    const mistakes: Record<string, string>[] = [
      { content: '', email: 'me@example.com' },
      { content: '   \r\n ' },
      { email: 'me@example.com' },
      { content: 'a'.repeat(2001), email: 'me@' },
      { content: 'Hello\u0000', email: 'me@example.com\r\nBcc: them@example.com' },
      { content: `\u0000${'a'.repeat(2001)}`, email: 'not an address' },
      { content: 'Reply please', email: `${'a'.repeat(250)}@example.com` },
    ];
    for (const fields of mistakes) {
      const korean = await send(fields);
      const english = await send(fields, freshContext(), ENGLISH);
      expect(english.status, JSON.stringify(fields)).toBe(400);
      const translated = Object.fromEntries(
        Object.entries(korean.data!.result.error!).map(([field, messages]) => [
          field,
          messages!.map((message) => inEnglish.get(message) ?? `untranslated: ${message}`),
        ]),
      );
      expect(english.data?.result.error, JSON.stringify(fields)).toEqual(translated);
      const typed = (value?: Record<string, unknown> | null) => ({ content: value?.content, email: value?.email });
      expect(typed(english.data?.result.initialValue)).toEqual(typed(korean.data?.result.initialValue));
    }
  });

  it('words every check in English: empty, too long, a forbidden character, a line break in the e-mail, a malformed e-mail', async () => {
    const errors = async (fields: Record<string, string>) =>
      (await send(fields, freshContext(), ENGLISH)).data?.result.error;
    expect(await errors({ content: ' ' })).toEqual({ content: ['Please enter your message'] });
    expect(await errors({ content: 'a'.repeat(2001) })).toEqual({
      content: ['Your message can be up to 2,000 characters. Please shorten it.'],
    });
    expect(await errors({ content: 'Hi\u0000', email: 'me@example.com\nBcc: x@example.com' })).toEqual({
      content: ['It contains a character that cannot be used.'],
      email: ['The email cannot contain line breaks or control characters.'],
    });
    expect(await errors({ content: 'Hi', email: 'me@' })).toEqual({
      email: ['That email address doesn’t look right.'],
    });
  });

  it('says the failures in English: the api down, over its limit', async () => {
    const down = interceptingContext(freshContext(), (_request, url) =>
      url.pathname === '/api/inquiries' ? new Response('Service Unavailable', { status: 503 }) : undefined,
    );
    const failed = await send({ content: 'The 1150 was late' }, down, ENGLISH);
    expect(failed.status).toBe(502);
    expect(failed.data?.result.error).toEqual({
      '': ['Your message could not be sent.', 'Please try again in a moment.'],
    });
    const context = freshContext();
    for (let i = 0; i < 5; i += 1) await send({ content: `Message ${i}` }, context, ENGLISH);
    const limited = await send({ content: 'A sixth message' }, context, ENGLISH);
    expect(limited.status).toBe(429);
    expect(limited.data?.result.error).toEqual({
      '': [
        'Your message could not be sent.',
        'You sent several messages in a short time. Please try again in a moment.',
      ],
    });
  });

  it('sends the page’s language with the inquiry: English by Accept-Language or by the cookie, Korean otherwise', async () => {
    const cookie = languageCookie('en', false).split(';')[0];
    const calls = await inquiryCalls(async () => {
      expect(await send({ content: 'By the header' }, freshContext(), ENGLISH)).toMatchObject({ sent: true });
      expect(await send({ content: 'By the cookie' }, freshContext(), { Cookie: cookie })).toMatchObject({
        sent: true,
      });
      expect(await send({ content: '한국어로' })).toMatchObject({ sent: true });
    });
    expect(await Promise.all(calls.map(async (call) => (await call.json()).locale))).toEqual(['en', 'en', 'ko']);
    // A form cannot choose it: a `locale` field is no field of the form, and the post is refused.
    const forged = await send({ content: 'Forged', locale: 'en' });
    expect(forged.status).toBe(400);
    expect(forged.data?.result.error).toEqual({ '': [INQUIRY_MESSAGES.failed] });
  });
});

describe('the contact catalog', () => {
  it('holds the Korean the api refuses with, word for word (the Korean page and the api say the same)', () => {
    const params = { max: '2,000' };
    expect(ko['contact.contentRequired']()).toBe(INQUIRY_CHECK_MESSAGES.contentRequired);
    expect(ko['contact.contentTooLong'](params)).toBe(INQUIRY_CHECK_MESSAGES.contentTooLong);
    expect(ko['contact.invalidCharacter']()).toBe(INQUIRY_CHECK_MESSAGES.invalidCharacter);
    expect(ko['contact.emailOneLine']()).toBe(INQUIRY_CHECK_MESSAGES.emailOneLine);
    expect(ko['contact.badEmail']()).toBe(INQUIRY_CHECK_MESSAGES.badEmail);
    expect(ko['contact.submitted']()).toBe(INQUIRY_MESSAGES.submitted);
    expect(ko['contact.failed']()).toBe(INQUIRY_MESSAGES.failed);
    expect(ko['contact.rateLimited']()).toBe(INQUIRY_MESSAGES.rateLimited);
  });
});
