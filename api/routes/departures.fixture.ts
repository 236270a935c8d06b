/** Stored departures for the api tests (bus.test.ts, admin.test.ts). */
import type { DepartureRecord } from '../bus/predictions/departures/detector';

/** A gbis departure of `routeNo` at KST `date`T`hhmm` ("HH:mm"), having passed the crossroads 15 min before. */
export function departure(routeNo: string, date: string, hhmm: string): DepartureRecord {
  const departedAt = new Date(`${date}T${hhmm}:00+09:00`);
  return {
    source: 'gbis',
    routeNo,
    vehId: `${routeNo}-${date}-${hhmm}`,
    serviceDate: date,
    departedAt,
    gapSec: 30,
    arrivedAt: new Date(departedAt.getTime() - 900_000),
    backfilled: false,
  };
}
