/**
 * The anti-spam fields of the public inquiry form (docs/product.md, Inquiry: "a honeypot field stops
 * simple bots"): a hidden text field a person never sees (a bot fills it), and a hidden token that
 * says which form it was rendered for and when, signed with HMAC-SHA256 (node:crypto).
 *
 * The token is `<form>.<issued ms since the epoch, UTC>.<signature>`, the signature keyed by an HMAC
 * of the web's SESSION_SECRET (context.admin.sessionSecret, which server.ts always passes) for this
 * use only, so the session's signing key is never used as it is. Every web instance, before and
 * after a restart, signs and checks alike. A token passes only on the form it names, and only for
 * TOKEN_TTL_MS after it was issued: a token lifted from one form or page load is not good for long,
 * nor anywhere else. A post whose token fails is `stale`, not a bot's: the form comes back with the
 * text kept and a fresh token (a person who left the page open too long sends once more).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppLoadContext } from '@remix-run/node';

/** The hidden field a person never sees: filled means a program filled it. */
export const HONEYPOT_FIELD = 'name__confirm';
/** The hidden field holding the signed token. */
export const HONEYPOT_TOKEN_FIELD = 'from__confirm';
/** How long a rendered form's token passes: 2 hours, in ms (a person writing at length still fits). */
export const TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
/** A token issued this far in the future still passes (another instance's clock a little ahead), ms. */
const CLOCK_SKEW_MS = 60 * 1000;
/** What the HMAC derives from SESSION_SECRET: a key for this use only. */
const KEY_PURPOSE = 'campus-bus honeypot token';

/**
 * NOTE: the key without the admin binding, one per process. Only route tests run so (server.ts
 * always passes admin.sessionSecret); a form rendered before a restart is then `stale`.
 */
const PROCESS_KEY = randomBytes(32);

/** The hidden inputs' values for one rendered form (see HoneypotInputs). */
export type HoneypotFields = { nameField: string; tokenField: string; token: string };

function keyOf(context: AppLoadContext): Buffer {
  const secret = context.admin?.sessionSecret;
  return secret ? createHmac('sha256', secret).update(KEY_PURPOSE).digest() : PROCESS_KEY;
}

function signature(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/**
 * The hidden inputs of form `formId` rendered at `now`: the two field names and a token naming the
 * form and `now`, signed with this deployment's key.
 */
export function honeypotFields(context: AppLoadContext, formId: string, now = new Date()): HoneypotFields {
  const payload = `${formId}.${now.getTime()}`;
  const token = `${payload}.${signature(keyOf(context), payload).toString('base64url')}`;
  return { nameField: HONEYPOT_FIELD, tokenField: HONEYPOT_TOKEN_FIELD, token };
}

/**
 * What a post's anti-spam fields say:
 * - `bot`: the hidden field was filled (whatever the token). Only a program fills it.
 * - `person`: the hidden field came empty and the token was signed here for `formId`, within
 *   TOKEN_TTL_MS of `now`.
 * - `stale`: the hidden field came empty but the token is missing, malformed, for another form,
 *   signed with another key (SESSION_SECRET rotated), expired or from the future. A person's form
 *   may end up so; `reason` says why (for the logs).
 */
export function checkHoneypot(
  context: AppLoadContext,
  formId: string,
  formData: FormData,
  now = new Date(),
): { verdict: 'person' | 'bot' } | { verdict: 'stale'; reason: string } {
  if (formData.getAll(HONEYPOT_FIELD).some((value) => value !== '')) return { verdict: 'bot' };
  const token = formData.get(HONEYPOT_TOKEN_FIELD);
  const stale = (reason: string) => ({ verdict: 'stale' as const, reason });
  if (!formData.has(HONEYPOT_FIELD)) return stale(`missing ${HONEYPOT_FIELD}`);
  if (typeof token !== 'string' || token === '') return stale(`missing ${HONEYPOT_TOKEN_FIELD}`);
  const match = /^([\w-]+)\.(\d{1,15})\.([\w-]{43})$/.exec(token);
  if (!match) return stale('malformed token');
  const [, tokenForm, issuedMs, signed] = match;
  const expected = signature(keyOf(context), `${tokenForm}.${issuedMs}`);
  if (!timingSafeEqual(Buffer.from(signed, 'base64url'), expected)) return stale('token not signed here');
  if (tokenForm !== formId) return stale(`token of form ${tokenForm}`);
  const age = now.getTime() - Number(issuedMs);
  if (age < -CLOCK_SKEW_MS) return stale('token from the future');
  if (age > TOKEN_TTL_MS) return stale(`token expired ${Math.round((age - TOKEN_TTL_MS) / 60_000)} min ago`);
  return { verdict: 'person' };
}
