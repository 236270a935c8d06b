/**
 * Reminder payloads (docs/decisions/033-web-push-reminders.md): what the page sends to set a
 * reminder ("tell me when the 1150 is 5 minutes away"), through the web's POST /reminders to the
 * api's POST /api/reminders, and what it gets back. The api and the web check the body with the same
 * schema.
 */
import { z } from 'zod';
import { LOCALES } from './locales';
import { ROUTE_NOS } from './transit';
import { text } from './strings';

/** At most this many reminders are pending per subscription. */
export const MAX_PENDING_REMINDERS = 3;
/** The longest push endpoint taken, characters (the services' are under 600). */
export const PUSH_ENDPOINT_MAX = 2048;

/**
 * What a refused reminder is answered with (`{ message }`: 400, 409, 422), a missing one (404), a
 * deployment without VAPID keys (503), and a failed call (502).
 */
export const REMINDER_MESSAGES = {
  badRequest: '알림을 설정할 수 없는 요청입니다.',
  badEndpoint: '이 브라우저의 알림 서비스로는 알림을 보낼 수 없습니다.',
  tooMany: `알림은 한 번에 ${MAX_PENDING_REMINDERS}개까지 설정할 수 있습니다.`,
  noBus: '알림을 설정할 수 있는 버스가 아직 없습니다. 도착·출발 정보가 나오면 다시 시도해주세요.',
  notFound: '이미 울렸거나 취소된 알림입니다.',
  off: '이 사이트에서는 아직 알림을 보낼 수 없습니다.',
  /** The web's, when the api could not be reached or failed (502). */
  failed: '알림을 설정하지 못했습니다. 잠시 후 다시 시도해주세요.',
} as const;

/**
 * A browser's push subscription as PushSubscription.toJSON() gives it: the push service's URL, and
 * the keys the payload is encrypted to (RFC 8291): `p256dh`, the P-256 public key (65 bytes,
 * uncompressed), and `auth`, the 16-byte secret, each base64url (padding optional).
 */
export const PushSubscriptionSchema = z.object({
  endpoint: text().max(PUSH_ENDPOINT_MAX).url(),
  keys: z.object({
    p256dh: text().regex(/^B[A-Za-z0-9_-]{86}=?$/),
    auth: text().regex(/^[A-Za-z0-9_-]{22}(==)?$/),
  }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionSchema>;

/** One of REMINDER_LEAD_MINUTES (contract/reminder-leads.ts). */
const LeadMinSchema = z.union([z.literal(3), z.literal(5), z.literal(10)]);

/** POST /reminders and POST /api/reminders: a reminder for `routeNo`'s next bus in `direction`, `leadMin` minutes ahead. */
export const ReminderRequestSchema = z.object({
  subscription: PushSubscriptionSchema,
  routeNo: z.enum(ROUTE_NOS),
  direction: z.enum(['up', 'down']),
  leadMin: LeadMinSchema,
});
export type ReminderRequest = z.infer<typeof ReminderRequestSchema>;

/**
 * POST /api/reminders: the page's request, and the language of the page it was set on (its
 * notification's), which the web adds from the request (absent: Korean).
 */
export const ReminderApiRequestSchema = ReminderRequestSchema.extend({ locale: z.enum(LOCALES).default('ko') });

/**
 * The answer to a reminder set (201): its id, for DELETE /reminders/{id}, what was set, and for how
 * many seconds from now it may still be pending (it fires or expires within them: its bus's time
 * as known then, plus the while its bus is followed), after which the page forgets it.
 */
export const ReminderSchema = ReminderRequestSchema.pick({ routeNo: true, direction: true, leadMin: true }).extend({
  id: text().uuid(),
  pendingForSec: z.number().int().nonnegative(),
});
export type Reminder = z.infer<typeof ReminderSchema>;

/**
 * PUT /reminders/subscription and PUT /api/reminders/subscription: the service worker's
 * `pushsubscriptionchange` gives the subscription the browser made in place of the one at
 * `oldEndpoint`, which the reminders set on it move to.
 */
export const SubscriptionRenewalSchema = z.object({
  oldEndpoint: text().max(PUSH_ENDPOINT_MAX).url(),
  subscription: PushSubscriptionSchema,
});
export type SubscriptionRenewal = z.infer<typeof SubscriptionRenewalSchema>;

/** GET /reminders/key and GET /api/reminders/key: the VAPID public key (base64url) the page subscribes with (PushManager.subscribe's applicationServerKey). */
export const VapidKeySchema = z.object({ publicKey: text().regex(/^B[A-Za-z0-9_-]{86}$/) });
