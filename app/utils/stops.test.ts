import type { VehicleMarker } from '../../contract/bus';
import { STOP_NAMES } from '../../contract/transit';
import { plateTail, vehiclesByStop } from '~/utils/stops';

const at = (routeNo: string, direction: 'up' | 'down', stopIndex: number): VehicleMarker => ({
  routeNo,
  plateNo: null,
  section: { direction, stopIndex },
});

describe('STOP_NAMES (docs/product.md §2.3 Home screen)', () => {
  it('lists the up and down stops in spec order', () => {
    expect(STOP_NAMES.up).toEqual(['외대사거리', '모현사거리', '외대 기숙사', '외대 도서관', '파란지붕']);
    expect(STOP_NAMES.down).toEqual(['파란지붕', '기숙사', '모현사거리', '외대사거리']);
  });
});

describe('vehiclesByStop', () => {
  const routesOf = (stops: VehicleMarker[][]) => stops.map((atStop) => atStop.map((vehicle) => vehicle.routeNo));

  it('groups the vehicles of one direction by stop index', () => {
    const vehicles = [at('1150', 'up', 1), at('1117', 'up', 1), at('1005', 'up', 4), at('1303', 'down', 1)];
    expect(routesOf(vehiclesByStop(vehicles, 'up'))).toEqual([[], ['1150', '1117'], [], [], ['1005']]);
    expect(routesOf(vehiclesByStop(vehicles, 'down'))).toEqual([[], ['1303'], [], []]);
  });

  it('drops markers beyond the last stop', () => {
    expect(routesOf(vehiclesByStop([at('1150', 'down', 4)], 'down'))).toEqual([[], [], [], []]);
  });
});

describe('plateTail', () => {
  it('gives the four digits riders read off a plate, and nothing without them', () => {
    expect(plateTail('경기70아1234')).toBe('1234');
    expect(plateTail('경기70아123')).toBeNull();
    expect(plateTail(null)).toBeNull();
  });
});
