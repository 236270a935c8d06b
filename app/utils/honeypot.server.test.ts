/**
 * The inquiry form's anti-spam fields: a filled hidden field is a bot's; a token that is missing,
 * malformed, signed under another key, issued for another form, expired or from the future is
 * `stale` (a person's form may end up so, and /contact answers it differently).
 */
import { createHmac } from 'node:crypto';
import type { AppLoadContext } from '@remix-run/node';
import { checkHoneypot, honeypotFields, TOKEN_TTL_MS } from '~/utils/honeypot.server';

/** A context like the web's: only the admin binding matters here. */
const withSecret = (sessionSecret: string) =>
  ({ admin: { serviceToken: 't', sessionSecret, secureCookie: false } }) as AppLoadContext;
const SECRET = 'x'.repeat(64);
const context = withSecret(SECRET);
/** The tests' context without the admin binding: the per-process key. */
const noSecret = {} as AppLoadContext;
const FORM = 'inquiry';
const RENDERED = new Date('2026-11-23T08:00:00+09:00');

/** The fields form `formId` posts when rendered by `renderedBy` at `at`, with `overrides` (undefined: left out). */
function posted(
  renderedBy: AppLoadContext,
  overrides: Record<string, string | undefined> = {},
  { formId = FORM, at = RENDERED } = {},
) {
  const { nameField, tokenField, token } = honeypotFields(renderedBy, formId, at);
  const fields: Record<string, string | undefined> = {
    content: '버스가 안 와요',
    [nameField]: '',
    [tokenField]: token,
    ...overrides,
  };
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) data.append(name, value);
  return data;
}

/** checkHoneypot at `minutes` after RENDERED. */
const check = (data: FormData, minutes = 5, by = context) =>
  checkHoneypot(by, FORM, data, new Date(RENDERED.getTime() + minutes * 60_000));

it('renders the field names and a token naming the form and the time, signed', () => {
  const fields = honeypotFields(context, FORM, RENDERED);
  expect(fields).toEqual({
    nameField: 'name__confirm',
    tokenField: 'from__confirm',
    token: expect.stringMatching(new RegExp(`^inquiry\\.${RENDERED.getTime()}\\.[\\w-]{43}$`)),
  });
});

it('passes a form as rendered, also checked by another instance with the same SESSION_SECRET', () => {
  expect(check(posted(context))).toEqual({ verdict: 'person' });
  expect(check(posted(context), 5, withSecret(SECRET))).toEqual({ verdict: 'person' });
  expect(check(posted(noSecret), 5, noSecret)).toEqual({ verdict: 'person' });
});

it('does not sign with SESSION_SECRET itself (the session signing key is not reused)', () => {
  const payload = `${FORM}.${RENDERED.getTime()}`;
  const withRawSecret = `${payload}.${createHmac('sha256', SECRET).update(payload).digest('base64url')}`;
  expect(check(posted(context, { from__confirm: withRawSecret }))).toEqual({
    verdict: 'stale',
    reason: 'token not signed here',
  });
});

it('passes until its 2 hours are up, then is stale', () => {
  const data = posted(context);
  expect(check(data, TOKEN_TTL_MS / 60_000)).toEqual({ verdict: 'person' });
  expect(check(data, TOKEN_TTL_MS / 60_000 + 1)).toEqual({ verdict: 'stale', reason: 'token expired 1 min ago' });
});

describe('bot: the hidden field filled', () => {
  it('whatever the token holds', () => {
    expect(check(posted(context, { name__confirm: 'Kim' }))).toEqual({ verdict: 'bot' });
    expect(check(posted(context, { name__confirm: 'Kim', from__confirm: 'forged' }))).toEqual({ verdict: 'bot' });
    expect(check(posted(context, { name__confirm: 'Kim', from__confirm: undefined }))).toEqual({ verdict: 'bot' });
  });

  it('also when the field is sent twice with the first one empty', () => {
    const data = posted(context);
    data.append('name__confirm', 'Kim');
    expect(check(data)).toEqual({ verdict: 'bot' });
  });
});

describe('stale: the hidden field empty, the token not passing', () => {
  const token = honeypotFields(context, FORM, RENDERED).token;
  const cases: [string, () => FormData, string | RegExp][] = [
    [
      'signed under another SESSION_SECRET (rotated)',
      () => posted(withSecret('y'.repeat(64))),
      'token not signed here',
    ],
    ['signed by a process without the binding (a restart, in tests)', () => posted(noSecret), 'token not signed here'],
    [
      'issued for another form',
      () => posted(context, {}, { formId: 'ad-application' }),
      'token of form ad-application',
    ],
    [
      'with its form changed by hand',
      () => posted(context, { from__confirm: token.replace(/^inquiry/, 'other') }),
      'token not signed here',
    ],
    [
      'with its time moved by hand',
      () => posted(context, { from__confirm: token.replace(/\.(\d+)\./, (_, ms) => `.${Number(ms) + 1}.`) }),
      'token not signed here',
    ],
    [
      'issued in the future',
      () => posted(context, {}, { at: new Date(RENDERED.getTime() + 10 * 60_000) }),
      'token from the future',
    ],
    ['not a token', () => posted(context, { from__confirm: '%%%' }), 'malformed token'],
    ['empty', () => posted(context, { from__confirm: '' }), 'missing from__confirm'],
    ['missing', () => posted(context, { from__confirm: undefined }), 'missing from__confirm'],
    ['the hidden field missing', () => posted(context, { name__confirm: undefined }), 'missing name__confirm'],
  ];
  for (const [what, build, reason] of cases) {
    it(what, () => {
      expect(check(build())).toEqual({ verdict: 'stale', reason });
    });
  }

  it('a clock a minute behind another instance’s still passes', () => {
    expect(check(posted(context), -1)).toEqual({ verdict: 'person' });
  });
});
