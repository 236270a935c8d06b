/**
 * The page's reminder calls, POST /reminders, DELETE /reminders/{id}, GET /reminders/key and PUT
 * /reminders/subscription (docs/decisions/033-web-push-reminders.md), against the real api
 * in-process: set in the page's language (never one the body names), refused with the api's
 * message for an endpoint outside the push services or with no bus far enough ahead, cancelled,
 * moved to a renewed subscription; bad bodies and cross-site writes never reach the api.
 */
import { browserSubscription, TEST_VAPID } from '../../tests/setup/push';
import type { AppLoadContext } from '@remix-run/node';
import { REMINDER_MESSAGES, ReminderSchema } from '../../contract/reminders';
import { action as setAction } from '~/routes/reminders';
import { action as cancelAction } from '~/routes/reminders.$id';
import { loader as keyLoader } from '~/routes/reminders.key';
import { action as renewAction } from '~/routes/reminders.subscription';
import { webApiFor } from '../../tests/setup/web-api';
import { FakeClock } from '../../tests/setup/fakes';
import home from '~/i18n/messages/ko/home.json';

const SAME_ORIGIN = { Origin: 'http://web.test', 'Sec-Fetch-Site': 'same-origin' };

/** The answer to a call: what the action returns, or the Response it throws (as Remix answers it). */
const answered = (call: Promise<Response>) =>
  call.catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });

describe('the bell’s Korean words for the api’s refusals', () => {
  it('are the api’s own messages (contract REMINDER_MESSAGES), so the page and the api never say it two ways', () => {
    expect([home['bell.tooMany'], home['bell.noBus'], home['bell.failed'], home['bell.off']]).toEqual([
      REMINDER_MESSAGES.tooMany,
      REMINDER_MESSAGES.noBus,
      REMINDER_MESSAGES.failed,
      REMINDER_MESSAGES.off,
    ]);
  });
});

describe('POST /reminders and DELETE /reminders/{id} through the real api', () => {
  // A weekday morning: the down cards' estimates (the timetable's, without history) are there to set a reminder for.
  const api = webApiFor({ clock: new FakeClock(new Date('2026-11-23T08:00:00+09:00')) });
  let ip = 0;
  const context = (): AppLoadContext => api().context({ clientIp: `203.0.113.${++ip}` });
  const set = (body: unknown, headers: Record<string, string> = SAME_ORIGIN) =>
    answered(
      setAction({
        request: new Request('http://web.test/reminders', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
        context: context(),
        params: {},
      }),
    );
  const cancel = (id: string) =>
    answered(
      cancelAction({
        request: new Request(`http://web.test/reminders/${id}`, { method: 'DELETE', headers: SAME_ORIGIN }),
        context: context(),
        params: { id },
      }),
    );
  const request = () => ({ subscription: browserSubscription(), routeNo: '1005', direction: 'down', leadMin: 3 });
  beforeEach(() => {
    api().calls.length = 0;
  });

  it('sets a reminder in the page’s language, whatever the body says, and cancels it', async () => {
    const answer = await set({ ...request(), locale: 'ko' }, { ...SAME_ORIGIN, 'Accept-Language': 'en-US' });
    expect(answer.status).toBe(201);
    const reminder = ReminderSchema.parse(await answer.json());
    expect(reminder).toMatchObject({ routeNo: '1005', direction: 'down', leadMin: 3 });
    const [relayed] = api().calls.filter((call) => call.method === 'POST');
    expect(await relayed.json()).toMatchObject({ routeNo: '1005', locale: 'en' });
    expect((await cancel(reminder.id)).status).toBe(204);
    const again = await cancel(reminder.id);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: REMINDER_MESSAGES.notFound });
  });

  it('answers the api’s 400 for an endpoint outside the push services', async () => {
    const answer = await set({ ...request(), subscription: browserSubscription('https://evil.example/push') });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ message: REMINDER_MESSAGES.badEndpoint });
  });

  it('answers the api’s 422 when no bus is known far enough ahead (up: no arrivals in this feed)', async () => {
    const answer = await set({ ...request(), direction: 'up' });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toEqual({ message: REMINDER_MESSAGES.noBus });
  });

  it('gives the VAPID public key the page subscribes with', async () => {
    const answer = await keyLoader({
      request: new Request('http://web.test/reminders/key'),
      context: context(),
      params: {},
    });
    expect(await answer.json()).toEqual({ publicKey: TEST_VAPID.publicKey });
  });

  it('moves the reminders of a renewed subscription to the new one (the service worker’s pushsubscriptionchange)', async () => {
    const old = browserSubscription('https://fcm.googleapis.com/fcm/send/old');
    const reminder = ReminderSchema.parse(await (await set({ ...request(), subscription: old })).json());
    const renew = (body: unknown) =>
      answered(
        renewAction({
          request: new Request('http://web.test/reminders/subscription', {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json', ...SAME_ORIGIN },
            body: JSON.stringify(body),
          }),
          context: context(),
          params: {},
        }),
      );
    const renewed = browserSubscription('https://fcm.googleapis.com/fcm/send/new');
    expect((await renew({ oldEndpoint: old.endpoint, subscription: renewed })).status).toBe(204);
    expect((await renew({ oldEndpoint: old.endpoint, subscription: renewed })).status).toBe(404);
    const outside = await renew({
      oldEndpoint: renewed.endpoint,
      subscription: browserSubscription('https://evil.example/p'),
    });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toEqual({ message: REMINDER_MESSAGES.badEndpoint });
    expect((await cancel(reminder.id)).status).toBe(204); // still pending, on the new subscription
  });

  it('refuses a bad body with 400, and a cross-site write with 403, without calling the api', async () => {
    for (const body of ['not json', { ...request(), leadMin: 7 }, { ...request(), subscription: null }]) {
      const answer = await set(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toEqual({ message: REMINDER_MESSAGES.badRequest });
    }
    expect((await set(request(), { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect(api().calls).toEqual([]);
  });
});
