import { setupServer } from 'msw/node';
import { createGbisMock, listBody, noResultBody, type GbisAnswer } from '../../../../tests/mocks/gbis';
import { DEFAULT_TRANSIT_IDS, ROUTES } from '../transit-config';
import { discover, discoveryCallsAtMost, timetableOf } from './discover';
import { gbisHttp } from './http';
import { parseInThread } from './discover';

const route = (routeId: string, routeName: string | number, regionName: string, start: string, end: string) => ({
  routeId: Number(routeId),
  routeName,
  regionName,
  routeTypeName: '직행좌석형시내버스',
  adminName: '경기도 용인시',
  startStationName: start,
  endStationName: end,
});
const station = (stationId: string, stationName: string, regionName = '용인') => ({
  stationId: Number(stationId),
  stationName,
  regionName,
  mobileNo: ' 29554',
  x: 127.25,
  y: 37.33,
});

const line = (stops: string[][]) =>
  stops.map(([stationSeq, stationId, stationName, turnYn = 'N']) => ({
    stationSeq: Number(stationSeq),
    stationId: Number(stationId),
    stationName,
    turnYn,
  }));

// 1150 starts at campus: stops after seq 1 leave campus (down), the stops before the end return (up).
const LINE_1150 = line([
  ['1', '228000349', '한국외대종점'],
  ['2', '900000002', '파란지붕'],
  ['3', '900000003', '기숙사'],
  ['4', '900000004', '모현사거리'],
  ['5', '900000005', '외대사거리'],
  ['6', '900000006', '잠실역'],
  ['7', '900000007', '잠실역'],
  ['8', '900000010', '외대사거리'],
  ['9', '228000351', '모현사거리 입구'],
  ['10', '900000012', '외대기숙사'],
  ['11', '900000013', '외대도서관'],
  ['12', '900000014', '파란지붕'],
]);

// 1117 turns at campus and serves the crossroads stop 900000010 in both directions: seq 3 up, seq 5 down.
const LINE_1117 = line([
  ['1', '900000101', '강변역'],
  ['2', '900000102', '잠실역'],
  ['3', '900000010', '외대사거리'],
  ['4', '228000349', '한국외대종점', 'Y'],
  ['5', '900000010', '외대사거리'],
  ['6', '900000103', '잠실역'],
]);
const LINES: Record<string, unknown[]> = { '228000101': LINE_1150, '228000201': LINE_1117 };

const SEARCH: Record<string, unknown[]> = {
  '1150': [
    route('228000101', 1150, '용인', '한국외대', '잠실역'),
    route('200000150', 1150, '수원', '수원역', '강남역'),
    route('228000102', '1150-1', '용인', '한국외대', '잠실역'),
  ],
  '1117': [
    route('228000201', 1117, '용인,서울', '강변역', '한국외대종점'),
    route('228000202', 1117, '용인', '용인터미널', '수지'),
  ],
  '1303': [
    route('228000301', 1303, '용인', '한국외대', '강남역'),
    route('228000302', 1303, '용인', '강남역', '외대(글로벌)'),
  ],
  외대사거리: [
    station('900000005', '외대사거리'),
    station('900000010', '외대사거리'),
    station('200000999', '외대사거리', '수원'),
  ],
  모현사거리: [station('900000004', '모현사거리'), station('228000351', '모현사거리 입구')],
  외대기숙사: [station('900000012', '외대기숙사')],
  외대도서관: [station('900000013', '외대도서관')],
  파란지붕: [station('900000002', '파란지붕'), station('900000014', '파란지붕')],
  기숙사: [station('900000012', '외대기숙사'), station('900000003', '기숙사'), station('900000099', '기숙사앞')],
};

const INFO: Record<string, unknown> = {
  '228000101': {
    routeId: 228000101,
    routeName: 1150,
    startStationName: '한국외대',
    endStationName: '잠실역',
    turnStID: 900000006,
    turnStNm: '잠실역',
    upFirstTime: '05:30',
    upLastTime: '2330',
    downFirstTime: '06:10',
    peekAlloc: 12,
    npeekAlloc: '25',
    satUpFirstTime: '05:45',
    sunUpFirstTime: '',
    weUpFirstTime: '06:00',
  },
  '228000201': {
    routeId: 228000201,
    routeName: 1117,
    startStationName: '강변역',
    endStationName: '한국외대종점',
    turnStID: 228000349,
    turnStNm: '한국외대종점',
    upFirstTime: '04:50',
    downFirstTime: '05:20',
    downLastTime: '23:40',
    peekAlloc: 10,
    nPeekAlloc: 20,
  },
};

const answer: GbisAnswer = ({ operation, params }) => {
  const body = (() => {
    switch (operation) {
      case 'getBusRouteListv2':
        return SEARCH[params.keyword] ? listBody('busRouteList', SEARCH[params.keyword]) : noResultBody();
      case 'getBusStationListv2':
        return SEARCH[params.keyword] ? listBody('busStationList', SEARCH[params.keyword]) : noResultBody();
      case 'getBusRouteInfoItemv2':
        // GBIS sends the single item as a bare object.
        return INFO[params.routeId] ? listBody('busRouteInfoItem', INFO[params.routeId] as unknown[]) : noResultBody();
      case 'getBusRouteStationListv2':
        return LINES[params.routeId] ? listBody('busRouteStationList', LINES[params.routeId]) : noResultBody();
      default:
        return 'unexpected';
    }
  })();
  return { status: 200, body };
};

const mock = createGbisMock({ answer });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('discover', () => {
  it('resolves routes, timetables, upStaOrder, the campus terminus and both sides of the campus stops', async () => {
    const http = gbisHttp({ serviceKey: 'k', baseUrl: mock.baseUrl });
    const found = await discover({ http, parse: parseInThread }, DEFAULT_TRANSIT_IDS);

    expect(found.routes.map((r) => [r.route.routeNo, r.routeId])).toEqual([
      ['1150', '228000101'], // exact number in Yongin; 1150-1 and the Suwon 1150 dropped
      ['1117', '228000201'], // two in Yongin, one with a campus terminus
      ['1303', null], // two with a campus terminus: ambiguous
      ['1005', null], // nothing found
    ]);
    expect(found.routes[2].candidates).toHaveLength(2);
    // 1150 starts at campus (its turnaround 잠실역 is not the campus one); 1117 turns at campus.
    expect(found.lines.map((l) => [l.routeNo, l.terminus.stationSeq, l.terminus.stationId])).toEqual([
      ['1150', 1, '228000349'],
      ['1117', 4, '228000349'],
    ]);
    expect(found.terminusId).toBe('228000349');
    // The crossroads' up pass (900000010): 1150 passes it once, 1117 twice (seq 3 up, 5 down).
    expect(found.routes.map((r) => [r.route.routeNo, r.upStaOrder])).toEqual([
      ['1150', 8],
      ['1117', 3],
      ['1303', null],
      ['1005', null],
    ]);

    expect(found.stops.map((s) => [s.direction, s.name, s.stationId])).toEqual([
      ['up', '외대사거리', '900000010'],
      ['up', '모현사거리', '228000351'],
      ['up', '외대 기숙사', '900000012'],
      ['up', '외대 도서관', '900000013'],
      ['up', '파란지붕', '900000014'],
      ['down', '파란지붕', '900000002'],
      ['down', '기숙사', '900000003'],
      ['down', '모현사거리', '900000004'],
      ['down', '외대사거리', '900000005'],
    ]);
    // The Suwon namesake is filtered out; a Yongin stop off our routes stays as an unsided candidate.
    expect(found.stops[0].candidates.map((c) => c.stationId)).toEqual(['900000005', '900000010']);
    expect(found.stops[6].candidates.find((c) => c.stationId === '900000099')?.side).toBeNull();

    const [r1150, r1117] = found.routes.map((r) => r.info && timetableOf(r.info, r.route.timetable));
    // 1150 starts at campus: up* times; npeekAlloc spelled in lower case; holiday from we… when sun… is "".
    expect(r1150?.weekday).toEqual({ first: '05:30', last: '23:30', minHeadwayMin: 12, maxHeadwayMin: 25 });
    expect(r1150?.holiday).toEqual({ first: '06:00', last: '23:00', minHeadwayMin: 20, maxHeadwayMin: 35 });
    // 1117 ends at campus: down* times.
    expect(r1117?.weekday).toEqual({ first: '05:20', last: '23:40', minHeadwayMin: 10, maxHeadwayMin: 20 });

    // 4 route searches, 2 route infos, 2 stop lists, 6 distinct stop searches.
    const operations = mock.calls().map((c) => c.operation);
    expect(operations.filter((o) => o === 'getBusRouteListv2')).toHaveLength(4);
    expect(operations.filter((o) => o === 'getBusRouteInfoItemv2')).toHaveLength(2);
    expect(operations.filter((o) => o === 'getBusRouteStationListv2')).toHaveLength(2);
    expect(operations.filter((o) => o === 'getBusStationListv2')).toHaveLength(6);
    expect(discoveryCallsAtMost(DEFAULT_TRANSIT_IDS)).toEqual({ routes: ROUTES.length * 3, stations: 6 });
  });
});
