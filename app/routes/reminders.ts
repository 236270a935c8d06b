/**
 * POST /reminders: the page sets a reminder (docs/decisions/033-web-push-reminders.md) with JSON
 * `{ subscription: { endpoint, keys: { p256dh, auth } }, routeNo, direction, leadMin }`. The web
 * checks it with the contract's schema and relays it to the api with the page's language (the
 * notification's; app/i18n/locale.server.ts), never one the body names. Same-origin writes only
 * (app/utils/csrf.server.ts). Answers JSON: 201 with the reminder `{ id, routeNo, direction,
 * leadMin }`; `{ message }` with 400 (a bad body, an endpoint outside the push services), 409 (three
 * pending already), 429 (over the address's limit, with Retry-After) or 502 (the api failed).
 */
import { json, type ActionFunctionArgs } from '@remix-run/node';
import { REMINDER_MESSAGES, ReminderRequestSchema } from '../../contract/reminders';
import { localeOfRequest } from '~/i18n/locale.server';
import { relayedFailure, setReminder } from '~/models/reminders.server';
import { assertSameOrigin } from '~/utils/csrf.server';

export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  if (request.method !== 'POST') return json({ message: REMINDER_MESSAGES.badRequest }, { status: 405 });
  const body: unknown = await request.json().catch(() => undefined);
  const parsed = ReminderRequestSchema.safeParse(body);
  if (!parsed.success) return json({ message: REMINDER_MESSAGES.badRequest }, { status: 400 });
  try {
    return json(await setReminder(context, parsed.data, localeOfRequest(request)), { status: 201 });
  } catch (error) {
    return relayedFailure(context, error, '[reminders] set');
  }
}
