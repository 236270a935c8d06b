/**
 * What the browser tests expect of the 80 % ranges (contract DepartureRange) riders see: shown
 * after a time when wider than 2 minutes, "(22:40~22:44)" in KST, and said as "22시 40분에서 22시
 * 44분 사이". Written here again, apart from app/utils/departure-range.ts, so the tests do not take
 * the app's word for it.
 */
import type { Locator } from '@playwright/test';
import type { DepartureRange } from '../../contract/bus';

const KST_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Seoul',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant as "HH:mm" in KST. */
export const hhmm = (iso: string) => KST_TIME.format(new Date(iso));

/** An instant as Korean speech: "22시 41분", "8시" on the hour. */
export function spoken(iso: string): string {
  const [hour, minute] = hhmm(iso).split(':').map(Number);
  return minute === 0 ? `${hour}시` : `${hour}시 ${minute}분`;
}

/** Whether a range is shown: wider than 2 minutes. */
export function isShown(range: DepartureRange | null | undefined): range is DepartureRange {
  return !!range && Date.parse(range.upperAt) - Date.parse(range.lowerAt) > 120_000;
}

/** A range as shown: "(22:40~22:44)". */
export const shownText = (range: DepartureRange) => `(${hhmm(range.lowerAt)}~${hhmm(range.upperAt)})`;

/** A time of the expected times modal: its datetime, the range shown after it ('' for none) and what is said of it. */
export type TimeMark = { time: string; shown: string; said: string };

/** The marks the modal's list should show for `times` with their `ranges` (parallel; null: none). */
export function expectedMarks(times: readonly string[], ranges: readonly (DepartureRange | null)[]): TimeMark[] {
  return times.map((time, index) => {
    const range = ranges[index];
    return isShown(range)
      ? { time, shown: shownText(range), said: `, 대개 ${spoken(range.lowerAt)}에서 ${spoken(range.upperAt)} 사이` }
      : { time, shown: '', said: '' };
  });
}

/** The marks a list of the modal shows, in order. */
export function marksOf(list: Locator): Promise<TimeMark[]> {
  return list.getByRole('listitem').evaluateAll((items) =>
    items.map((item) => ({
      time: item.querySelector('time')?.getAttribute('datetime') ?? '',
      shown: item.querySelector('.times-range')?.textContent ?? '',
      said: item.querySelector('.sr-only')?.textContent ?? '',
    })),
  );
}
