/**
 * Reminders by Web Push (docs/decisions/033-web-push-reminders.md): the page sets one through the
 * web's POST /reminders and cancels it through DELETE /reminders/{id}, which the web relays here.
 */
import { Hono } from 'hono';
import { REMINDER_MESSAGES, ReminderApiRequestSchema } from '../../contract/reminders';
import type { ApiContext } from '../context';
import { rateLimit } from '../rate-limit';
import { DEFAULT_PUSH_HOST_LIST } from '../reminders/push-endpoint';
import { cancelReminder, createReminder } from '../reminders/store';
import { jsonBody } from '../validate';

/**
 * Mounts, at /api/reminders (each over the client's limit, LIMITS.reminder: 429 with Retry-After):
 * - POST /: 201 with the reminder (contract ReminderSchema); 400 `{ message }` for a refused body
 *   or an endpoint outside the push services (nothing stored); 409 `{ message }` when the
 *   subscription already has MAX_PENDING_REMINDERS pending.
 * - DELETE /:id: 204; 404 `{ message }` when no such reminder is pending (sent, expired, cancelled).
 */
export function reminderRoutes({ db, clock, rateLimiters, pushHosts = DEFAULT_PUSH_HOST_LIST }: ApiContext) {
  return new Hono()
    .post('/', rateLimit(rateLimiters.reminder), jsonBody(ReminderApiRequestSchema), async (c) => {
      const { locale, ...request } = c.req.valid('json');
      const set = await createReminder(db, request, { locale, hosts: pushHosts, now: clock.now() });
      if (set === 'bad-endpoint') return c.json({ message: REMINDER_MESSAGES.badEndpoint }, 400);
      if (set === 'too-many') return c.json({ message: REMINDER_MESSAGES.tooMany }, 409);
      return c.json(set, 201);
    })
    .delete('/:id', rateLimit(rateLimiters.reminder), async (c) => {
      if (!(await cancelReminder(db, c.req.param('id')))) return c.json({ message: REMINDER_MESSAGES.notFound }, 404);
      return c.body(null, 204);
    });
}
