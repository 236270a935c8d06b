import { browserSubscription } from '../../tests/setup/push';
import { MAX_PENDING_REMINDERS, type Reminder, type ReminderRequest } from '../../contract/reminders';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { pushSubscriptions, reminders } from '../db/schema';
import { pushHostsOf } from './push-endpoint';
import { cancelReminder, createReminder } from './store';
import type { BusTimes } from './moment';

const NOW = new Date('2026-11-23T08:00:00+09:00');
const minutesLater = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
/** The 1150's buses at the campus stop: one 4 minutes away (too near for 5), one 12 minutes away. */
const times: BusTimes = {
  up: new Map([
    [
      '1150',
      [
        { at: minutesLater(4), plateNo: '경기70아1111' },
        { at: minutesLater(12), plateNo: '경기70아2222' },
      ],
    ],
  ]),
  down: new Map(),
};
const options = { locale: 'en' as const, hosts: pushHostsOf(undefined), now: NOW, times };

describe.each(testDatabaseKinds)('reminders stored on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const request = (subscription = browserSubscription()): ReminderRequest => ({
    subscription,
    routeNo: '1150',
    direction: 'up',
    leadMin: 5,
  });

  it('stores a reminder with its subscription, in the page’s language', async () => {
    const subscription = browserSubscription();
    const reminder = await createReminder(db(), request(subscription), options);
    expect(reminder).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      routeNo: '1150',
      direction: 'up',
      leadMin: 5,
      pendingForSec: (12 + 15) * 60, // its bus 12 minutes away, followed 15 minutes past its time
    });
    expect(await db().select().from(pushSubscriptions)).toEqual([
      { id: 1, endpoint: subscription.endpoint, ...subscription.keys, createdAt: NOW },
    ]);
    const { pendingForSec: _, ...stored } = reminder as Reminder;
    expect(await db().select().from(reminders)).toEqual([
      {
        ...stored,
        subscriptionId: 1,
        locale: 'en',
        targetAt: minutesLater(12),
        plateNo: '경기70아2222',
        createdAt: NOW,
        sentAt: null,
      },
    ]);
  });

  it('refuses a reminder when no bus of the route is known further ahead than its minutes, storing nothing', async () => {
    const subscription = browserSubscription();
    expect(await createReminder(db(), { ...request(subscription), leadMin: 10 }, options)).toHaveProperty('id');
    const late = { ...options, now: minutesLater(3) }; // the 12-minute bus is now 9 away
    expect(await createReminder(db(), { ...request(), leadMin: 10 }, late)).toBe('no-bus');
    expect(await createReminder(db(), { ...request(), direction: 'down' }, options)).toBe('no-bus');
    expect(await db().select().from(pushSubscriptions)).toHaveLength(1);
  });

  it('refuses a p256dh key of the right shape that is no P-256 point, storing nothing', async () => {
    const subscription = browserSubscription();
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4; // uncompressed, but (1…1, 1…1) is not on the curve
    const keys = { ...subscription.keys, p256dh: offCurve.toString('base64url') };
    expect(await createReminder(db(), request({ ...subscription, keys }), options)).toBe('bad-keys');
    expect(await db().select().from(pushSubscriptions)).toEqual([]);
  });

  it('refuses an endpoint outside the push services, storing nothing', async () => {
    const outside = browserSubscription('https://169.254.169.254/latest/meta-data');
    expect(await createReminder(db(), request(outside), options)).toBe('bad-endpoint');
    expect(await db().select().from(pushSubscriptions)).toEqual([]);
  });

  it('takes at most three pending per subscription, renewing its keys each time it is given', async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/phone-2';
    let last = browserSubscription(endpoint);
    for (let set = 0; set < MAX_PENDING_REMINDERS; set++) {
      last = browserSubscription(endpoint);
      expect(await createReminder(db(), request(last), options)).toHaveProperty('id');
    }
    expect(await createReminder(db(), request(browserSubscription(endpoint)), options)).toBe('too-many');
    expect(await db().select().from(reminders)).toHaveLength(MAX_PENDING_REMINDERS);
    const [stored] = await db().select().from(pushSubscriptions);
    expect({ p256dh: stored.p256dh, auth: stored.auth }).toEqual(last.keys);
    // Another browser is not held back by this one's.
    expect(await createReminder(db(), request(), options)).toHaveProperty('id');
  });

  it('cancels a pending reminder, and the subscription with its last one', async () => {
    const subscription = browserSubscription();
    const first = await createReminder(db(), request(subscription), options);
    const second = await createReminder(db(), request(subscription), options);
    if (typeof first === 'string' || typeof second === 'string') throw new Error('not set');
    expect(await cancelReminder(db(), first.id)).toBe(true);
    expect(await db().select().from(pushSubscriptions)).toHaveLength(1);
    expect(await cancelReminder(db(), first.id)).toBe(false);
    expect(await cancelReminder(db(), second.id)).toBe(true);
    expect(await db().select().from(pushSubscriptions)).toEqual([]);
    expect(await cancelReminder(db(), 'no-such-reminder')).toBe(false);
  });
});
