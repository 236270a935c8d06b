/**
 * Digests of secrets: what the database keeps instead of the secrets (session ids, setup and status
 * tokens), and the constant-time comparison of a secret given with the one expected.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of `value` (UTF-8) as 64 hex characters. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The check of secrets given against `expected`, in constant time for any lengths (their SHA-256
 * digests are compared): `expected`'s digest is taken once, as it is checked on every request.
 */
export function secretCheck(expected: string): (given: string) => boolean {
  const expectedDigest = digest(expected);
  return (given) => timingSafeEqual(digest(given), expectedDigest);
}
