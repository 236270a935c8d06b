/**
 * GET /reminders/key: the VAPID public key the page subscribes to push with (PushManager.subscribe's
 * applicationServerKey; docs/decisions/033-web-push-reminders.md), relayed from the api. Answers
 * `{ publicKey }`; `{ message }` with 503 when the site sends no reminders (no VAPID keys), or 502.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { relayedFailure, vapidPublicKey } from '~/models/reminders.server';

export async function loader({ context }: LoaderFunctionArgs) {
  try {
    // The key changes only with the deployment's configuration: a page may keep it for an hour.
    return json(
      { publicKey: await vapidPublicKey(context) },
      { headers: { 'Cache-Control': 'private, max-age=3600' } },
    );
  } catch (error) {
    return relayedFailure(context, error, '[reminders] key');
  }
}
