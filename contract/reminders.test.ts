import { browserSubscription } from '../tests/setup/push';
import { randomBytes } from 'node:crypto';
import { PushSubscriptionSchema, ReminderRequestSchema } from './reminders';
import { REMINDER_LEAD_MINUTES } from './reminder-leads';

describe('a reminder request', () => {
  const good = { subscription: browserSubscription(), routeNo: '1150', direction: 'up', leadMin: 5 };

  it('takes a browser’s subscription, a route, a direction and one of the lead times', () => {
    expect(ReminderRequestSchema.parse(good)).toEqual(good);
    for (const leadMin of REMINDER_LEAD_MINUTES) {
      expect(ReminderRequestSchema.safeParse({ ...good, leadMin }).success, String(leadMin)).toBe(true);
    }
  });

  it('refuses other lead times, routes and directions', () => {
    for (const change of [{ leadMin: 4 }, { leadMin: '5' }, { routeNo: '9999' }, { direction: 'sideways' }]) {
      expect(ReminderRequestSchema.safeParse({ ...good, ...change }).success, JSON.stringify(change)).toBe(false);
    }
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret, and endpoints that are no URL', () => {
    const { keys } = browserSubscription();
    for (const subscription of [
      { endpoint: 'not a url', keys },
      { endpoint: `https://fcm.googleapis.com/${'x'.repeat(2048)}`, keys },
      { endpoint: 'https://fcm.googleapis.com/x', keys: { ...keys, p256dh: keys.p256dh.slice(1) } },
      { endpoint: 'https://fcm.googleapis.com/x', keys: { ...keys, p256dh: `A${keys.p256dh.slice(1)}` } },
      { endpoint: 'https://fcm.googleapis.com/x', keys: { ...keys, auth: randomBytes(8).toString('base64url') } },
      { endpoint: 'https://fcm.googleapis.com/x', keys: { p256dh: keys.p256dh } },
    ]) {
      expect(PushSubscriptionSchema.safeParse(subscription).success, JSON.stringify(subscription)).toBe(false);
    }
  });
});
