/**
 * Progress-line stops of the home screen (spec §2 Home screen). Spec §7: stop positions come from
 * a local fixed data set and involve no call, so the web keeps its own copy of the names that
 * api/bus/transit-config.ts uses (the web never imports from api/). The index of a name is the
 * contract's `Section.stopIndex`.
 */
import type { Section, VehicleMarker } from '../../contract/bus';

export type Direction = Section['direction'];

/** Stop names per direction, in spec order: up toward the campus (5), down leaving it (4). */
export const STOP_NAMES: Readonly<Record<Direction, readonly string[]>> = {
  up: ['외대사거리', '모현사거리', '외대 기숙사', '외대 도서관', '파란지붕'],
  down: ['파란지붕', '기숙사', '모현사거리', '외대사거리'],
};

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
