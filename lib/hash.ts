/**
 * Digests of secrets: what the database keeps instead of the secrets (session ids, setup and status
 * tokens), and the constant-time comparison of a secret given with the one expected.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of `value` (UTF-8) as 64 hex characters. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two secrets of any lengths (their SHA-256 digests are compared). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
