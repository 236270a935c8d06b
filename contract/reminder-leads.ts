/**
 * How long before its bus a reminder may fire, minutes: 3, 5 or 10 (docs/decisions/033-web-push-reminders.md).
 * Apart from the reminder schemas (contract/reminders.ts), so the home's bell offers them without
 * loading the schema library before a rider sets one.
 */
export const REMINDER_LEAD_MINUTES = [3, 5, 10] as const;
export type ReminderLeadMin = (typeof REMINDER_LEAD_MINUTES)[number];
