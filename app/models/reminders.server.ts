/**
 * Reminder operations of the upstream api (docs/decisions/033-web-push-reminders.md): the VAPID
 * key (GET /api/reminders/key), setting one (POST /api/reminders), cancelling it (DELETE
 * /api/reminders/{id}) and moving them to a renewed subscription (PUT /api/reminders/subscription),
 * the writes under the phone's per-IP limit (the web forwards context.clientIp).
 */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import {
  REMINDER_MESSAGES,
  ReminderSchema,
  VapidKeySchema,
  type Reminder,
  type ReminderRequest,
  type SubscriptionRenewal,
} from '../../contract/reminders';
import type { Locale } from '../../contract/locales';
import { json } from '@remix-run/node';
import { orNullOn404, rethrowUnlessUpstream, upstreamJson } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

/**
 * POST /api/reminders: sets `request`'s reminder, its notification in `locale` (the page's language).
 * @throws UpstreamError (400 with the api's message for a refused body or endpoint, 409 past the
 *   pending limit, 422 with no bus known far enough ahead, 429 over the address's limit, 503 without
 *   VAPID keys, null when the api cannot be reached).
 */
export function setReminder(context: AppLoadContext, request: ReminderRequest, locale: Locale): Promise<Reminder> {
  return upstreamJson(context, '/api/reminders', ReminderSchema, { method: 'POST', json: { ...request, locale } });
}

/**
 * GET /api/reminders/key: the VAPID public key pages subscribe with.
 * @throws UpstreamError (503 without VAPID keys, null when the api cannot be reached).
 */
export function vapidPublicKey(context: AppLoadContext): Promise<string> {
  return upstreamJson(context, '/api/reminders/key', VapidKeySchema).then((key) => key.publicKey);
}

/**
 * PUT /api/reminders/subscription: moves the reminders of `renewal.oldEndpoint` to its new subscription.
 * @returns false when the old endpoint has none left (404).
 * @throws UpstreamError on any other failure (400 for an endpoint outside the push services).
 */
export async function renewSubscription(context: AppLoadContext, renewal: SubscriptionRenewal): Promise<boolean> {
  const put = upstreamJson(context, '/api/reminders/subscription', z.unknown(), { method: 'PUT', json: renewal });
  return (await orNullOn404(put.then(() => true))) ?? false;
}

/**
 * DELETE /api/reminders/{id}: cancels a pending reminder.
 * @returns false when there is none under `id` (404: sent, expired, cancelled).
 * @throws UpstreamError on any other failure.
 */
export async function cancelReminder(context: AppLoadContext, id: string): Promise<boolean> {
  const path = `/api/reminders/${encodeURIComponent(id)}`;
  return (await orNullOn404(upstreamJson(context, path, z.unknown(), { method: 'DELETE' }).then(() => true))) ?? false;
}

/**
 * What the reminder routes answer when the api refused or failed: the api's own refusal as it gave
 * it (400, 409, 422, 429 with Retry-After, 503), else 502, logged under `label`.
 * @throws `error` when it is not an UpstreamError.
 */
export function relayedFailure(context: AppLoadContext, error: unknown, label: string): Response {
  rethrowUnlessUpstream(error);
  const { status, serverMessage, retryAfterSec } = error;
  if (status !== null && [400, 409, 422, 429, 503].includes(status) && serverMessage) {
    const headers = status === 429 && retryAfterSec ? { 'Retry-After': String(retryAfterSec) } : undefined;
    return json({ message: serverMessage }, { status, headers });
  }
  consoleFor(context.reqId).error(`${label}: the api failed:`, error.message);
  return json({ message: REMINDER_MESSAGES.failed }, { status: 502 });
}
