/**
 * DELETE /reminders/{id}: the page cancels its reminder (docs/decisions/033-web-push-reminders.md),
 * relayed to the api. Same-origin writes only. Answers 204; `{ message }` with 404 (no such pending
 * reminder: it rang, expired or was cancelled), 429 or 502.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node';
import { REMINDER_MESSAGES } from '../../contract/reminders';
import { cancelReminder, relayedFailure } from '~/models/reminders.server';
import { assertSameOrigin } from '~/utils/csrf.server';

export async function action({ request, params, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  if (request.method !== 'DELETE') return json({ message: REMINDER_MESSAGES.badRequest }, { status: 405 });
  try {
    if (await cancelReminder(context, params.id ?? '')) return new Response(null, { status: 204 });
    return json({ message: REMINDER_MESSAGES.notFound }, { status: 404 });
  } catch (error) {
    return relayedFailure(context, error, '[reminders] cancel');
  }
}
