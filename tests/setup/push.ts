/** A browser's Web Push subscription for the tests (docs/decisions/033-web-push-reminders.md). */
import { createECDH, randomBytes } from 'node:crypto';

/**
 * A subscription as PushSubscription.toJSON() gives it: `endpoint`, a fresh P-256 key pair's public
 * key (65 bytes, uncompressed) and a 16-byte secret, each base64url (RFC 8291).
 */
export function browserSubscription(endpoint = 'https://fcm.googleapis.com/fcm/send/phone-1') {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  return {
    endpoint,
    keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}
