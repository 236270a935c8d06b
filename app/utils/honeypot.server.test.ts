/**
 * The inquiry form's honeypot (issue 8): a filled hidden field is a bot's, while a time field that
 * cannot be read (another SESSION_SECRET, a restarted process, a forgery), lies in the future, or is
 * missing is `stale` (a person's form may end up so, and is answered differently by /contact).
 */
import type { AppLoadContext } from '@remix-run/node';
import { Honeypot } from 'remix-utils/honeypot/server';
import { checkHoneypot, honeypotInputProps } from '~/utils/honeypot.server';

/** A context like the web's: only the admin binding matters here. */
const withSecret = (sessionSecret: string) =>
  ({ admin: { serviceToken: 't', sessionSecret, secureCookie: false } }) as AppLoadContext;
const context = withSecret('x'.repeat(64));
/** The tests' context without the admin binding: the per-process seed. */
const noSecret = {} as AppLoadContext;

/** The fields a form rendered by `renderedBy` posts, with `overrides` set (undefined: left out). */
function posted(renderedBy: AppLoadContext, overrides: Record<string, string | undefined> = {}) {
  const { nameFieldName, validFromFieldName, encryptedValidFrom } = honeypotInputProps(renderedBy);
  const fields: Record<string, string | undefined> = {
    content: '버스가 안 와요',
    [nameFieldName]: '',
    [validFromFieldName!]: encryptedValidFrom,
    ...overrides,
  };
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) data.append(name, value);
  return data;
}

afterEach(() => vi.useRealTimers());

it("renders remix-utils' field names and an encrypted time, not the time itself", () => {
  vi.useFakeTimers({ now: Date.UTC(2025, 2, 4, 0, 0, 0) });
  const props = honeypotInputProps(context);
  expect(props).toEqual({
    nameFieldName: 'name__confirm',
    validFromFieldName: 'from__confirm',
    encryptedValidFrom: expect.stringMatching(/^U2FsdGVkX1/), // crypto-js' "Salted__" prefix
  });
  expect(props.encryptedValidFrom).not.toContain(String(Date.now()));
});

it('passes a form as rendered, also by another instance with the same SESSION_SECRET', () => {
  expect(checkHoneypot(context, posted(context))).toEqual({ verdict: 'person' });
  expect(checkHoneypot(withSecret('x'.repeat(64)), posted(context))).toEqual({ verdict: 'person' });
  expect(checkHoneypot(noSecret, posted(noSecret))).toEqual({ verdict: 'person' });
});

it('does not encrypt with SESSION_SECRET itself (the session signing key is not reused)', () => {
  const data = posted(context);
  expect(() => new Honeypot({ encryptionSeed: 'x'.repeat(64) }).check(data)).toThrow();
  expect(checkHoneypot(context, data)).toEqual({ verdict: 'person' });
});

describe('bot: the hidden field filled', () => {
  it('whatever the time field holds', () => {
    expect(checkHoneypot(context, posted(context, { name__confirm: 'Kim' }))).toEqual({ verdict: 'bot' });
    const forged = posted(context, { name__confirm: 'Kim', from__confirm: 'U2FsdGVkX19hYWFh' });
    expect(checkHoneypot(context, forged)).toEqual({ verdict: 'bot' });
    expect(checkHoneypot(context, posted(context, { name__confirm: 'Kim', from__confirm: undefined }))).toEqual({
      verdict: 'bot',
    });
  });

  it('also when the field is sent twice with the first one empty', () => {
    const data = posted(context);
    data.append('name__confirm', 'Kim');
    expect(checkHoneypot(context, data)).toEqual({ verdict: 'bot' });
  });
});

describe('stale: the hidden field empty, the time field not passing', () => {
  const cases: [string, () => FormData, RegExp][] = [
    [
      'rendered under another SESSION_SECRET (rotated)',
      () => posted(withSecret('y'.repeat(64))),
      /Invalid honeypot valid from input|Malformed UTF-8 data/,
    ],
    [
      'rendered by a process without the binding (a restart, in tests)',
      () => posted(noSecret),
      /Invalid honeypot valid from input|Malformed UTF-8 data/,
    ],
    [
      'forged',
      () => posted(context, { from__confirm: 'U2FsdGVkX19hYWFh' }),
      /Invalid honeypot valid from input|Malformed UTF-8 data/,
    ],
    ['not even base64', () => posted(context, { from__confirm: '%%%' }), /^Invalid honeypot valid from input$/],
    ['empty', () => posted(context, { from__confirm: '' }), /^missing honeypot valid from input$/i],
    ['missing', () => posted(context, { from__confirm: undefined }), /^missing from__confirm$/],
    [
      'with the hidden field missing too',
      () => posted(context, { name__confirm: undefined, from__confirm: undefined }),
      /^missing name__confirm, from__confirm$/,
    ],
    ['the hidden field missing', () => posted(context, { name__confirm: undefined }), /^missing name__confirm$/],
  ];
  for (const [what, build, reason] of cases) {
    it(what, () => {
      expect(checkHoneypot(context, build())).toEqual({ verdict: 'stale', reason: expect.stringMatching(reason) });
    });
  }

  it('a time field that crypto-js cannot even decode (it throws its own Error, not a SpamError)', () => {
    // NOTE: a fixture: a time rendered under another SESSION_SECRET (about 1 in 20 are so) whose
    // decryption under this test's secret gives bytes that are not UTF-8.
    const unreadable = posted(context, { from__confirm: 'U2FsdGVkX1+LINse1AeaNU3KFGslmCZq9VwwYyyLW5Y=' });
    expect(checkHoneypot(context, unreadable)).toEqual({ verdict: 'stale', reason: 'Malformed UTF-8 data' });
  });

  it('rendered in the future (a clock ahead, or a time encrypted by hand)', () => {
    const now = Date.UTC(2025, 2, 4, 0, 0, 0);
    vi.useFakeTimers({ now: now + 60_000 });
    const early = posted(context);
    vi.setSystemTime(now);
    expect(checkHoneypot(context, early)).toEqual({ verdict: 'stale', reason: 'Honeypot valid from is in future' });
    vi.setSystemTime(now + 60_000);
    expect(checkHoneypot(context, early)).toEqual({ verdict: 'person' });
  });
});
