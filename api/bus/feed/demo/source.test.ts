import { kstInstant } from '../../../../contract/kst';
import { snapshotAt } from './simulator';
import { createDemoSource } from './source';

describe('demo feed source', () => {
  it('is free and reads the parts of the simulator asked for at the given instant', async () => {
    const source = createDemoSource({ seed: 7 });
    const now = kstInstant('2026-11-23', 8 * 60);
    const whole = snapshotAt(7, now);
    expect(source.name).toBe('demo');
    expect(source.metered).toBe(false);
    const signal = new AbortController().signal;
    await expect(
      source.poll(now, { arrivals: true, routes: ['1150', '1117', '1303', '1005'] }, signal),
    ).resolves.toEqual({
      arrivals: whole.arrivals,
      vehicles: whole.vehicles,
      terminusStationId: whole.terminusStationId,
    });
    const located = await source.poll(now, { arrivals: false, routes: ['1303'] }, signal);
    expect(located.arrivals).toBeNull();
    expect(located.vehicles).toEqual(whole.vehicles.filter((vehicle) => vehicle.routeNo === '1303'));
    expect(located.vehicles.length).toBeGreaterThan(0);
  });
});
