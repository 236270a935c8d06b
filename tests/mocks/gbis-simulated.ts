/**
 * GBIS answers from the demo feed's simulator (api/bus/feed/demo/simulator.ts): the same seeded
 * buses, in GBIS's shapes, so a GbisSource polling the stub sees buses whose true departures from
 * the campus terminus are known (planDay). Every stop of the campus section, and the terminus,
 * has a stationId here (SIMULATED_IDS), so the source places each vehicle as the simulator does.
 */
import { snapshotAt } from '../../api/bus/feed/demo/simulator';
import { GBIS_PATHS } from '../../api/bus/feed/gbis/http';
import { ROUTES, type TransitIds } from '../../api/bus/feed/transit-config';
import { STOP_NAMES } from '../../contract/transit';
import {
  arrivalItem,
  arrivalListBody,
  CROSSROADS_SEQ,
  locationItem,
  locationListBody,
  noResultBody,
  type GbisAnswer,
} from './gbis';

const upId = (index: number) => `9910000${index}`;
const downId = (index: number) => `9920000${index}`;
const TERMINUS_ID = '993000000';
const ROAD_ID = '994000000';

/** The simulator's routes with fake routeIds, and every campus stop and the terminus with a fake stationId. */
export const SIMULATED_IDS: TransitIds = {
  routes: ROUTES.map((route) => ({ ...route, routeId: `99100${route.routeNo}`, upStaOrder: CROSSROADS_SEQ })),
  upStops: STOP_NAMES.up.map((name, index) => ({ name, stationId: upId(index) })),
  downStops: STOP_NAMES.down.map((name, index) => ({ name, stationId: downId(index) })),
  terminus: { name: '한국외대종점', stationId: TERMINUS_ID },
};

/** The simulator's stop id (demo-up-i, demo-down-i, demo-terminus, demo-road) as a SIMULATED_IDS stationId. */
function stationIdOf(demoId: string): string {
  const [, kind, index] = /^demo-(up|down|terminus|road)-?(\d*)$/.exec(demoId) ?? [];
  if (kind === 'up') return upId(Number(index));
  if (kind === 'down') return downId(Number(index));
  return kind === 'terminus' ? TERMINUS_ID : ROAD_ID;
}

/**
 * Answers getBusArrivalListv2 at the campus crossroads and getBusLocationListv2 per route with
 * snapshotAt(seed, clock()), resultCode 4 when a list is empty (as GBIS at night).
 */
export function simulatedAnswer(seed: number, clock: () => Date): GbisAnswer {
  return ({ operation, params }) => {
    const snapshot = snapshotAt(seed, clock());
    const ok = (body: string) => ({ status: 200, body });
    if (GBIS_PATHS.arrivalList.endsWith(operation) && params.stationId === SIMULATED_IDS.upStops[0].stationId) {
      const items = SIMULATED_IDS.routes.flatMap((route) => {
        const vehicles = snapshot.arrivals
          .filter((arrival) => arrival.routeNo === route.routeNo)
          .map((arrival) => ({
            predictTimeSec: arrival.predictTimeSec,
            locationNo: arrival.locationNo,
            plateNo: arrival.plateNo ?? '',
            vehId: arrival.vehId ?? undefined,
            stationName: arrival.stationName ?? undefined,
            lowPlate: arrival.lowPlate ?? undefined,
            remainSeatCnt: arrival.remainSeatCnt ?? undefined,
          }));
        return vehicles.length > 0 ? [arrivalItem(route, vehicles)] : [];
      });
      return ok(items.length > 0 ? arrivalListBody(items) : noResultBody());
    }
    const route = SIMULATED_IDS.routes.find((candidate) => candidate.routeId === params.routeId);
    if (GBIS_PATHS.locationList.endsWith(operation) && route) {
      const items = snapshot.vehicles
        .filter((vehicle) => vehicle.routeNo === route.routeNo)
        .map((vehicle) =>
          locationItem({
            routeId: route.routeId,
            stationId: stationIdOf(vehicle.stationId),
            stationSeq: vehicle.stationSeq,
            plateNo: vehicle.plateNo ?? '',
            vehId: vehicle.vehId,
            stateCd: vehicle.stateCd ?? undefined,
          }),
        );
      return ok(items.length > 0 ? locationListBody(items) : noResultBody());
    }
    return ok(noResultBody());
  };
}
