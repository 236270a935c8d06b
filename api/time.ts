/**
 * The api's business time on top of contract/kst.ts (KST dates and wall clock, whatever the
 * server's TZ: docs/product.md §9.1): service days and hours, and the timetables' day types, which
 * follow Korean public holidays from date-holidays.
 */
import Holidays from 'date-holidays';
import type { DayType } from '../contract/transit';
import { formatKstDate, kstInstant, kstWallClock } from '../contract/kst';

/**
 * Service hours in minutes after 00:00 KST of the service day (05:00–24:30): nothing runs and
 * nothing is polled outside them. A time before `end - 24h` belongs to the previous service day.
 */
export const SERVICE_HOURS = { startMin: 5 * 60, endMin: 24 * 60 + 30 } as const;

const holidays = new Holidays('KR');

/**
 * The service day an instant belongs to and its minutes after that day's 00:00 KST. Service runs
 * 05:00–24:30 (SERVICE_HOURS), so 00:20 KST is minute 1460 of the previous day.
 */
export function serviceClock(instant: Date): { serviceDate: string; minuteOfDay: number } {
  const kst = kstWallClock(instant);
  const minutes = kst.hour * 60 + kst.minute + kst.second / 60 + kst.millisecond / 60_000;
  if (minutes < SERVICE_HOURS.endMin - 24 * 60) {
    return { serviceDate: formatKstDate(instant.getTime() - 86_400_000), minuteOfDay: minutes + 24 * 60 };
  }
  return { serviceDate: formatKstDate(instant), minuteOfDay: minutes };
}

/** True between 05:00 and 24:30 KST (SERVICE_HOURS). */
export function isInService(instant: Date): boolean {
  const { minuteOfDay } = serviceClock(instant);
  return minuteOfDay >= SERVICE_HOURS.startMin && minuteOfDay < SERVICE_HOURS.endMin;
}

/**
 * Seconds from `instant` until service next starts (0 when in service). Outside service the
 * service clock is between 00:30 and 05:00 of its own date, so the start is that date's 05:00.
 */
export function secondsUntilService(instant: Date): number {
  if (isInService(instant)) return 0;
  const { serviceDate } = serviceClock(instant);
  const start = kstInstant(serviceDate, SERVICE_HOURS.startMin);
  return Math.max(0, Math.ceil((start.getTime() - instant.getTime()) / 1000));
}

/**
 * The "yyyy-MM-dd" date `days` after `dateKey` (negative: before), in KST calendar days.
 * NOTE: KST has no DST, so a day is always 24 h.
 */
export function addServiceDays(dateKey: string, days: number): string {
  return formatKstDate(kstInstant(dateKey, 12 * 60).getTime() + days * 86_400_000);
}

// A date-holidays look-up of one date costs ~3 ms (its lunar calendar), a year's list ~17 ms, and
// a start plans a month of days: the public holidays are listed once per year. A day's
// plan, a demo poll and a backtest then ask the same few dates thousands of times: one entry each.
const publicHolidays = new Map<number, Map<string, string>>();
const dayTypes = new Map<string, DayType>();

/**
 * date-holidays 3.37's Seollal: a span from the 1st to the 3rd day of the 1st lunar month, one day
 * late (a known date-holidays bug). The holiday is the eve, the day and the day after (공휴일에 관한 법률 §2; 2026: 02-16..18,
 * not 02-17..19). Its substitute days are listed apart, and right.
 */
const LATE_SEOLLAL_RULE = 'korean 01-0-01 P3D';

/**
 * Every day of a Korean public holiday in `year` (date-holidays KR, type "public", substitute days
 * included; Seollal corrected, LATE_SEOLLAL_RULE): "yyyy-MM-dd" (KST) → the holiday's Korean name
 * (names joined with "·" where two fall on one day: 2028-10-03 is 추석·개천절).
 */
export function publicHolidaysOf(year: number): ReadonlyMap<string, string> {
  let days = publicHolidays.get(year);
  if (!days) {
    days = new Map();
    for (const holiday of holidays.getHolidays(year)) {
      if (holiday.type !== 'public') continue;
      const shiftMs = holiday.rule === LATE_SEOLLAL_RULE ? -86_400_000 : 0;
      // A holiday spans [start, end): Chuseok and Seollal are three days.
      for (let day = holiday.start.getTime(); day < holiday.end.getTime(); day += 86_400_000) {
        const dateKey = formatKstDate(day + shiftMs);
        const also = days.get(dateKey);
        days.set(dateKey, also && also !== holiday.name ? `${also}·${holiday.name}` : holiday.name);
      }
    }
    publicHolidays.set(year, days);
  }
  return days;
}

/**
 * Day type of a KST calendar date ("yyyy-MM-dd"): Sunday or a Korean public holiday
 * (publicHolidaysOf) → holiday; Saturday → saturday; else weekday.
 */
export function dayType(dateKey: string): DayType {
  let type = dayTypes.get(dateKey);
  if (!type) {
    const { weekday } = kstWallClock(kstInstant(dateKey, 12 * 60));
    const isPublicHoliday = publicHolidaysOf(Number(dateKey.slice(0, 4))).has(dateKey);
    type = weekday === 0 || isPublicHoliday ? 'holiday' : weekday === 6 ? 'saturday' : 'weekday';
    dayTypes.set(dateKey, type);
  }
  return type;
}
