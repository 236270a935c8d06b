import { AdminSessionSchema, AuditListResponseSchema } from '../../contract/admin';
import { ApiErrorSchema } from '../../contract/bus';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { createOrResetAdmin } from '../admin/accounts';
import { issueSetupToken } from '../admin/setup';
import { adminUsers } from '../db/schema';
import type { Api } from '../app';

const TOKEN = 'admin-auth-test-service-token-0123456789abcdef';
const PASSWORD = 'correct horse battery staple';
const HOUR_SEC = 3600;
/**
 * The sign-in limits (README "Sessions and sign-in limits"; api/rate-limit.ts, api/admin/sign-in-limits.ts),
 * each over 15 minutes: failures of one username from one address before 429, failures from one
 * address over all usernames before 429, and failures of one username from everywhere before each
 * further attempt waits (SLOW_DOWN_MS, milliseconds, the last one repeating).
 */
const PAIR_LIMIT = 10;
const IP_LIMIT = 20;
const USERNAME_CEILING = 20;
const SLOW_DOWN_MS = [250, 500, 1000, 2000, 3000, 3000];
/** The first-admin setup page's limit: GET and POST /api/admin/setup per address in 15 minutes. */
const SETUP_LIMIT = 10;

describe.each(testDatabaseKinds)('admin sign-in api on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;
  const db = () => database().db;

  beforeEach(async () => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = testApi({ db: db(), storage: store, clock, serviceToken: TOKEN });
    await createOrResetAdmin(db(), { username: 'alice', password: PASSWORD }, 'cli', clock.now());
  });
  afterEach(() => store.remove());

  const authorized = { Authorization: `Bearer ${TOKEN}` };
  const login = (username: string, password: string, ip = '203.0.113.7') =>
    app.request('/api/admin/login', {
      method: 'POST',
      headers: { ...authorized, 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify({ username, password }),
    });
  const sessionCall = (method: 'GET' | 'DELETE', sessionId?: string) =>
    app.request('/api/admin/session', {
      method,
      headers: { ...authorized, ...(sessionId === undefined ? {} : { 'X-Admin-Session': sessionId }) },
    });
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;
  async function signedIn(username = 'alice', password = PASSWORD, ip?: string) {
    const response = await login(username, password, ip);
    expect(response.status).toBe(200);
    return AdminSessionSchema.parse(await response.json());
  }
  async function auditActions() {
    const response = await app.request('/api/admin/audit', { headers: authorized });
    return AuditListResponseSchema.parse(await response.json())
      .data.reverse()
      .map((entry) => `${entry.action} ${entry.target}`);
  }
  /** Expects 429 with a Retry-After of at most the 15-minute window, in whole seconds. */
  async function expectLimited(response: Response) {
    expect(response.status).toBe(429);
    expect(await message(response)).toBe('Too many sign-in attempts; try again later');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  }

  describe('POST /api/admin/login', () => {
    it('answers the session for the right password (200, no-store); the username is read lower-cased', async () => {
      const response = await login('  Alice ', PASSWORD);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toStrictEqual({
        sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        username: 'alice',
        expiresAt: new Date(clock.now().getTime() + 12 * HOUR_SEC * 1000).toISOString(),
      });
      expect(await auditActions()).toEqual(['admin-created admin:alice', 'sign-in admin:alice']);
    });

    it('answers 401 alike for a wrong password and an unknown username, each audited as sign-in-failed', async () => {
      for (const [username, password] of [
        ['alice', `${PASSWORD}!`],
        ['mallory', PASSWORD],
      ]) {
        const response = await login(username, password);
        expect(response.status, username).toBe(401);
        expect(await response.json()).toEqual({ message: 'Wrong username or password' });
      }
      expect(await auditActions()).toEqual([
        'admin-created admin:alice',
        'sign-in-failed admin:alice',
        'sign-in-failed admin:mallory',
      ]);
    });

    it('answers 400 for a body without a username or a password', async () => {
      for (const body of [{ username: 'alice' }, { password: PASSWORD }, { username: '', password: PASSWORD }, 'x']) {
        const response = await app.request('/api/admin/login', {
          method: 'POST',
          headers: { ...authorized, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
    });

    it('answers 400 with a message, never a database error, for a NUL or a line break in the username or a NUL in the password', async () => {
      const bodies: [string, string, string][] = [
        ['ali\u0000ce', PASSWORD, 'username: 아이디에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
        ['alice\nadmin', PASSWORD, 'username: 아이디에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
        ['alice', `${PASSWORD}\u0000`, 'password: 입력할 수 없는 문자가 들어 있습니다.'],
      ];
      for (const [username, password, expected] of bodies) {
        const response = await login(username, password);
        expect(response.status, JSON.stringify(username)).toBe(400);
        expect(await message(response)).toBe(expected);
      }
    });

    it('leaves the right password working from another address after twelve wrong ones from one address', async () => {
      const attacker = '198.51.100.66';
      for (let i = 1; i <= 12; i += 1) {
        const response = await login('alice', 'wrong password', attacker);
        if (i <= PAIR_LIMIT) expect(response.status, `attempt ${i}`).toBe(401);
        else await expectLimited(response);
      }
      // No wait either: one address alone never reaches the username's slow-down.
      await signedIn('alice', PASSWORD, '192.0.2.10');
      expect(clock.pending()).toBe(0);
    });

    it(`answers 429 with Retry-After after ${PAIR_LIMIT} consecutive failures of one username from one address`, async () => {
      const ip = '198.51.100.7';
      for (let i = 1; i <= PAIR_LIMIT; i += 1) {
        const response = await login(i % 2 ? 'alice' : 'ALICE', 'wrong password', ip);
        expect(response.status, `failure ${i}`).toBe(401);
      }
      // Even the right password from that address waits now; nothing is checked or audited.
      await expectLimited(await login('alice', PASSWORD, ip));
      await expectLimited(await login('alice', 'wrong password', ip));
      expect((await auditActions()).filter((action) => action.startsWith('sign-in'))).toHaveLength(PAIR_LIMIT);
      // The address may still try another username, and the username signs in from another address.
      await createOrResetAdmin(db(), { username: 'bob', password: PASSWORD }, 'cli', clock.now());
      await signedIn('bob', PASSWORD, ip);
      await signedIn('alice', PASSWORD, '198.51.100.8');
    });

    it('clears the failures of a username from an address on a success from there', async () => {
      const ip = '198.51.100.9';
      const failures = async (count: number) => {
        for (let i = 1; i <= count; i += 1) {
          const response = await login('alice', 'wrong password', ip);
          expect(response.status, `failure ${i}`).toBe(401);
        }
      };
      await failures(PAIR_LIMIT - 1);
      await signedIn('alice', PASSWORD, ip);
      // A full run of failures again: the success cleared the first ones.
      await failures(PAIR_LIMIT);
      await expectLimited(await login('alice', PASSWORD, ip));
    });

    it('answers 429 to 25 wrong passwords from one address, whatever the usernames', async () => {
      const ip = '198.51.100.77';
      for (let i = 1; i <= 25; i += 1) {
        const response = await login(`guess${i}`, 'wrong password', ip);
        if (i <= IP_LIMIT) expect(response.status, `attempt ${i}`).toBe(401);
        else await expectLimited(response);
      }
      await expectLimited(await login('alice', PASSWORD, ip));
      // The username was never the problem: from another address it signs in.
      await signedIn('alice', PASSWORD, '198.51.100.78');
    });

    it(`counts failures from an address, not sign-ins: the ${IP_LIMIT + 1}st failure answers 429`, async () => {
      const ip = '198.51.100.79';
      for (let i = 1; i < IP_LIMIT; i += 1) {
        expect((await login(`guess${i}`, 'wrong password', ip)).status, `failure ${i}`).toBe(401);
      }
      for (let i = 1; i <= 3; i += 1) await signedIn('alice', PASSWORD, ip);
      expect((await login('guess20', 'wrong password', ip)).status).toBe(401);
      await expectLimited(await login('guess21', 'wrong password', ip));
    });

    it('counts failures from the addresses of one IPv6 /64, however spelt, as from one address', async () => {
      for (let i = 1; i <= 25; i += 1) {
        const ip = i % 2 ? `2001:db8:7:7::${i.toString(16)}` : `2001:DB8:7:7:0:0:ab:${i.toString(16)}`;
        const response = await login(`guess${i}`, 'wrong password', ip);
        if (i <= IP_LIMIT) expect(response.status, `attempt ${i}`).toBe(401);
        else await expectLimited(response);
      }
      // Ten wrong for one username from the /64 are its pair's limit, whichever addresses sent them.
      await signedIn('alice', PASSWORD, '2001:db8:7:8::1');
      for (let i = 1; i <= PAIR_LIMIT; i += 1) {
        expect((await login('alice', 'wrong password', `2001:db8:7:8::${i.toString(16)}`)).status).toBe(401);
      }
      await expectLimited(await login('alice', PASSWORD, '2001:db8:7:8:ffff::1'));
    });

    it('never refuses an address for its neighbours’ failures: a /24 full of them leaves the admin’s address signing in', async () => {
      for (let i = 0; i < 4 * IP_LIMIT; i += 1) {
        const ip = `192.0.2.${1 + (i % 4)}`;
        expect((await login(`guess${i}`, 'wrong password', ip)).status, `failure ${i + 1}`).toBe(401);
      }
      await expectLimited(await login('guess-next', 'wrong password', '192.0.2.1'));
      await signedIn('alice', PASSWORD, '192.0.2.200');
    });

    it('checks no more passwords than the limits when the attempts come all at once', async () => {
      const ip = '203.0.113.50';
      const statuses = async (usernames: string[]) =>
        (await Promise.all(usernames.map((username) => login(username, 'wrong password', ip)))).map(
          (response) => response.status,
        );
      const oneUsername = await statuses(Array.from({ length: 3 * PAIR_LIMIT }, () => 'alice'));
      expect(oneUsername.filter((status) => status === 401)).toHaveLength(PAIR_LIMIT);
      expect(oneUsername.filter((status) => status === 429)).toHaveLength(2 * PAIR_LIMIT);
      // The same address with a new username each time: the address's limit holds.
      const manyUsernames = await statuses(Array.from({ length: 2 * IP_LIMIT }, (_, i) => `guess${i}`));
      expect(manyUsernames.filter((status) => status === 401)).toHaveLength(IP_LIMIT - PAIR_LIMIT);
      expect(manyUsernames.filter((status) => status === 429)).toHaveLength(IP_LIMIT + PAIR_LIMIT);
    });

    it(`slows a username down after ${USERNAME_CEILING} failures from everywhere, and never locks it`, async () => {
      /** Sends the attempt and expects its answer held back exactly `delayMs` of the api's clock. */
      const answeredAfter = async (delayMs: number, attempt: () => Response | Promise<Response>) => {
        expect(clock.pending()).toBe(0);
        const response = Promise.resolve(attempt());
        await vi.waitFor(() => expect(clock.pending()).toBe(1));
        clock.set(new Date(clock.now().getTime() + delayMs - 1));
        expect(clock.pending(), `still waiting 1 ms before ${delayMs} ms`).toBe(1);
        clock.set(new Date(clock.now().getTime() + 1));
        expect(clock.pending()).toBe(0);
        return response;
      };
      // From many addresses, none of them over its own limits.
      for (let i = 1; i <= USERNAME_CEILING; i += 1) {
        const response = await login('alice', 'wrong password', `198.51.100.${i}`);
        expect(response.status, `failure ${i}`).toBe(401);
      }
      expect(clock.pending()).toBe(0);
      for (const [i, delayMs] of SLOW_DOWN_MS.entries()) {
        const response = await answeredAfter(delayMs, () => login('alice', 'wrong password', `198.51.100.${101 + i}`));
        expect(response.status, `failure ${USERNAME_CEILING + i + 1}`).toBe(401);
      }
      // The right password from an address never seen still gets in, after the longest wait.
      const response = await answeredAfter(SLOW_DOWN_MS.at(-1)!, () => login('alice', PASSWORD, '192.0.2.1'));
      expect(response.status).toBe(200);
      // Another admin is not slowed down.
      await createOrResetAdmin(db(), { username: 'bob', password: PASSWORD }, 'cli', clock.now());
      await signedIn('bob', PASSWORD, '198.51.100.1');
    });
  });

  describe('GET and DELETE /api/admin/session', () => {
    it('answers the live session named in X-Admin-Session (no-store), until 12 hours after sign-in', async () => {
      const session = await signedIn();
      const response = await sessionCall('GET', session.sessionId);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toStrictEqual(session);

      clock.advance(12 * HOUR_SEC - 1);
      expect((await sessionCall('GET', session.sessionId)).status).toBe(200);
      clock.advance(1);
      const expired = await sessionCall('GET', session.sessionId);
      expect(expired.status).toBe(404);
      expect(await message(expired)).toBe('No such session');
    });

    it('answers 404 without the header, for an unknown id, or for an id too long to be one', async () => {
      await signedIn();
      for (const sessionId of [undefined, '', 'unknown', 'x'.repeat(101)]) {
        const response = await sessionCall('GET', sessionId);
        expect(response.status, String(sessionId)).toBe(404);
        expect(await message(response)).toBe('No such session');
      }
    });

    it('signs out with DELETE (204): a logged out session is rejected, another one is not', async () => {
      const session = await signedIn();
      const other = await signedIn();
      const response = await sessionCall('DELETE', session.sessionId);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');

      expect((await sessionCall('GET', session.sessionId)).status).toBe(404);
      expect((await sessionCall('GET', other.sessionId)).status).toBe(200);
      // Signing out twice is harmless, and audited once.
      expect((await sessionCall('DELETE', session.sessionId)).status).toBe(204);
      expect((await auditActions()).filter((action) => action.startsWith('sign-out'))).toEqual([
        'sign-out admin:alice',
      ]);
    });
  });

  describe('GET and POST /api/admin/setup', () => {
    const setup = (body: Record<string, unknown>, ip = '203.0.113.7') =>
      app.request('/api/admin/setup', {
        method: 'POST',
        headers: { ...authorized, 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(body),
      });
    const check = (token: string, ip = '203.0.113.7') =>
      app.request(`/api/admin/setup?token=${encodeURIComponent(token)}`, {
        headers: { ...authorized, 'X-Forwarded-For': ip },
      });

    beforeEach(async () => {
      // No admin yet: the first start's state.
      await db().delete(adminUsers);
    });

    it('checks the token, creates the first admin with it (201 and a session), and only once', async () => {
      const token = (await issueSetupToken(db(), clock.now()))!;
      expect(await (await check(token)).json()).toEqual({ success: true });
      expect((await check(`${token}x`)).status).toBe(404);
      expect((await app.request('/api/admin/setup', { headers: authorized })).status).toBe(404);

      const tooShort = await setup({ token, username: 'alice', password: 'short' });
      expect(tooShort.status).toBe(400);
      expect(await message(tooShort)).toBe('password: 비밀번호는 12자 이상이어야 합니다.');

      const response = await setup({ token, username: 'Alice', password: PASSWORD });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const session = AdminSessionSchema.parse(await response.json());
      expect(session.username).toBe('alice');
      expect((await sessionCall('GET', session.sessionId)).status).toBe(200);
      await signedIn('alice', PASSWORD);

      const again = await setup({ token, username: 'mallory', password: PASSWORD });
      expect(again.status).toBe(404);
      expect(await message(again)).toBe('No setup in progress');
      expect((await check(token)).status).toBe(404);
    });

    it('answers 404 for a token an hour old', async () => {
      const token = (await issueSetupToken(db(), clock.now()))!;
      clock.advance(HOUR_SEC);
      expect((await check(token)).status).toBe(404);
      expect((await setup({ token, username: 'alice', password: PASSWORD })).status).toBe(404);
    });

    it('refuses the setup once an admin exists, even with the token that was valid', async () => {
      const token = (await issueSetupToken(db(), clock.now()))!;
      await createOrResetAdmin(db(), { username: 'bob', password: PASSWORD }, 'cli', clock.now());
      expect((await check(token)).status).toBe(404);
      const response = await setup({ token, username: 'mallory', password: PASSWORD });
      expect(response.status).toBe(404);
      expect(await message(response)).toBe('No setup in progress');
      // Nor does a start print a fresh link any more.
      expect(await issueSetupToken(db(), clock.now())).toBeNull();
    });

    it(`answers 429 with Retry-After after ${SETUP_LIMIT} setup requests from one address in 15 minutes`, async () => {
      const token = (await issueSetupToken(db(), clock.now()))!;
      const ip = '198.51.100.90';
      for (let i = 1; i <= SETUP_LIMIT; i += 1) {
        const response =
          i % 2
            ? await check(`guess${i}`, ip)
            : await setup({ token: `guess${i}`, username: 'mallory', password: PASSWORD }, ip);
        expect(response.status, `request ${i}`).toBe(404);
      }
      for (const response of [
        await check(token, ip),
        await setup({ token, username: 'alice', password: PASSWORD }, ip),
      ]) {
        expect(response.status).toBe(429);
        expect(await message(response)).toBe('Too many requests; try again later');
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      }
      // The one who holds the link, from another address, is not stopped by the guesses.
      expect((await check(token, '192.0.2.5')).status).toBe(200);
      expect((await setup({ token, username: 'alice', password: PASSWORD }, '192.0.2.5')).status).toBe(201);
    });
  });
});
