/**
 * Progress-line helpers of the home screen (docs/product.md §2.3 Home screen). docs/product.md §7: stop positions come
 * from a local fixed data set and involve no call: the names are the contract's STOP_NAMES, whose
 * index is the contract's `Section.stopIndex`.
 */
import type { VehicleMarker } from '../../contract/bus';
import { STOP_NAMES, type Direction } from '../../contract/transit';
/**
 * The vehicles at each stop of one direction, one array per stop in `STOP_NAMES[direction]` order.
 * Markers of the other direction or off the line are dropped.
 */
export function vehiclesByStop(vehicles: readonly VehicleMarker[], direction: Direction): VehicleMarker[][] {
  const stops = STOP_NAMES[direction].map((): VehicleMarker[] => []);
  for (const vehicle of vehicles) {
    if (vehicle.section.direction === direction) stops[vehicle.section.stopIndex]?.push(vehicle);
  }
  return stops;
}

/** The last four digits of a plate ("경기70아1234" → "1234"), as riders read a bus's number; null without one. */
export function plateTail(plateNo: string | null): string | null {
  return plateNo?.match(/(\d{4})$/)?.[1] ?? null;
}
