/** Instants shown as KST dates and times on the admin pages, whatever the server's or device's zone (@date-fns/tz). */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';

const KST = 'Asia/Seoul';

/** An ISO instant as "yyyy-MM-dd" in KST. */
function formatKstDate(iso: string): string {
  return format(new TZDate(iso, KST), 'yyyy-MM-dd');
}

/** An ISO instant as "yyyy-MM-dd HH:mm:ss" in KST. */
export function formatKstDateTime(iso: string): string {
  return format(new TZDate(iso, KST), 'yyyy-MM-dd HH:mm:ss');
}

/**
 * A paid period (start inclusive, end exclusive; api/ads/model.ts paidPeriod) as the KST days it
 * covers: "yyyy-MM-dd ~ yyyy-MM-dd", the last day being the one before the end instant's.
 */
export function formatKstPeriod(startsAt: string, endsAt: string): string {
  return `${formatKstDate(startsAt)} ~ ${formatKstDate(new Date(new Date(endsAt).getTime() - 1).toISOString())}`;
}
