/**
 * The first admin's one-time setup link (docs/decisions/008-admin-sessions-and-secrets.md): on a
 * start with no admin at all, the api makes a random token valid for SETUP_TOKEN_HOURS and stores
 * its SHA-256 (settings 'admin-setup'); the entry hands `/admin-only/setup?token=…` to whoever
 * started it (announceSetup: the terminal, or an owner-only file, never a shipped log). The
 * setup creates the first admin and deletes the token; once any admin exists, setup is refused for
 * good. The api limits the setup requests per client address (api/rate-limit.ts adminSetup).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AdminSession } from '../../contract/admin';
import type { Db } from '../db/client';
import { adminUsers, settings } from '../db/schema';
import { sha256Hex } from '../../lib/hash';
import { countAdmins, openSession } from './accounts';
import { recordAudit } from './audit';

/** The one-time setup link is valid for one hour (docs/product.md §11). */
export const SETUP_TOKEN_HOURS = 1;
const SETUP_KEY = 'admin-setup';
const StoredSetupSchema = z.object({ tokenHash: z.string(), expiresAt: z.string() });

/** The web path of the setup page for `token`. */
export function setupPath(token: string): string {
  return `/admin-only/setup?token=${encodeURIComponent(token)}`;
}

/**
 * What an entry prints once it listens while no admin exists: where to open the setup page (`url`,
 * the page's full address on the web, or only its path when the entry does not know the web's
 * origin) and the command-line alternative.
 */
export function setupMessage(url: string): string {
  return (
    `No admin account yet. Open ${url} within ${SETUP_TOKEN_HOURS} hour to create the first, ` +
    'or stop the server and run: npm run admin:create -- --username NAME'
  );
}

/** The file under DATA_DIR the setup link goes to when the log is not a terminal (owner-only, 0600). */
export const SETUP_LINK_FILE = 'setup-link.txt';

/**
 * Hands the setup link (setupMessage of `url`) to the one who started the server. The link is a
 * secret: printed only to a terminal (`toTerminal`: stdout is one and the log is human-readable),
 * else written to DATA_DIR/SETUP_LINK_FILE with mode 0600 (a temporary directory's when DATA_DIR is
 * `memory`), whose path the log names, so that it never reaches a log system.
 * @param label the entry's log prefix ("[web]", "[api]").
 */
export function announceSetup(label: string, url: string, options: { dataDir: string; toTerminal: boolean }): void {
  if (options.toTerminal) return console.info(`${label} ${setupMessage(url)}`);
  const dir = options.dataDir === 'memory' ? mkdtempSync(join(tmpdir(), 'campus-bus-setup-')) : options.dataDir;
  const path = join(dir, SETUP_LINK_FILE);
  rmSync(path, { force: true }); // a file left by an earlier start may belong to another mode
  writeFileSync(path, `${setupMessage(url)}\n`, { mode: 0o600 });
  console.info(`${label} No admin account yet: the one-time setup link is in ${path} (readable by its owner only).`);
}

/**
 * Issues a fresh setup token when there is no admin (replacing an older one), for the start-up log.
 * @returns the token, or null when an admin exists.
 */
export async function issueSetupToken(db: Db, now: Date): Promise<string | null> {
  if ((await countAdmins(db)) > 0) {
    await db.delete(settings).where(eq(settings.key, SETUP_KEY));
    return null;
  }
  const token = randomBytes(24).toString('base64url');
  const value = {
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + SETUP_TOKEN_HOURS * 3_600_000).toISOString(),
  };
  await db
    .insert(settings)
    .values({ key: SETUP_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
  return token;
}

/** Whether `token` is the live setup token at `now` (no admin yet, matching, not expired). */
export async function isSetupTokenValid(db: Db, token: string, now: Date): Promise<boolean> {
  const [row] = await db.select().from(settings).where(eq(settings.key, SETUP_KEY));
  const stored = StoredSetupSchema.safeParse(row?.value);
  if (!stored.success || new Date(stored.data.expiresAt) <= now) return false;
  return (
    (await countAdmins(db)) === 0 &&
    timingSafeEqual(Buffer.from(sha256Hex(token), 'hex'), Buffer.from(stored.data.tokenHash, 'hex'))
  );
}

/**
 * Creates the first admin with a valid setup token, deletes the token and opens a session, in one
 * transaction that locks the token's row (two tabs cannot both succeed). Audited as 'admin-created' by 'setup'.
 * The token is checked before the password is hashed (Argon2id: about 10 ms of CPU and 19 MiB), so
 * a wrong or expired token, or any token once an admin exists, costs two reads; the transaction
 * checks it again under the lock.
 * @returns the session, or null when the token is unknown, expired or an admin already exists.
 */
export async function completeSetup(
  db: Db,
  request: { token: string; username: string; password: string },
  now: Date,
): Promise<AdminSession | null> {
  if (!(await isSetupTokenValid(db, request.token, now))) return null;
  const passwordHash = await hash(request.password);
  return db.transaction(async (tx) => {
    await tx.select().from(settings).where(eq(settings.key, SETUP_KEY)).for('update');
    if (!(await isSetupTokenValid(tx, request.token, now))) return null;
    const [user] = await tx
      .insert(adminUsers)
      .values({ username: request.username, passwordHash, createdAt: now, updatedAt: now })
      .returning();
    await tx.delete(settings).where(eq(settings.key, SETUP_KEY));
    await recordAudit(tx, { actor: 'setup', action: 'admin-created', target: `admin:${user.username}` }, now);
    return openSession(tx, user, now);
  });
}
