/** Digests of secrets the database keeps instead of the secrets (session ids, setup and status tokens). */
import { createHash } from 'node:crypto';

/** SHA-256 of `value` (UTF-8) as 64 hex characters. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
