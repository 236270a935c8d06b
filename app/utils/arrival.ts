/** Rules and copy for the home screen's bus information (docs/product.md §2.3 Home screen, §7, §9). */
import home from '~/i18n/compiled/ko/home.js';

/**
 * The refresh route's message when the bus data cannot be loaded (docs/product.md §7 only logs the
 * failure): the page's own notice (notice.loadFailed), in Korean as the api's messages are.
 */
export const BUS_LOAD_FAILED = home['notice.loadFailed']();

/** The same-origin route the home screen refreshes its bus data from (app/server/time-left-cache.server.ts). */
export const TIME_LEFT_PATH = '/bus/time-left';

/** docs/product.md §9: an arrival of this many minutes or less is shown in red. */
const SOON_MINUTES = 4;

/** How an up arrival card shows its time: no information, soon (red) or normal. */
export type ArrivalTone = 'none' | 'soon' | 'normal';

/**
 * docs/product.md §9: an arrival `minutes` away (whole minutes, contract UpRoute.time) of 0 or less
 * shows no arrival information; 1 to 4 minutes is shown in red.
 */
export function arrivalTone(minutes: number): ArrivalTone {
  if (minutes <= 0) return 'none';
  return minutes <= SOON_MINUTES ? 'soon' : 'normal';
}
