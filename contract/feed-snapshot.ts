/**
 * The internal bus snapshot: what one poll of a feed source saw. Both sources (GBIS v2 and the
 * demo simulator, api/bus/feed/) produce exactly this shape, so everything downstream (the timeLeft
 * view, the poller, departure detection) never knows which one answered. The lease holder stores it
 * as is (feed_states.snapshot, api/db/schema/bus.ts), where every api instance reads it.
 */
import type { FeedSourceName, Section } from './bus';

/**
 * One vehicle's predicted arrival at the campus crossroads (up stop 0): one vehicle of a
 * getBusArrivalListv2 item (its suffix-1 or suffix-2 fields).
 */
export type Arrival = {
  routeNo: string;
  /** Seconds from `takenAt` until arrival (GBIS predictTimeSec, or predictTime × 60 when absent). */
  predictTimeSec: number;
  /** Stops away (GBIS locationNo). */
  locationNo: number;
  /** Where the vehicle is now (GBIS stationNm). */
  stationName: string | null;
  plateNo: string | null;
  vehId: string | null;
  /** GBIS lowPlate code; null when absent. */
  lowPlate: number | null;
  /** Free seats; null when unknown (GBIS sends -1 or nothing). */
  remainSeatCnt: number | null;
  /** GBIS crowded 1–4; null when absent or 0. */
  crowded: number | null;
};

/** A vehicle on one of our routes (a getBusLocationListv2 item). */
export type VehiclePosition = {
  routeNo: string;
  /** GBIS vehId, else plateNo: stable identity of the vehicle for the day. */
  vehId: string;
  plateNo: string | null;
  /** Current or last stop (GBIS stationId) and its order on the route (stationSeq). */
  stationId: string;
  stationSeq: number;
  /** GBIS stateCd: 0 passing an intersection, 1 arrived at stop, 2 left stop; null when absent. */
  stateCd: number | null;
  /** Place on the product's progress lines, or null when outside the campus section. */
  section: Section | null;
};

/**
 * The feed as of its latest reads. The poller reads each GBIS dataset on its own pace (docs/gbis.md
 * §Quota): the arrival list at `takenAt`, each route's location list at its `locationsTakenAt`, so
 * a route's vehicles can be older than the arrivals.
 */
export type FeedSnapshot = {
  source: FeedSourceName;
  /** ISO instant (UTC) at which the source answered the arrival list: what the countdown is as of. */
  takenAt: string;
  /** Arrivals at the campus crossroads, up to two vehicles per route, nearest first. */
  arrivals: Arrival[];
  /** The vehicles of each route as of that route's location read. */
  vehicles: VehiclePosition[];
  /**
   * Per routeNo, the ISO instant (UTC) of the location read its `vehicles` come from. Absent, or a
   * route missing: read at `takenAt` (a snapshot made in one read: tests, or stored before reads were paced apart).
   */
  locationsTakenAt?: Record<string, string>;
  /**
   * stationId of the campus terminus as the source saw it (GBIS: the ids of that poll; the demo:
   * 'demo-terminus'), where the departure detector watches buses leave. Absent in snapshots made
   * by hand (tests): no vehicle is then at the terminus.
   */
  terminusStationId?: string;
};

/** When `routeNo`'s vehicles in `snapshot` were read, ms since the epoch (FeedSnapshot.locationsTakenAt). */
export function locationsReadMs(snapshot: FeedSnapshot, routeNo: string): number {
  return Date.parse(snapshot.locationsTakenAt?.[routeNo] ?? snapshot.takenAt);
}
