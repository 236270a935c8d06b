import { browserSubscription, TEST_VAPID } from '../../tests/setup/push';
import { ApiErrorSchema } from '../../contract/bus';
import { MAX_PENDING_REMINDERS, REMINDER_MESSAGES, ReminderSchema } from '../../contract/reminders';
import { pushSubscriptions, reminders } from '../db/schema';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import type { Api } from '../app';
import { pushHostsOf } from '../reminders/push-endpoint';

const VAPID_PUBLIC_KEY = TEST_VAPID.publicKey;

describe.each(testDatabaseKinds)('/api/reminders on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let app: Api;
  let ipCounter = 0;

  beforeEach(() => {
    store = tempLocalStore();
    const clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    app = testApi({
      db: database().db,
      storage: store,
      clock,
      pushHosts: pushHostsOf('127.0.0.1:8099'),
      vapidPublicKey: VAPID_PUBLIC_KEY,
    });
  });
  afterEach(() => store.remove());

  const call = (method: string, path: string, body?: unknown, ip = `203.0.113.${++ipCounter}`) =>
    app.request(`/api/reminders${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const reminder = (endpoint = 'http://127.0.0.1:8099/push/phone-1') => ({
    subscription: browserSubscription(endpoint),
    routeNo: '1150',
    direction: 'down',
    leadMin: 10,
  });
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;

  it('sets a reminder (201, its id) in the page’s language, and cancels it (204), its subscription with it', async () => {
    const set = await call('POST', '', { ...reminder(), locale: 'en' });
    expect(set.status).toBe(201);
    const { id } = ReminderSchema.parse(await set.json());
    expect(await database().db.select({ locale: reminders.locale }).from(reminders)).toEqual([{ locale: 'en' }]);
    expect((await call('DELETE', `/${id}`)).status).toBe(204);
    expect(await database().db.select().from(pushSubscriptions)).toEqual([]);
    const again = await call('DELETE', `/${id}`);
    expect(again.status).toBe(404);
    expect(await message(again)).toBe(REMINDER_MESSAGES.notFound);
  });

  it('refuses an endpoint outside the push services with 400, storing nothing', async () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/x',
      'http://127.0.0.1:8098/push',
      'http://10.0.0.1/',
    ]) {
      const refused = await call('POST', '', reminder(endpoint));
      expect(refused.status, endpoint).toBe(400);
      expect(await message(refused)).toBe(REMINDER_MESSAGES.badEndpoint);
    }
    expect(await database().db.select().from(pushSubscriptions)).toEqual([]);
  });

  it('refuses a bad body with 400 and a message naming the field, and a fourth pending reminder with 409', async () => {
    const bad = await call('POST', '', { ...reminder(), leadMin: 7 });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toMatch(/^leadMin: /);
    const same = reminder();
    for (let set = 0; set < MAX_PENDING_REMINDERS; set++) expect((await call('POST', '', same)).status).toBe(201);
    const fourth = await call('POST', '', same);
    expect(fourth.status).toBe(409);
    expect(await message(fourth)).toBe(REMINDER_MESSAGES.tooMany);
  });

  it('gives the VAPID public key pages subscribe with; without keys (production without VAPID_*) says reminders are off', async () => {
    const key = await app.request('/api/reminders/key');
    expect(await key.json()).toEqual({ publicKey: VAPID_PUBLIC_KEY });
    const off = testApi({ db: database().db, storage: store, clock: new FakeClock(new Date()) });
    for (const response of [
      await off.request('/api/reminders/key'),
      await off.request('/api/reminders', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(reminder()),
      }),
    ]) {
      expect(response.status).toBe(503);
      expect(await message(response)).toBe(REMINDER_MESSAGES.off);
    }
  });

  it('answers 422 when no bus of the route is known further ahead than the minutes asked', async () => {
    // Up: the test feed has no snapshot, so no bus is known coming to the campus stop.
    const none = await call('POST', '', { ...reminder(), direction: 'up' });
    expect(none.status).toBe(422);
    expect(await message(none)).toBe(REMINDER_MESSAGES.noBus);
    expect(await database().db.select().from(pushSubscriptions)).toEqual([]);
  });

  it('limits each address: 20 calls in 10 minutes, then 429', async () => {
    const ip = '198.51.100.9';
    for (let index = 0; index < 20; index++) {
      expect((await call('DELETE', `/missing-${index}`, undefined, ip)).status).toBe(404);
    }
    const limited = await call('POST', '', reminder(), ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
