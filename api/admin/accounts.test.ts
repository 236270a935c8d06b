import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';

import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { adminSessions, adminUsers } from '../db/schema';
import { countAdmins, createOrResetAdmin, endSession, findSession, SESSION_HOURS, signIn } from './accounts';
import { listAudit } from './audit';

const NOW = new Date('2026-11-23T10:00:00+09:00');
const HOUR_MS = 3_600_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const PASSWORD = 'correct horse battery staple';
const CLIENT = '203.0.113.7';

describe.each(testDatabaseKinds)('admin accounts on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;

  const users = () => db().select().from(adminUsers);
  const sessionRows = () => db().select().from(adminSessions);
  /** The audit log, oldest first, without ids. */
  const audit = async () => (await listAudit(db(), 200)).reverse().map(({ id: _id, ...entry }) => entry);
  const create = (username = 'alice', password = PASSWORD, now = NOW) =>
    createOrResetAdmin(db(), { username, password }, 'cli', now);

  describe('createOrResetAdmin', () => {
    it('creates an admin whose stored hash is an Argon2id PHC string, never the password; audited', async () => {
      expect(await countAdmins(db())).toBe(0);
      expect(await create()).toBe(true);
      expect(await countAdmins(db())).toBe(1);

      const [user] = await users();
      expect(user).toMatchObject({ username: 'alice', createdAt: NOW, updatedAt: NOW });
      // @node-rs/argon2's defaults: Argon2id, version 19, m=19 MiB, t=2, p=1.
      expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
      expect(user.passwordHash).not.toContain(PASSWORD);
      const stored = JSON.stringify(await db().select().from(adminUsers));
      expect(stored).not.toContain(PASSWORD);

      expect(await audit()).toEqual([
        {
          at: NOW.toISOString(),
          actor: 'cli',
          action: 'admin-created',
          target: 'admin:alice',
          before: null,
          after: null,
        },
      ]);
    });

    it('resets the password of an existing admin and ends that admin’s sessions only', async () => {
      await create('alice');
      await create('bob');
      const alice = await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW);
      const bob = await signIn(db(), { username: 'bob', password: PASSWORD }, CLIENT, NOW);
      const [before] = await users();

      const later = at(HOUR_MS);
      expect(await createOrResetAdmin(db(), { username: 'alice', password: 'a new password 123' }, 'cli', later)).toBe(
        false,
      );
      expect(await countAdmins(db())).toBe(2);
      const [after] = await db().select().from(adminUsers).where(eq(adminUsers.username, 'alice'));
      expect(after).toMatchObject({ id: before.id, createdAt: NOW, updatedAt: later });
      expect(after.passwordHash).not.toBe(before.passwordHash);

      // Her copied session id is refused from now on; bob's still works.
      expect(await findSession(db(), alice!.sessionId, later)).toBeNull();
      expect(await findSession(db(), bob!.sessionId, later)).toMatchObject({ username: 'bob' });
      expect(await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, later)).toBeNull();
      expect(await signIn(db(), { username: 'alice', password: 'a new password 123' }, CLIENT, later)).not.toBeNull();

      expect((await audit()).map((entry) => [entry.actor, entry.action, entry.target])).toEqual([
        ['cli', 'admin-created', 'admin:alice'],
        ['cli', 'admin-created', 'admin:bob'],
        ['alice', 'sign-in', 'admin:alice'],
        ['bob', 'sign-in', 'admin:bob'],
        ['cli', 'password-reset', 'admin:alice'],
        ['alice', 'sign-in-failed', 'admin:alice'],
        ['alice', 'sign-in', 'admin:alice'],
      ]);
    });
  });

  describe('signIn', () => {
    it('opens a session of 12 hours for the right password, storing only the SHA-256 of its id', async () => {
      await create();
      const session = await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW);
      expect(session).toEqual({
        sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        username: 'alice',
        expiresAt: at(SESSION_HOURS * HOUR_MS).toISOString(),
      });
      expect(SESSION_HOURS).toBe(12);

      const [row] = await sessionRows();
      const [user] = await users();
      expect(row).toEqual({
        idHash: createHash('sha256').update(session!.sessionId).digest('hex'),
        userId: user.id,
        createdAt: NOW,
        expiresAt: at(12 * HOUR_MS),
      });
      expect(JSON.stringify(await sessionRows())).not.toContain(session!.sessionId);

      expect(await audit()).toContainEqual({
        at: NOW.toISOString(),
        actor: 'alice',
        action: 'sign-in',
        target: 'admin:alice',
        before: null,
        after: { client: CLIENT },
      });
    });

    it('refuses a wrong password and an unknown username alike, auditing each as sign-in-failed', async () => {
      await create();
      expect(await signIn(db(), { username: 'alice', password: `${PASSWORD}x` }, CLIENT, NOW)).toBeNull();
      expect(await signIn(db(), { username: 'alice', password: '' }, CLIENT, NOW)).toBeNull();
      expect(await signIn(db(), { username: 'mallory', password: PASSWORD }, '198.51.100.9', at(1000))).toBeNull();
      expect(await sessionRows()).toEqual([]);

      const failures = (await audit()).filter((entry) => entry.action !== 'admin-created');
      expect(failures).toEqual([
        {
          at: NOW.toISOString(),
          actor: 'alice',
          action: 'sign-in-failed',
          target: 'admin:alice',
          before: null,
          after: { client: CLIENT },
        },
        {
          at: NOW.toISOString(),
          actor: 'alice',
          action: 'sign-in-failed',
          target: 'admin:alice',
          before: null,
          after: { client: CLIENT },
        },
        {
          at: at(1000).toISOString(),
          actor: 'mallory',
          action: 'sign-in-failed',
          target: 'admin:mallory',
          before: null,
          after: { client: '198.51.100.9' },
        },
      ]);
      // The audit log never holds a password, right or wrong.
      expect(JSON.stringify(await listAudit(db(), 200))).not.toContain(PASSWORD);
    });
  });

  describe('findSession', () => {
    it('finds a session until 12 hours after sign-in, and not from that instant on', async () => {
      await create();
      const session = (await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW))!;
      const live = { sessionId: session.sessionId, username: 'alice', expiresAt: session.expiresAt };

      expect(await findSession(db(), session.sessionId, NOW)).toEqual(live);
      expect(await findSession(db(), session.sessionId, at(12 * HOUR_MS - 1))).toEqual(live);
      expect(await findSession(db(), session.sessionId, at(12 * HOUR_MS))).toBeNull();
      expect(await findSession(db(), session.sessionId, at(13 * HOUR_MS))).toBeNull();
    });

    it('knows no id it did not issue', async () => {
      await create();
      const session = (await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW))!;
      const [row] = await sessionRows();
      for (const id of ['', 'nope', `${session.sessionId}x`, session.sessionId.slice(1), row.idHash]) {
        expect(await findSession(db(), id, NOW), id).toBeNull();
      }
    });
  });

  describe('endSession', () => {
    it('signs a session out: the same id is rejected afterwards, even before it would expire', async () => {
      await create();
      const session = (await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW))!;
      const other = (await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW))!;

      expect(await endSession(db(), session.sessionId, at(HOUR_MS))).toBe(true);
      expect(await findSession(db(), session.sessionId, at(HOUR_MS))).toBeNull();
      expect(await findSession(db(), session.sessionId, NOW)).toBeNull();
      // Another session of the same admin (another browser) stays signed in.
      expect(await findSession(db(), other.sessionId, at(HOUR_MS))).toMatchObject({ username: 'alice' });
      expect(await endSession(db(), session.sessionId, at(HOUR_MS))).toBe(false);

      expect((await audit()).filter((entry) => entry.action === 'sign-out')).toEqual([
        {
          at: at(HOUR_MS).toISOString(),
          actor: 'alice',
          action: 'sign-out',
          target: 'admin:alice',
          before: null,
          after: null,
        },
      ]);
    });

    it('sweeps expired sessions, and ending an expired or unknown one is no sign-out', async () => {
      await create();
      const expired = (await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, NOW))!;
      const live = (await signIn(db(), { username: 'alice', password: PASSWORD }, CLIENT, at(6 * HOUR_MS)))!;
      expect(await sessionRows()).toHaveLength(2);

      expect(await endSession(db(), 'unknown', at(12 * HOUR_MS))).toBe(false);
      expect((await sessionRows()).map((row) => row.expiresAt)).toEqual([at(18 * HOUR_MS)]);
      expect(await endSession(db(), expired.sessionId, at(12 * HOUR_MS))).toBe(false);
      expect(await findSession(db(), live.sessionId, at(12 * HOUR_MS))).toMatchObject({ username: 'alice' });
      expect((await audit()).filter((entry) => entry.action === 'sign-out')).toEqual([]);
    });
  });
});
