/**
 * The web's one formatter of KST (Asia/Seoul) dates and times: the business runs on KST whatever
 * the server's or the device's zone. It reads the calendar fields from Intl.DateTimeFormat, which
 * every browser and Node have, so the home page's bundle carries no date library for it.
 */

/** An instant: an ISO string, epoch milliseconds or a Date. */
type Instant = string | number | Date;

const KST_FIELDS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The KST calendar fields of `instant`, each zero-padded ("2026", "09", "02", "08", "05", "00"). */
function kstFields(instant: Instant) {
  const parts = KST_FIELDS.formatToParts(new Date(instant));
  const field = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '';
  return {
    date: `${field('year')}-${field('month')}-${field('day')}`,
    time: `${field('hour')}:${field('minute')}`,
    second: field('second'),
  };
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
