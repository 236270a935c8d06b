/**
 * PUT /reminders/subscription: the service worker's `pushsubscriptionchange` (public/sw-push.js)
 * gives the subscription the browser made in place of an old one, and the reminders set on the old
 * one move to it (docs/decisions/033-web-push-reminders.md), relayed to the api. JSON `{ oldEndpoint,
 * subscription }`, checked with the contract's schema. Same-origin writes only (a worker's fetch
 * sends its Origin). Answers 204; `{ message }` with 400 (a bad body, an endpoint outside the push
 * services), 404 (the old endpoint has no reminder left), 429 or 502.
 */
import { json, type ActionFunctionArgs } from '@remix-run/node';
import { REMINDER_MESSAGES, SubscriptionRenewalSchema } from '../../contract/reminders';
import { relayedFailure, renewSubscription } from '~/models/reminders.server';
import { assertSameOrigin } from '~/utils/csrf.server';

export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  if (request.method !== 'PUT') return json({ message: REMINDER_MESSAGES.badRequest }, { status: 405 });
  const parsed = SubscriptionRenewalSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) return json({ message: REMINDER_MESSAGES.badRequest }, { status: 400 });
  try {
    if (await renewSubscription(context, parsed.data)) return new Response(null, { status: 204 });
    return json({ message: REMINDER_MESSAGES.notFound }, { status: 404 });
  } catch (error) {
    return relayedFailure(context, error, '[reminders] renew');
  }
}
