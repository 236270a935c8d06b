/** Rules and copy for the home screen's bus information (spec §2 Home screen, §7, §9). */

/** Shown when the bus data cannot be loaded; spec §7 only logs the failure, so this is the honest empty state. */
export const BUS_LOAD_FAILED = '버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.';

/** The same-origin route the home screen refreshes its bus data from (app/utils/time-left-answer.server.ts). */
export const TIME_LEFT_PATH = '/bus/time-left';

/** Spec §9: an arrival of this many minutes or less is shown in red. */
const SOON_MINUTES = 4;

/** How an up arrival card shows its time: no information, soon (red) or normal. */
export type ArrivalTone = 'none' | 'soon' | 'normal';

/**
 * Spec §9: `time` (whole minutes, contract UpRoute.time) of 0 or less shows no arrival
 * information; 1 to 4 minutes is shown in red.
 */
export function arrivalTone(time: number): ArrivalTone {
  if (time <= 0) return 'none';
  return time <= SOON_MINUTES ? 'soon' : 'normal';
}

const KST_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Seoul',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An ISO instant as "HH:mm" in Asia/Seoul (KST), whatever the device's time zone. */
export function formatKstTime(iso: string): string {
  const parts = KST_TIME.formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  return `${part('hour')}:${part('minute')}`;
}
