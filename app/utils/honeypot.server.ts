/**
 * The honeypot of the public inquiry form (issue 8: "a honeypot field stops simple bots"), built on
 * remix-utils: a hidden text field a person never sees (a bot fills it) and a hidden field holding
 * the time the form was rendered, AES-encrypted (crypto-js) with a seed only the server knows.
 *
 * The seed is derived from the web's SESSION_SECRET (context.admin.sessionSecret, which server.ts
 * always passes): an HMAC, so the session's signing key is not reused as an encryption key, and the
 * same in every web instance and across restarts, so a form rendered by one instance passes the
 * check in another. A changed SESSION_SECRET makes every open form's time field unreadable: such a
 * post is `stale`, not a bot's (see checkHoneypot).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AppLoadContext } from '@remix-run/node';
import { Honeypot, type HoneypotInputProps } from 'remix-utils/honeypot/server';

/** What the HMAC derives from SESSION_SECRET: a key for this use only. */
const SEED_PURPOSE = 'campus-bus honeypot time field';

/**
 * NOTE: the seed without the admin binding, one per process. Only route tests run so (server.ts
 * always passes admin.sessionSecret); a form rendered before a restart is then `stale`.
 */
const PROCESS_SEED = randomBytes(32).toString('hex');

function honeypotOf(context: AppLoadContext): Honeypot {
  const secret = context.admin?.sessionSecret;
  const encryptionSeed = secret ? createHmac('sha256', secret).update(SEED_PURPOSE).digest('hex') : PROCESS_SEED;
  return new Honeypot({ encryptionSeed });
}

/**
 * The hidden inputs of a form rendered now (for remix-utils' HoneypotProvider): remix-utils'
 * field names (`name__confirm`, `from__confirm`) and the current time (ms since the epoch, UTC)
 * encrypted with this deployment's seed.
 */
export function honeypotInputProps(context: AppLoadContext): HoneypotInputProps {
  return honeypotOf(context).getInputProps();
}

/**
 * What a post's honeypot fields say:
 * - `person`: the hidden field came empty and the time field decrypts to a past time.
 * - `bot`: the hidden field was filled (whatever the time field holds). Only a program fills it.
 * - `stale`: the hidden field came empty but a honeypot field is missing, or the time field cannot
 *   be read (rendered under another seed: SESSION_SECRET rotated, or a test process restarted),
 *   is forged, or lies in the future. A person's form may end up so; `reason` says why (for logs).
 *
 * NOTE: remix-utils' Honeypot.check throws SpamError for every case alike (its messages are not an
 * API), crypto-js may throw a plain Error ('Malformed UTF-8 data') for a time field encrypted under
 * another seed, and it checks nothing when neither field came. So the hidden field is read here
 * first, and any throw after it, with the hidden field empty and both fields present, concerns the
 * time field.
 */
export function checkHoneypot(
  context: AppLoadContext,
  formData: FormData,
): { verdict: 'person' | 'bot' } | { verdict: 'stale'; reason: string } {
  const honeypot = honeypotOf(context);
  const { nameFieldName, validFromFieldName } = honeypot.getInputProps();
  if (formData.getAll(nameFieldName).some((value) => value !== '')) return { verdict: 'bot' };
  const missing = [nameFieldName, validFromFieldName].filter((name) => name && !formData.has(name));
  if (missing.length > 0) return { verdict: 'stale', reason: `missing ${missing.join(', ')}` };
  try {
    honeypot.check(formData);
    return { verdict: 'person' };
  } catch (error) {
    return { verdict: 'stale', reason: error instanceof Error ? error.message : String(error) };
  }
}
