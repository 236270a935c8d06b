/**
 * Admin accounts and sessions (docs/product.md §6): passwords hashed with Argon2id (@node-rs/argon2, its
 * defaults: OWASP's m=19 MiB, t=2, p=1), sessions of SESSION_HOURS identified by a random id whose
 * SHA-256 alone is stored. Signing out, or resetting the password, deletes the rows, so a copied
 * cookie is refused afterwards.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/hash';
import { hash, verify } from '@node-rs/argon2';
import { and, count, eq, gt, lte } from 'drizzle-orm';
import type { AdminSession } from '../../contract/admin';
import type { Db } from '../db/client';
import { adminSessions, adminUsers } from '../db/schema';
import { recordAudit } from './audit';

/** An admin session lasts 12 hours (docs/product.md §6). */
export const SESSION_HOURS = 12;

/** A hash of nothing anyone knows, verified when the username is unknown so both cases take as long; made on first need. */
let dummyHash: Promise<string> | null = null;

/** How many admin accounts exist. */
export async function countAdmins(db: Db): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(adminUsers);
  return total;
}

/**
 * Creates admin `username` with `password`, or resets that admin's password (ending its sessions).
 * Audited as 'admin-created' or 'password-reset' by `actor`. The caller has validated both
 * (contract AdminUsernameSchema, NewPasswordSchema).
 * @returns whether the account was created (true) or reset (false).
 */
export async function createOrResetAdmin(
  db: Db,
  account: { username: string; password: string },
  actor: string,
  now: Date,
): Promise<boolean> {
  const passwordHash = await hash(account.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(adminUsers)
      .where(eq(adminUsers.username, account.username))
      .for('update');
    if (existing) {
      await tx.update(adminUsers).set({ passwordHash, updatedAt: now }).where(eq(adminUsers.id, existing.id));
      await tx.delete(adminSessions).where(eq(adminSessions.userId, existing.id));
    } else {
      await tx.insert(adminUsers).values({ username: account.username, passwordHash, createdAt: now, updatedAt: now });
    }
    await recordAudit(
      tx,
      { actor, action: existing ? 'password-reset' : 'admin-created', target: `admin:${account.username}` },
      now,
    );
    return !existing;
  });
}

/** Opens a session of SESSION_HOURS for `user` at `now`; returns its id (the web's cookie holds it) and end. */
export async function openSession(db: Pick<Db, 'insert'>, user: { id: number; username: string }, now: Date) {
  const sessionId = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
  await db.insert(adminSessions).values({ idHash: sha256Hex(sessionId), userId: user.id, createdAt: now, expiresAt });
  return { sessionId, username: user.username, expiresAt: expiresAt.toISOString() } satisfies AdminSession;
}

/**
 * Checks `password` for `username` and opens a session; every attempt is audited ('sign-in' or
 * 'sign-in-failed', with the client's address).
 * @returns the new session, or null for an unknown username or a wrong password (indistinguishable).
 */
export async function signIn(
  db: Db,
  credentials: { username: string; password: string },
  client: string,
  now: Date,
): Promise<AdminSession | null> {
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.username, credentials.username));
  const valid = await verify(
    user?.passwordHash ?? (await (dummyHash ??= hash(randomBytes(16).toString('hex')))),
    credentials.password,
  );
  const target = `admin:${credentials.username}`;
  if (!user || !valid) {
    await recordAudit(db, { actor: credentials.username, action: 'sign-in-failed', target, after: { client } }, now);
    return null;
  }
  return db.transaction(async (tx) => {
    await recordAudit(tx, { actor: user.username, action: 'sign-in', target, after: { client } }, now);
    return openSession(tx, user, now);
  });
}

/** The live session `sessionId` at `now`, or null when unknown, expired or signed out. */
export async function findSession(db: Db, sessionId: string, now: Date): Promise<AdminSession | null> {
  const [row] = await db
    .select({ username: adminUsers.username, expiresAt: adminSessions.expiresAt })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(and(eq(adminSessions.idHash, sha256Hex(sessionId)), gt(adminSessions.expiresAt, now)));
  return row ? { sessionId, username: row.username, expiresAt: row.expiresAt.toISOString() } : null;
}

/**
 * Signs session `sessionId` out (audited as 'sign-out'); expired sessions are swept at the same time.
 * @returns whether a live session was ended.
 */
export async function endSession(db: Db, sessionId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const session = await findSession(tx, sessionId, now);
    await tx.delete(adminSessions).where(eq(adminSessions.idHash, sha256Hex(sessionId)));
    await tx.delete(adminSessions).where(lte(adminSessions.expiresAt, now));
    if (session) {
      await recordAudit(tx, { actor: session.username, action: 'sign-out', target: `admin:${session.username}` }, now);
    }
    return session !== null;
  });
}
