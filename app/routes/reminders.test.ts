/**
 * The page's reminder calls, POST /reminders and DELETE /reminders/{id}
 * (docs/decisions/033-web-push-reminders.md), against the real api in-process: set in the page's
 * language (never one the body names), refused with the api's message for an endpoint outside the
 * push services, cancelled; bad bodies and cross-site writes never reach the api.
 */
import { browserSubscription } from '../../tests/setup/push';
import type { AppLoadContext } from '@remix-run/node';
import { REMINDER_MESSAGES, ReminderSchema } from '../../contract/reminders';
import { action as setAction } from '~/routes/reminders';
import { action as cancelAction } from '~/routes/reminders.$id';
import { webApiFor } from '../../tests/setup/web-api';

const SAME_ORIGIN = { Origin: 'http://web.test', 'Sec-Fetch-Site': 'same-origin' };

/** The answer to a call: what the action returns, or the Response it throws (as Remix answers it). */
const answered = (call: Promise<Response>) =>
  call.catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  });

describe('POST /reminders and DELETE /reminders/{id} through the real api', () => {
  const api = webApiFor();
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
  const request = () => ({ subscription: browserSubscription(), routeNo: '1005', direction: 'up', leadMin: 3 });
  beforeEach(() => {
    api().calls.length = 0;
  });

  it('sets a reminder in the page’s language, whatever the body says, and cancels it', async () => {
    const answer = await set({ ...request(), locale: 'ko' }, { ...SAME_ORIGIN, 'Accept-Language': 'en-US' });
    expect(answer.status).toBe(201);
    const reminder = ReminderSchema.parse(await answer.json());
    expect(reminder).toMatchObject({ routeNo: '1005', direction: 'up', leadMin: 3 });
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
