/**
 * Progress-line helpers of the home screen (docs/product.md §2.3 Home screen). docs/product.md §7: stop positions come
 * from a local fixed data set and involve no call: the names are the contract's STOP_NAMES, whose
 * index is the contract's `Section.stopIndex`.
 */
import type { VehicleMarker } from '../../contract/bus';
import { STOP_NAMES, type Direction } from '../../contract/transit';
/**
 * Route numbers of the vehicles at each stop of one direction, one array per stop in
 * `STOP_NAMES[direction]` order. Markers of the other direction or off the line are dropped.
 */
export function routesByStop(vehicles: readonly VehicleMarker[], direction: Direction): string[][] {
  const stops = STOP_NAMES[direction].map((): string[] => []);
  for (const { routeNo, section } of vehicles) {
    if (section.direction === direction) stops[section.stopIndex]?.push(routeNo);
  }
  return stops;
}
