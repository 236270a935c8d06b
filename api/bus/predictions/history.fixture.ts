/** Observed departures for the predictions' tests. */
import { kstInstant } from '../../../contract/kst';
import type { ObservedDeparture } from './day-plan';

/** A departure of `routeNo` at KST wall-clock `time` ("HH:mm:ss", may exceed 24:00) of service date `date`. */
export function run(routeNo: string, date: string, time: string, arrivedBeforeSec?: number): ObservedDeparture {
  const [h, m, s] = time.split(':').map(Number);
  const departedAt = new Date(kstInstant(date, 0).getTime() + (h * 3600 + m * 60 + s) * 1000);
  const arrivedAt = arrivedBeforeSec === undefined ? null : new Date(departedAt.getTime() - arrivedBeforeSec * 1000);
  return { routeNo, serviceDate: date, departedAt, arrivedAt };
}
