import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';

import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { adminUsers, settings } from '../db/schema';
import { countAdmins, createOrResetAdmin, findSession, signIn } from './accounts';
import { listAudit } from './audit';
import { completeSetup, isSetupTokenValid, issueSetupToken, SETUP_TOKEN_HOURS, setupPath } from './setup';

const NOW = new Date('2026-11-23T10:00:00+09:00');
const HOUR_MS = 3_600_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const PASSWORD = 'correct horse battery staple';

// The real Argon2 behind a spy: a refused setup must not have spent a hash (about 10 ms of CPU and 19 MiB).
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...argon2, hash: vi.fn(argon2.hash) };
});

describe.each(testDatabaseKinds)('admin setup on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const setup = (token: string, now = NOW, username = 'alice') =>
    completeSetup(db(), { token, username, password: PASSWORD }, now);

  describe('issueSetupToken', () => {
    it('issues a token while there is no admin, storing only its SHA-256 with an end one hour on', async () => {
      const token = await issueSetupToken(db(), NOW);
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(SETUP_TOKEN_HOURS).toBe(1);

      const rows = await db().select().from(settings);
      expect(rows).toEqual([
        {
          key: 'admin-setup',
          value: {
            tokenHash: createHash('sha256').update(token!).digest('hex'),
            expiresAt: at(HOUR_MS).toISOString(),
          },
          updatedAt: NOW,
        },
      ]);
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(setupPath(token!)).toBe(`/admin-only/setup?token=${token}`);
    });

    it('replaces the older token on each start without an admin', async () => {
      const first = (await issueSetupToken(db(), NOW))!;
      const second = (await issueSetupToken(db(), at(HOUR_MS / 2)))!;
      expect(second).not.toBe(first);
      expect(await isSetupTokenValid(db(), first, at(HOUR_MS / 2))).toBe(false);
      expect(await isSetupTokenValid(db(), second, at(HOUR_MS / 2))).toBe(true);
      // The new one runs an hour from its own issue.
      expect(await isSetupTokenValid(db(), second, at(HOUR_MS + HOUR_MS / 2 - 1))).toBe(true);
    });

    it('issues nothing once an admin exists, and deletes a leftover token', async () => {
      const leftover = (await issueSetupToken(db(), NOW))!;
      await createOrResetAdmin(db(), { username: 'alice', password: PASSWORD }, 'cli', NOW);
      expect(await issueSetupToken(db(), at(1000))).toBeNull();
      expect(await db().select().from(settings)).toEqual([]);
      expect(await isSetupTokenValid(db(), leftover, at(1000))).toBe(false);
    });
  });

  describe('isSetupTokenValid', () => {
    it('holds a pending token void once an admin exists another way (npm run admin:create)', async () => {
      const token = (await issueSetupToken(db(), NOW))!;
      await createOrResetAdmin(db(), { username: 'bob', password: PASSWORD }, 'cli', NOW);
      expect(await isSetupTokenValid(db(), token, at(1000))).toBe(false);
      vi.mocked(hash).mockClear();
      expect(await setup(token, at(1000))).toBeNull();
      expect(hash).not.toHaveBeenCalled();
      expect((await db().select().from(adminUsers)).map((user) => user.username)).toEqual(['bob']);
    });

    it('holds the token valid for one hour, not from that instant on, and refuses any other token', async () => {
      const token = (await issueSetupToken(db(), NOW))!;
      expect(await isSetupTokenValid(db(), token, NOW)).toBe(true);
      expect(await isSetupTokenValid(db(), token, at(HOUR_MS - 1))).toBe(true);
      expect(await isSetupTokenValid(db(), token, at(HOUR_MS))).toBe(false);
      for (const wrong of ['', 'x', `${token}x`, token.slice(1), token.toUpperCase()]) {
        expect(await isSetupTokenValid(db(), wrong, NOW), wrong).toBe(false);
      }
    });

    it('holds nothing valid before a token was issued', async () => {
      expect(await isSetupTokenValid(db(), 'anything', NOW)).toBe(false);
    });
  });

  describe('completeSetup', () => {
    it('creates the first admin and opens a session, deletes the token, and is audited', async () => {
      const token = (await issueSetupToken(db(), NOW))!;
      const session = await setup(token, at(30 * 60_000));
      expect(session).toEqual({
        sessionId: expect.any(String),
        username: 'alice',
        expiresAt: at(30 * 60_000 + 12 * HOUR_MS).toISOString(),
      });
      expect(await findSession(db(), session!.sessionId, at(HOUR_MS))).toMatchObject({ username: 'alice' });
      expect(await countAdmins(db())).toBe(1);
      const [user] = await db().select().from(adminUsers);
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await signIn(db(), { username: 'alice', password: PASSWORD }, 'test', at(HOUR_MS))).not.toBeNull();
      expect(await db().select().from(settings)).toEqual([]);

      expect((await listAudit(db(), 200)).reverse()[0]).toMatchObject({
        actor: 'setup',
        action: 'admin-created',
        target: 'admin:alice',
      });
    });

    it('works once: the same token fails the second time, and creates no second admin', async () => {
      const token = (await issueSetupToken(db(), NOW))!;
      expect(await setup(token, NOW, 'alice')).not.toBeNull();
      expect(await setup(token, at(1000), 'mallory')).toBeNull();
      expect((await db().select().from(adminUsers)).map((user) => user.username)).toEqual(['alice']);
      // Nor can a new token be had now that an admin exists.
      expect(await issueSetupToken(db(), at(2000))).toBeNull();
    });

    it('refuses a wrong or expired token without hashing the password, creating nobody', async () => {
      const token = (await issueSetupToken(db(), NOW))!;
      vi.mocked(hash).mockClear();
      expect(await setup(`${token}x`)).toBeNull();
      expect(await setup('')).toBeNull();
      expect(await setup(token, at(HOUR_MS))).toBeNull();
      expect(hash).not.toHaveBeenCalled();
      expect(await countAdmins(db())).toBe(0);
      expect(await listAudit(db(), 200)).toEqual([]);
      // Refusals spend nothing: the right token still works inside its hour, hashing once.
      expect(await setup(token, at(HOUR_MS - 1))).not.toBeNull();
      expect(hash).toHaveBeenCalledTimes(1);
    });

    it('refuses a token that was never issued without hashing the password', async () => {
      vi.mocked(hash).mockClear();
      expect(await setup('anything')).toBeNull();
      expect(hash).not.toHaveBeenCalled();
    });
  });
});
