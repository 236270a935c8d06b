/**
 * What GbisSource makes of GBIS's answers: our routes mapped and sorted, the calls it makes, the items
 * it skips, and the ids it reads at each prepare.
 */
import {
  arrivalItem,
  arrivalListBody,
  locationItem,
  locationListBody,
  MOCK_ARRIVAL_STOP,
  MOCK_IDS,
  MOCK_ROUTES,
  mockIds,
  noResultBody,
  type GbisAnswer,
} from '../../../../tests/mocks/gbis';
import {
  answer,
  gbisSourceFor,
  KEY,
  pollError,
  R1005,
  R1117,
  R1150,
  R1303,
  readAll,
} from '../../../../tests/setup/gbis-source';
import { type RouteConfig } from '../transit-config';

const { mock, source } = gbisSourceFor();

describe('GbisSource', () => {
  it('maps our routes, skips empty vehicles and other routes, sorts by time', async () => {
    const campusStopId = MOCK_IDS.upStops[1].stationId; // a configured campus stop (up line, index 1): gets a section
    mock.answerWith(
      answer(
        arrivalListBody([
          arrivalItem(R1150, [
            {
              predictTimeSec: 300,
              locationNo: 3,
              plateNo: '경기70바1001',
              vehId: '228001001',
              stationName: '모현',
              remainSeatCnt: -1,
              crowded: 0,
              lowPlate: 1,
            },
            { predictTimeSec: 1500, locationNo: 12, plateNo: '경기70바1002', remainSeatCnt: 17, crowded: 3 },
          ]),
          arrivalItem(R1117, []), // flag PASS, every vehicle field ""
          arrivalItem({ routeId: '228000999', routeNo: '5600' }, [
            { predictTimeSec: 10, locationNo: 1, plateNo: '경기70바9999' },
          ]),
          arrivalItem(R1303, [{ predictTimeSec: 64, locationNo: 1, plateNo: '경기70바3003' }]),
        ]),
        {
          [R1150.routeId]: locationListBody([
            locationItem({
              routeId: R1150.routeId,
              stationId: campusStopId,
              stationSeq: 31,
              plateNo: '경기70바1001',
              vehId: '228001001',
            }),
            locationItem({ routeId: R1150.routeId, stationId: '990000042', stationSeq: 12, plateNo: '경기70바1002' }),
          ]),
        },
      ),
    );
    const snapshot = await readAll(source());

    expect(snapshot.arrivals).toEqual([
      {
        routeNo: '1303',
        predictTimeSec: 64,
        locationNo: 1,
        stationName: null,
        plateNo: '경기70바3003',
        vehId: null,
        lowPlate: null,
        remainSeatCnt: null,
        crowded: null,
      },
      {
        routeNo: '1150',
        predictTimeSec: 300,
        locationNo: 3,
        stationName: '모현',
        plateNo: '경기70바1001',
        vehId: '228001001',
        lowPlate: 1,
        remainSeatCnt: null,
        crowded: null,
      },
      {
        routeNo: '1150',
        predictTimeSec: 1500,
        locationNo: 12,
        stationName: null,
        plateNo: '경기70바1002',
        vehId: null,
        lowPlate: null,
        remainSeatCnt: 17,
        crowded: 3,
      },
    ]);
    expect(snapshot.vehicles).toEqual([
      {
        routeNo: '1150',
        vehId: '228001001',
        plateNo: '경기70바1001',
        stationId: campusStopId,
        stationSeq: 31,
        stateCd: 1,
        section: { direction: 'up', stopIndex: 1 },
      },
      {
        routeNo: '1150',
        vehId: '경기70바1002',
        plateNo: '경기70바1002',
        stationId: '990000042',
        stationSeq: 12,
        stateCd: 1,
        section: null,
      },
    ]);
  });

  it('calls GBIS once for arrivals and once per route with a routeId, with the key and format=json', async () => {
    const gbis = source({ ids: mockIds({ routes: [R1150, { ...R1117, routeId: '' }, R1303, R1005] }) });
    await gbis.prepare();
    expect(gbis.locatedRoutes.map((route) => route.routeNo)).toEqual(['1150', '1303', '1005']);

    const snapshot = await readAll(gbis);

    expect(mock.counts()).toEqual({ arrivals: 1, locations: gbis.locatedRoutes.length });
    const calls = mock.calls();
    expect(calls.find((c) => c.operation === 'getBusArrivalListv2')?.params).toEqual({
      serviceKey: KEY,
      stationId: MOCK_ARRIVAL_STOP.stationId,
      format: 'json',
    });
    expect(
      calls
        .filter((c) => c.operation === 'getBusLocationListv2')
        .map((c) => c.params.routeId)
        .sort(),
    ).toEqual([R1150.routeId, R1303.routeId, R1005.routeId].sort());
    // The live mock answers two buses per route; 1117 still shows (matched by routeName), its vehicles do not.
    expect(new Set(snapshot.arrivals.map((a) => a.routeNo))).toEqual(new Set(['1150', '1117', '1303', '1005']));
    expect(snapshot.arrivals).toHaveLength(8);
    expect(snapshot.vehicles.some((v) => v.routeNo === '1117')).toBe(false);
  });

  it('decodes a URL-encoded ("Encoding") service key once', async () => {
    await readAll(source({ serviceKey: encodeURIComponent(KEY) }));
    expect(mock.calls().every((call) => call.params.serviceKey === KEY)).toBe(true);
  });

  describe('a route listed twice at the stop (both directions pass it)', () => {
    const bus = (predictTimeSec: number) => ({ predictTimeSec, locationNo: 2, plateNo: `경기70바${predictTimeSec}` });
    const DOWN_PASS = 57;
    const bothPasses = answer(
      arrivalListBody([arrivalItem(R1005, [bus(400), bus(1300)]), arrivalItem(R1005, [bus(90), bus(2000)], DOWN_PASS)]),
    );

    it('keeps only the item of the up pass when upStaOrder is known', async () => {
      expect(R1005.upStaOrder).not.toBe(DOWN_PASS);
      mock.answerWith(bothPasses);
      const snapshot = await readAll(source());
      expect(snapshot.arrivals.map((a) => [a.routeNo, a.predictTimeSec])).toEqual([
        ['1005', 400],
        ['1005', 1300],
      ]);
    });

    it('mixes both passes and keeps the two nearest when upStaOrder is unknown', async () => {
      mock.answerWith(bothPasses);
      const routes = MOCK_ROUTES.map((route) => ({ ...route, upStaOrder: null }));
      const snapshot = await readAll(source({ ids: mockIds({ routes }) }));
      expect(snapshot.arrivals.map((a) => [a.routeNo, a.predictTimeSec])).toEqual([
        ['1005', 90],
        ['1005', 400],
      ]);
    });
  });

  describe('an invalid item', () => {
    const bus = { predictTimeSec: 300, locationNo: 3, plateNo: '경기70바1001' };
    const broken = (route: Pick<RouteConfig, 'routeId' | 'routeNo'>) => ({
      ...arrivalItem(route, [bus]),
      predictTimeSec1: 'soon',
    });
    const logger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

    it('of another route is skipped, the rest kept, and logged once while it lasts', async () => {
      const log = logger();
      const gbis = source({ logger: log });
      const other = { routeId: '228000999', routeNo: '5600' };
      mock.answerWith(answer(arrivalListBody([broken(other), arrivalItem(R1150, [bus])])));
      const first = await readAll(gbis);
      await readAll(gbis);

      expect(first.arrivals.map((a) => [a.routeNo, a.predictTimeSec])).toEqual([['1150', 300]]);
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(log.warn).toHaveBeenCalledWith(
        '[gbis] skipped invalid items of other routes: busArrivalList item of route 5600 (routeId 228000999): ' +
          'vehicle1.predictTimeSec: Expected number, received nan',
      );

      mock.answerWith(answer(arrivalListBody([broken(other), broken({ routeId: '228000998', routeNo: '5601' })])));
      await readAll(gbis);
      expect(log.warn).toHaveBeenCalledTimes(2);
      expect(log.warn).toHaveBeenLastCalledWith(expect.not.stringContaining('5600'));
    });

    it.each<[string, () => GbisAnswer, string]>([
      [
        'arrival item of route 1150',
        () => answer(arrivalListBody([arrivalItem(R1303, [bus]), broken(R1150)])),
        `getBusArrivalListv2: busArrivalList item of route 1150 (routeId ${R1150.routeId}): vehicle1.predictTimeSec`,
      ],
      [
        'location item of route 1150 (no stationId)',
        () =>
          answer(noResultBody(), {
            [R1150.routeId]: locationListBody([
              {
                ...locationItem({ routeId: R1150.routeId, stationId: '990000042', stationSeq: 12, plateNo: 'x' }),
                stationId: '',
              },
            ]),
          }),
        `getBusLocationListv2: busLocationList item of route ? (routeId ${R1150.routeId}): stationId: missing id`,
      ],
    ])('%s fails the poll: our buses are never dropped silently', async (_name, reply, message) => {
      const log = logger();
      mock.answerWith(reply());
      const error = await pollError(source({ logger: log }));
      expect(error.kind).toBe('body');
      expect(error.message).toContain(message);
      expect(error.message).toContain('(one of our routes)');
      expect(log.warn).not.toHaveBeenCalled();
    });
  });

  it('resultCode 4 at the stop means no arrivals, not an error', async () => {
    mock.answerWith(answer(noResultBody()));
    const snapshot = await readAll(source());
    expect(snapshot.arrivals).toEqual([]);
    expect(snapshot.vehicles).toEqual([]);
  });

  it('reads its ids at each prepare: a changed routeId or stop is polled from then on', async () => {
    let ids = MOCK_IDS;
    const gbis = source({ ids: async () => ids });
    await gbis.prepare();
    await readAll(gbis);
    ids = {
      ...MOCK_IDS,
      routes: [{ ...R1150, routeId: '990001234' }],
      upStops: [{ name: 'x', stationId: '990000777' }],
    };
    await gbis.prepare();
    expect(gbis.locatedRoutes.map((route) => route.routeNo)).toEqual(['1150']);
    mock.reset();
    const snapshot = await readAll(gbis);
    expect(mock.calls().map((call) => call.params.stationId ?? call.params.routeId)).toEqual([
      '990000777',
      '990001234',
    ]);
    expect(snapshot.terminusStationId).toBe(MOCK_IDS.terminus.stationId);
  });
});
