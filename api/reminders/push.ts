/**
 * Sending one Web Push message (docs/decisions/033-web-push-reminders.md): the `web-push` library
 * encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID JWT (RFC 8292) in
 * generateRequestDetails; the request goes out through fetch with a timeout, and the push
 * service's answer (RFC 8030 §5) is read as what to do next.
 */
import { createECDH, createPublicKey } from 'node:crypto';
import webPush from 'web-push';
import { storedSecret } from '../../lib/secrets';
import type { PushSubscriptionJson } from '../../contract/reminders';

/** The VAPID key pair (base64url: the P-256 public key, 65 bytes uncompressed; the private key, 32 bytes) and the contact (`mailto:` or `https:`). */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** How long (ms) a push service may take to answer one message. */
export const PUSH_TIMEOUT_MS = 10_000;

/**
 * What a push service's answer means (RFC 8030 §5, §8.3): `sent` (2xx); `gone` (404, 410: the
 * subscription has expired or was withdrawn, and is deleted); `retry` (429, 5xx, no answer in time
 * or a network failure) after `afterMs` (the Retry-After it gave, else null); `failed` (another
 * 4xx: the request itself is refused, and retrying changes nothing).
 */
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; afterMs: number | null; reason: string }
  | { kind: 'failed'; reason: string };

/** The VAPID public key of `privateKey` (base64url, 32 bytes), base64url (65 bytes, uncompressed P-256). @throws on a key that is not one. */
export function vapidPublicKeyOf(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

/**
 * Whether `p256dh` (base64url: 65 bytes, uncompressed) is a point of P-256, as a browser's key is
 * (RFC 8291 §3.1). The contract's schema checks its shape only; web-push cannot encrypt to another.
 */
export function isP256Point(p256dh: string): boolean {
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return false;
  const [x, y] = [point.subarray(1, 33), point.subarray(33)].map((part) => part.toString('base64url'));
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The contact of a deployment without VAPID_SUBJECT and without an https PUBLIC_BASE_URL (a
 * trial). Apple's push service refuses it (a localhost address): such a deployment says so at start.
 */
export const TRIAL_SUBJECT = 'mailto:campus-bus@localhost';

/**
 * The deployment's VAPID keys: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT (api/env.ts
 * checks they are a pair); unset, on the embedded default, a private key generated once under
 * DATA_DIR/secrets/ (web-push's generateVAPIDKeys) with its public key, the contact VAPID_SUBJECT,
 * else an https PUBLIC_BASE_URL, else a trial's mailto:; null in production without them
 * (reminders are off).
 * @throws when the embedded default's key cannot be kept under DATA_DIR (storedSecret).
 */
export function vapidKeysOf(
  env: {
    VAPID_PUBLIC_KEY?: string;
    VAPID_PRIVATE_KEY?: string;
    VAPID_SUBJECT?: string;
    PUBLIC_BASE_URL?: string;
    DATA_DIR: string;
  },
  embedded: boolean,
): VapidKeys | null {
  const subject =
    env.VAPID_SUBJECT ?? (env.PUBLIC_BASE_URL?.startsWith('https://') ? env.PUBLIC_BASE_URL : TRIAL_SUBJECT);
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  if (!embedded) return null;
  const privateKey = storedSecret(env.DATA_DIR, 'VAPID_PRIVATE_KEY', () => webPush.generateVAPIDKeys().privateKey);
  return { publicKey: vapidPublicKeyOf(privateKey), privateKey, subject };
}

/**
 * Posts `payload` (UTF-8, encrypted to `subscription`'s keys) to its push service, signed with
 * `vapid`, asking it to keep the message at most `ttlSec` seconds (its TTL header: a reminder is
 * of no use after its bus) at high urgency; waits at most `timeoutMs`.
 * @returns the outcome; never throws (a failure to reach the service is a `retry`; keys web-push
 *   cannot encrypt to, `failed`).
 */
export async function sendPush(
  subscription: PushSubscriptionJson,
  payload: string,
  options: { vapid: VapidKeys; ttlSec: number; timeoutMs?: number; fetch?: typeof fetch },
): Promise<PushOutcome> {
  const { vapid, ttlSec, timeoutMs = PUSH_TIMEOUT_MS, fetch: send = globalThis.fetch } = options;
  let request: ReturnType<typeof webPush.generateRequestDetails>;
  try {
    request = webPush.generateRequestDetails(subscription, payload, {
      vapidDetails: vapid,
      TTL: Math.max(0, Math.floor(ttlSec)),
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    });
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  let response: Response;
  try {
    response = await send(request.endpoint, {
      method: 'POST',
      headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
      body: new Uint8Array(request.body as Buffer),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual', // a push service does not redirect; following one would post where the check never looked
    });
  } catch (error) {
    return { kind: 'retry', afterMs: null, reason: error instanceof Error ? error.message : String(error) };
  }
  await response.body?.cancel();
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status === 429 || status >= 500) {
    return {
      kind: 'retry',
      afterMs: retryAfterMs(response.headers.get('retry-after'), Date.now()),
      reason: `HTTP ${status}`,
    };
  }
  return { kind: 'failed', reason: `HTTP ${status}` };
}

/** A Retry-After header (RFC 9110 §10.2.3: seconds, or an HTTP date) in ms from `nowMs`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
