/**
 * The web's one formatter of KST (Asia/Seoul) dates and times: the business runs on KST whatever
 * the server's or the device's zone.
 *
 * It shifts the instant by KST's fixed offset and reads the UTC fields, rather than asking
 * Intl.DateTimeFormat: a page's first Intl call starts ICU, 20–80 ms of a phone's main thread at
 * hydration (ADR 026), and Asia/Seoul has no rule for Intl to apply. kst.test.ts holds it to Intl's
 * Asia/Seoul answers from 1990 to 2100.
 */

/** An instant: an ISO string, epoch milliseconds or a Date. */
type Instant = string | number | Date;

/**
 * KST's offset from UTC in milliseconds: nine hours all year. The IANA tz database's Asia/Seoul has
 * kept it since its last daylight saving time ended in October 1988.
 */
const KST_OFFSET_MS = 9 * 3_600_000;

/**
 * The KST calendar fields of `instant`, each zero-padded: date "2026-09-02", time "08:05", second
 * "00". Throws a RangeError for an invalid instant, as Date's toISOString does.
 */
function kstFields(instant: Instant) {
  const shifted = new Date(new Date(instant).getTime() + KST_OFFSET_MS).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 16), second: shifted.slice(17, 19) };
}

/** An instant as "yyyy-MM-dd" in KST (the KST day: the ad impressions are counted per KST day). */
export function formatKstDate(instant: Instant): string {
  return kstFields(instant).date;
}

/** An instant as "HH:mm" in KST (00 to 23). */
export function formatKstTime(instant: Instant): string {
  return kstFields(instant).time;
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
  const { date, time, second } = kstFields(instant);
  return `${date} ${time}:${second}`;
}

/**
 * A paid period (start inclusive, end exclusive; api/ads/requests.ts paidPeriod) as the KST days it
 * covers: "yyyy-MM-dd ~ yyyy-MM-dd", the last day being the one before the end instant's.
 */
export function formatKstPeriod(startsAt: string, endsAt: string): string {
  return `${formatKstDate(startsAt)} ~ ${formatKstDate(new Date(endsAt).getTime() - 1)}`;
}
