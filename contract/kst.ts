/**
 * The one KST (Asia/Seoul) helper of the web and the api: an instant's KST calendar date, wall
 * clock and their texts, and the instant of a KST date and time, whatever the server's or the
 * device's zone (docs/product.md §9.1: the business runs on KST).
 *
 * It shifts the instant by KST's fixed offset and reads the UTC fields, rather than asking a time
 * zone library: @date-fns/tz's TZDate and date-fns format call Intl, whose first call starts ICU,
 * 20–80 ms of a phone's main thread at hydration (ADR 026), and cost the api tens of microseconds an
 * instant (the fixed offset: a fraction of one). Asia/Seoul has no rule for them to apply: kst.test.ts
 * holds every function here to TZDate's and Intl's Asia/Seoul answers from 1990 to 2100.
 */

/** An instant: an ISO string, epoch milliseconds or a Date. */
export type Instant = string | number | Date;

/**
 * KST's offset from UTC in milliseconds: nine hours all year. The IANA tz database's Asia/Seoul has
 * kept it since its last daylight saving time ended in October 1988.
 */
const KST_OFFSET_MS = 9 * 3_600_000;

/** The instant moved by KST's offset: its UTC fields are KST's wall clock. */
function shifted(instant: Instant): Date {
  return new Date(new Date(instant).getTime() + KST_OFFSET_MS);
}

/**
 * "yyyy-MM-ddTHH:mm:ss" of the KST wall clock, each field zero-padded. Throws a RangeError for an
 * invalid instant, as Date's toISOString does.
 */
function kstText(instant: Instant): string {
  return shifted(instant).toISOString().slice(0, 19);
}

/** The KST wall clock of an instant, as numbers: month 1–12, weekday 0 (Sunday) to 6, hour 0–23. */
export type KstWallClock = {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
};

/** The KST calendar date and wall-clock time of `instant` (NaN fields for an invalid one). */
export function kstWallClock(instant: Instant): KstWallClock {
  const kst = shifted(instant);
  return {
    year: kst.getUTCFullYear(),
    month: kst.getUTCMonth() + 1,
    day: kst.getUTCDate(),
    weekday: kst.getUTCDay(),
    hour: kst.getUTCHours(),
    minute: kst.getUTCMinutes(),
    second: kst.getUTCSeconds(),
    millisecond: kst.getUTCMilliseconds(),
  };
}

/**
 * The instant at `minutes` after 00:00 KST of the calendar day `date` ("yyyy-MM-dd"); minutes may
 * exceed 1440 (a service day's run after midnight) or be fractional.
 */
export function kstInstant(date: string, minutes: number): Date {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day) - KST_OFFSET_MS + minutes * 60_000);
}

/** An instant's KST calendar day, "yyyy-MM-dd" (the key of what is counted per KST day). */
export function formatKstDate(instant: Instant): string {
  return kstText(instant).slice(0, 10);
}

/** An instant as "HH:mm" in KST (00 to 23). */
export function formatKstTime(instant: Instant): string {
  return kstText(instant).slice(11, 16);
}

/**
 * An instant's KST time as Korean speech, for screen readers: "22시 41분", "8시 5분", "0시 30분",
 * "8시" on the hour. What formatKstTime shows, said.
 */
export function formatKstSpokenTime(instant: Instant): string {
  const [hour, minute] = formatKstTime(instant).split(':').map(Number);
  return minute === 0 ? `${hour}시` : `${hour}시 ${minute}분`;
}

/** An instant as "yyyy-MM-dd HH:mm:ss" in KST. */
export function formatKstDateTime(instant: Instant): string {
  return kstText(instant).replace('T', ' ');
}

/**
 * An instant as ISO 8601 in KST with its offset, to the second: "2026-11-23T08:15:00+09:00", the
 * api's date-time format (contract/bus.ts).
 */
export function formatKstIso(instant: Instant): string {
  return `${kstText(instant)}+09:00`;
}

/**
 * A paid period (start inclusive, end exclusive; api/ads/applications.ts paidPeriod) as the KST days
 * it covers, ["yyyy-MM-dd", "yyyy-MM-dd"]: its first, and its last, the day before the end instant's.
 */
export function kstPeriodDays(startsAt: Instant, endsAt: Instant): [first: string, last: string] {
  return [formatKstDate(startsAt), formatKstDate(new Date(endsAt).getTime() - 1)];
}

/** A paid period (kstPeriodDays) as copy: "yyyy-MM-dd ~ yyyy-MM-dd". */
export function formatKstPeriod(startsAt: string, endsAt: string): string {
  return kstPeriodDays(startsAt, endsAt).join(' ~ ');
}
