/**
 * The privacy policy's periods (spec §2 Privacy policy, §9; issue 8), written once: the policy page
 * (app/routes/privacypolicy.tsx) states them and the api's retention job (api/privacy/retention.ts)
 * enforces them, so the two cannot drift apart.
 */

/**
 * How long personal data is kept, in calendar years on the KST calendar, counted from when it was
 * received; the retention job deletes (or, for the sign-in IP, blanks) what is older.
 */
export const RETENTION_YEARS = {
  /** Spec §9: an ad application (applicant's name, phone, e-mail, and its image), from its submission. */
  adApplication: 3,
  /** Spec §9: an inquiry (its text and optional e-mail), from its arrival. */
  inquiry: 1,
  /**
   * Ours (issue 8 review): the client IP address that the audit log records with every admin
   * sign-in attempt (api/admin/accounts.ts signIn), kept to protect the admin accounts, from the attempt.
   */
  adminSignInIp: 1,
} as const;

/**
 * The longest time, in hours after a client's last request, that its IP address stays in the api's
 * rate-limit table (rate_limits, keys "<limit>:<ip>"): the longest limit window (15 minutes,
 * api/rate-limit.ts) plus rate-limiter-flexible's sweep, which every 5 minutes deletes the rows
 * expired more than an hour ago. api/privacy/rate-limit-rows.test.ts holds the api to it.
 */
export const RATE_LIMIT_IP_HOURS = 2;
