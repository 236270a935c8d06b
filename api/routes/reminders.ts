/**
 * Reminders by Web Push (docs/decisions/033-web-push-reminders.md): the page sets one through the
 * web's POST /reminders and cancels it through DELETE /reminders/{id}, which the web relays here.
 */
import { Hono } from 'hono';
import { REMINDER_MESSAGES, ReminderApiRequestSchema, SubscriptionRenewalSchema } from '../../contract/reminders';
import { liveBusTimes } from '../reminders/moment';
import type { ApiContext } from '../context';
import { rateLimit } from '../rate-limit';
import { DEFAULT_PUSH_HOST_LIST } from '../reminders/push-endpoint';
import { cancelReminder, createReminder, renewSubscription } from '../reminders/store';
import { jsonBody } from '../validate';

/**
 * Mounts, at /api/reminders (the writes over the client's limit, LIMITS.reminder: 429 with Retry-After):
 * - GET /key: 200 `{ publicKey }` (contract VapidKeySchema), the VAPID public key pages subscribe with.
 * - POST /: 201 with the reminder (contract ReminderSchema), for the route's first bus more than
 *   its minutes ahead (moment.ts targetOf); 400 `{ message }` for a refused body (a key that is no
 *   P-256 point too) or an endpoint outside the push services, 422 when no such bus is known, 409 when the subscription already has
 *   MAX_PENDING_REMINDERS pending (nothing stored).
 * - DELETE /:id: 204; 404 `{ message }` when no such reminder is pending (sent, expired, cancelled).
 * - PUT /subscription (contract SubscriptionRenewalSchema): 204 once the reminders of the old
 *   endpoint are on the new subscription; 400 for an endpoint outside the push services; 404 when
 *   the old endpoint has none left.
 * Without VAPID keys (production without VAPID_*), GET /key and POST / answer 503 `{ message }`.
 */
export function reminderRoutes(context: ApiContext) {
  const { db, clock, rateLimiters, pushHosts = DEFAULT_PUSH_HOST_LIST, vapidPublicKey } = context;
  const off = { message: REMINDER_MESSAGES.off };
  return new Hono()
    .get('/key', (c) => (vapidPublicKey ? c.json({ publicKey: vapidPublicKey }) : c.json(off, 503)))
    .post('/', rateLimit(rateLimiters.reminder), jsonBody(ReminderApiRequestSchema), async (c) => {
      if (!vapidPublicKey) return c.json(off, 503);
      const { locale, ...request } = c.req.valid('json');
      const now = clock.now();
      const times = await liveBusTimes(context);
      const set = await createReminder(db, request, { locale, hosts: pushHosts, now, times });
      if (set === 'bad-endpoint') return c.json({ message: REMINDER_MESSAGES.badEndpoint }, 400);
      if (set === 'bad-keys') return c.json({ message: REMINDER_MESSAGES.badRequest }, 400);
      if (set === 'no-bus') return c.json({ message: REMINDER_MESSAGES.noBus }, 422);
      if (set === 'too-many') return c.json({ message: REMINDER_MESSAGES.tooMany }, 409);
      return c.json(set, 201);
    })
    .put('/subscription', rateLimit(rateLimiters.reminder), jsonBody(SubscriptionRenewalSchema), async (c) => {
      const { oldEndpoint, subscription } = c.req.valid('json');
      const renewed = await renewSubscription(db, oldEndpoint, subscription, pushHosts);
      if (renewed === 'bad-endpoint') return c.json({ message: REMINDER_MESSAGES.badEndpoint }, 400);
      if (renewed === 'not-found') return c.json({ message: REMINDER_MESSAGES.notFound }, 404);
      return c.body(null, 204);
    })
    .delete('/:id', rateLimit(rateLimiters.reminder), async (c) => {
      if (!(await cancelReminder(db, c.req.param('id')))) return c.json({ message: REMINDER_MESSAGES.notFound }, 404);
      return c.body(null, 204);
    });
}
