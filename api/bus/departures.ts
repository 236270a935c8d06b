/**
 * Observed departures from the down terminus (DOWN_STOPS[0]): detection from successive
 * vehicle-location snapshots, storage, and the demo feed's back-filled history.
 */
import type { FeedSourceName } from '../../contract/bus';

/** One vehicle run leaving the down terminus (a row of the departures table). */
export type DepartureRecord = {
  source: FeedSourceName;
  routeNo: string;
  vehId: string;
  /** KST service day "yyyy-MM-dd" of the departure (00:00–00:30 belongs to the previous day). */
  serviceDate: string;
  /** Best estimate between the last observation before leaving and the first after. */
  departedAt: Date;
  /** Seconds between those two observations: the estimate's uncertainty. */
  gapSec: number;
  /** When the same run passed the campus crossroads coming up, if it was seen there. */
  arrivedAt: Date | null;
  /** True for the demo feed's simulated back-filled history. */
  backfilled: boolean;
};
