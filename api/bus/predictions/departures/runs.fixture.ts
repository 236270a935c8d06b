/** Snapshots of test vehicles at the campus terminus, shared by the departure detector's and storage's tests. */
import { kstInstant } from '../../../../contract/kst';
import { DepartureDetector, type DepartureRecord } from './detector';
import type { FeedSnapshot, VehiclePosition } from '../../../../contract/feed-snapshot';
import { DEFAULT_TRANSIT_IDS } from '../../feed/transit-config';

/** The campus terminus's stationId in these snapshots. */
const TERMINUS_ID = DEFAULT_TRANSIT_IDS.terminus.stationId;

export const MONDAY = '2026-11-23';
export const T0 = kstInstant(MONDAY, 8 * 60); // 08:00 KST
export const SEED = 20261123;

/** Where a test vehicle is: on a progress line (direction, stop index), at the terminus, or on the road. */
type Place = ['up' | 'down', number] | 'terminus' | 'road';

/** Route 1150's vehicle `vehId` at `place` with GBIS stationSeq and stateCd (1 arrived, 2 left). */
export function bus(place: Place, stationSeq: number, stateCd: number | null = 1, vehId = 'V1'): VehiclePosition {
  const position = { routeNo: '1150', vehId, plateNo: null, stationSeq, stateCd };
  if (place === 'terminus') return { ...position, stationId: TERMINUS_ID, section: null };
  if (place === 'road') return { ...position, stationId: `road-${stationSeq}`, section: null };
  const [direction, stopIndex] = place;
  return { ...position, stationId: `${direction}-${stopIndex}`, section: { direction, stopIndex } };
}

/** A gbis snapshot taken `seconds` after T0 (or after `base`). */
export function snap(seconds: number, vehicles: VehiclePosition[], base = T0): FeedSnapshot {
  const takenAt = new Date(base.getTime() + seconds * 1000).toISOString();
  return { source: 'gbis', takenAt, arrivals: [], vehicles, terminusStationId: TERMINUS_ID };
}

export function detect(snapshots: FeedSnapshot[]): DepartureRecord[] {
  const detector = new DepartureDetector('gbis');
  return snapshots.flatMap((snapshot) => detector.observe(snapshot));
}

export const after = (seconds: number, base = T0) => new Date(base.getTime() + seconds * 1000);

/** A run coming up and leaving: campus crossroads at 0 s, terminus 120–200 s, left at 200 s, down at 260 s. */
export const NORMAL_RUN = [
  snap(0, [bus(['up', 0], 30)]),
  snap(60, [bus(['up', 4], 34)]),
  snap(120, [bus('terminus', 35)]),
  snap(180, [bus('terminus', 35)]),
  snap(200, [bus('terminus', 35, 2)]),
  snap(260, [bus(['down', 0], 36)]),
  snap(320, [bus(['down', 1], 37)]),
];
