/**
 * The privacy policy's periods (docs/product.md §2.9 Privacy policy, §9), written once: the policy page
 * (app/routes/privacypolicy.tsx) states them and the api's retention job (api/privacy/retention.ts)
 * enforces them, so the two cannot drift apart.
 */

/**
 * How long personal data is kept, in calendar years on the KST calendar, counted from when it was
 * received; the retention job deletes (or, for the sign-in IP, blanks) what is older.
 */
export const RETENTION_YEARS = {
  /** docs/product.md §9: an ad application (applicant's name, phone, e-mail, and its image), from its submission. */
  adApplication: 3,
  /** docs/product.md §9: an inquiry (its text and optional e-mail), from its arrival. */
  inquiry: 1,
  /**
   * Ours: the client IP address that the audit log records with every admin
   * sign-in attempt (api/admin/accounts.ts signIn), kept to protect the admin accounts, from the attempt.
   */
  adminSignInIp: 1,
} as const;

/**
 * How long, in days from its submission, an ad application may wait unpaid (pending, its deposit not
 * yet found by an admin, who approves it once found): the retention job then deletes it with its
 * image, and blanks the pseudonyms of who uploaded images issued that long ago (ADR 027). The policy
 * (제3조) and the payment wording (contract/ad-payment.ts) state it.
 */
export const UNPAID_APPLICATION_DAYS = 30;

/**
 * The longest time, in hours after a client's last request, that its IP address (or a username
 * tried at an admin sign-in) stays in the api's rate-limit table, rate_limits: the keys are
 * "<limit>:<address>" and "<limit>ByNetwork:<network>" (the address normalised, an IPv6 one as
 * its /64, and its IPv4 /24 or IPv6 /48: lib/client-address.ts), and for the sign-in limits
 * (api/admin/sign-in-limits.ts) also
 * `loginFailsByUsernameAndIp:["<username>","<ip>"]` and `loginFailsByUsername:<username>`. That is
 * the longest limit window (15 minutes, api/rate-limit.ts) plus rate-limiter-flexible's sweep,
 * which every 5 minutes deletes the rows expired more than an hour ago.
 * api/privacy/rate-limit-rows.test.ts holds the api to it.
 *
 * Not counted here: the ad counters' "counted today" marks (api/ads/counted-once.ts, ADR 018),
 * whose keys hold an HMAC of the KST day, the address and the User-Agent, never the address
 * itself: a mark lives 24 hours and the same sweep deletes it within the hour after, so about 25
 * hours in all (the privacy policy's 제1조 and 제3조 say so).
 */
export const RATE_LIMIT_IP_HOURS = 2;

/**
 * How long, in days, an e-mail the site sent (its addresses and words, in the outbox) is kept after it
 * was delivered, or after its retries ended when it could not be: the retention job deletes it then
 * (api/mail/outbox.ts purgeOldMail).
 */
export const MAIL_RETENTION_DAYS = 30;

/**
 * The longest a browser's push subscription (its endpoint: personal data) is kept after it was
 * given, in hours (docs/decisions/033-web-push-reminders.md). The hourly retention job deletes one
 * given more than SUBSCRIPTION_SWEEP_HOURS ago, so none outlives this; a subscription with no pending
 * reminder goes at once with its last reminder, or at the next run.
 */
export const PUSH_SUBSCRIPTION_MAX_HOURS = 24;
/** The retention job's cutoff for push subscriptions, in hours: an hour short of the maximum, as it runs hourly. */
export const SUBSCRIPTION_SWEEP_HOURS = PUSH_SUBSCRIPTION_MAX_HOURS - 1;
