/**
 * Secrets of the embedded default (docs/decisions/008-admin-sessions-and-secrets.md): a fresh clone needs no configuration,
 * so SESSION_SECRET, API_SERVICE_TOKEN and VAPID_PRIVATE_KEY, when unset, are generated once (the
 * first two 32 random bytes, hex; the VAPID key as its generator makes it) and kept under
 * DATA_DIR/secrets/ (mode 0600). Production passes them in env instead.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Secrets in env must be at least this long (32 characters; `openssl rand -hex 32` gives 64). */
export const SECRET_MIN_LENGTH = 32;

export type SecretName = 'SESSION_SECRET' | 'API_SERVICE_TOKEN' | 'VAPID_PRIVATE_KEY';

/**
 * The secret `name` kept under `dataDir`, generated on first use by `generate` (default 32 random
 * bytes, hex). The file appears whole or not at
 * all (written aside, then hard-linked into place, which fails if it exists), so two processes racing
 * on a first start agree on the winner's, and a crash never leaves an empty one.
 * @throws when the file cannot be written or read, or holds less than SECRET_MIN_LENGTH characters.
 */
export function storedSecret(
  dataDir: string,
  name: SecretName,
  generate: () => string = () => randomBytes(32).toString('hex'),
): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${generate()}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < SECRET_MIN_LENGTH) throw new Error(`${file}: shorter than ${SECRET_MIN_LENGTH} characters`);
  return secret;
}
