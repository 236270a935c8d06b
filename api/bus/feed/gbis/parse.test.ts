import { readFileSync, readdirSync } from 'node:fs';
import { z } from 'zod';
import { FeedError, type FeedErrorKind } from '../snapshot';
import { gbisId, gbisText, parseArrivalList, parseList, parseLocationList, type ParsedList } from './parse';

const FIXTURES = new URL('../../../../tests/fixtures/gbis/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

function feedError(run: () => unknown): FeedError {
  try {
    run();
  } catch (error) {
    if (error instanceof FeedError) return error;
    throw error;
  }
  throw new Error('expected a FeedError, nothing was thrown');
}

function expectFeedError(run: () => unknown, kind: FeedErrorKind, ...messageParts: string[]) {
  const error = feedError(run);
  expect(error.kind).toBe(kind);
  for (const part of messageParts) expect(error.message).toContain(part);
}

/** The items of a list that must parse without a problem. */
function clean<T>(list: ParsedList<T>): T[] {
  expect(list.problems).toEqual([]);
  return list.items;
}

/** A JSON body in the GBIS v2 envelope with resultCode 0. */
const okBody = (key: string, list: unknown) =>
  JSON.stringify({
    response: { comMsgHeader: '', msgHeader: { resultCode: 0, resultMessage: '정상' }, msgBody: { [key]: list } },
  });

const COVERED_FIXTURES = [
  'getBusArrivalListv2_abridged_2026-09-02_station208000069.json',
  'getBusLocationList_v1_xml_2019-12-10_route224000047.xml',
  'getBusLocationListv2_abridged_route241253001.json',
  'portal_error_json_30_SERVICE_KEY_IS_NOT_REGISTERED.json',
  'portal_error_xml_01_SERVICE_ERROR.xml',
  'portal_error_xml_30_classic_form.xml',
  'v2_header_only_resultCode2_missingParam.json',
  'v2_header_only_resultCode4_noResult.json',
];

describe('real GBIS answers (tests/fixtures/gbis)', () => {
  it('covers every fixture file', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual([...COVERED_FIXTURES].sort());
  });

  it('getBusArrivalListv2: numeric routeName, predictTime fallback, "" second vehicle', () => {
    const items = clean(parseArrivalList(fixture(COVERED_FIXTURES[0]), 200));
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({
      routeId: '208000007',
      routeName: '1',
      routeTypeCd: null,
      routeDestName: '구로디지털단지역(중)',
      stationId: '208000069',
      staOrder: 23,
      flag: 'PASS',
      vehicles: [
        {
          predictTimeSec: 660,
          locationNo: 10,
          stationName: '안양우편물류센터',
          plateNo: '경기71바1468',
          vehId: null,
          lowPlate: 0,
          remainSeatCnt: null,
          crowded: null,
        },
      ],
    });
    // No predictTimeSec keys at all: minutes × 60.
    expect(items[1].routeName).toBe('51');
    expect(
      items[1].vehicles.map((v) => [v.predictTimeSec, v.locationNo, v.plateNo, v.stationName, v.lowPlate]),
    ).toEqual([
      [540, 6, '경기71바1118', '남부시장', 1],
      [1020, 14, '경기71바1119', '박달', 1],
    ]);
  });

  it('getBusLocationList v1 XML: repeated elements, string leaves', () => {
    const items = clean(parseLocationList(fixture(COVERED_FIXTURES[1]), 200));
    expect(items).toHaveLength(8);
    expect(items[0]).toEqual({
      routeId: '224000047',
      stationId: '121000060',
      stationSeq: 39,
      plateNo: '경기75바3116',
      vehId: null,
      lowPlate: 0,
      remainSeatCnt: 37,
      crowded: null,
      stateCd: null,
    });
    expect(items.map((i) => i.stationSeq)).toEqual([39, 27, 68, 3, 18, 61, 49, 52]);
    expect(items[7]).toMatchObject({ stationId: '277102910', plateNo: '경기75바3113', remainSeatCnt: 3 });
  });

  it('getBusLocationListv2 JSON: numeric ids become strings', () => {
    const items = clean(parseLocationList(fixture(COVERED_FIXTURES[2]), 200));
    expect(items).toEqual([
      {
        routeId: '241253001',
        stationId: '208000305',
        stationSeq: 3,
        plateNo: '경기71바8004',
        vehId: '289000652',
        lowPlate: 0,
        remainSeatCnt: -1,
        crowded: 0,
        stateCd: 0,
      },
      {
        routeId: '241253001',
        stationId: '208000069',
        stationSeq: 10,
        plateNo: '경기71바9299',
        vehId: '289000656',
        lowPlate: 1,
        remainSeatCnt: -1,
        crowded: 0,
        stateCd: 1,
      },
    ]);
  });

  it('portal error in JSON (code 30, name in errMsg) with HTTP 200', () => {
    expectFeedError(
      () => parseArrivalList(fixture(COVERED_FIXTURES[3]), 200),
      'portal',
      'portal error 30 SERVICE_KEY_IS_NOT_REGISTERED_ERROR (service key not registered)',
    );
  });

  it('portal error in XML (code 01, only the generic name)', () => {
    expectFeedError(
      () => parseLocationList(fixture(COVERED_FIXTURES[4]), 200),
      'portal',
      'portal error 01 SERVICE ERROR (service error)',
    );
  });

  it('portal error in the classic XML form (name in returnAuthMsg)', () => {
    expectFeedError(
      () => parseArrivalList(fixture(COVERED_FIXTURES[5]), 200),
      'portal',
      'portal error 30 SERVICE_KEY_IS_NOT_REGISTERED_ERROR',
    );
  });

  it('header-only resultCode 2 is a GBIS error with its message', () => {
    expectFeedError(
      () => parseArrivalList(fixture(COVERED_FIXTURES[6]), 200),
      'gbis',
      'GBIS resultCode 2: 필수 요청 Parameter 가 존재하지 않습니다.',
    );
  });

  it('header-only resultCode 4 (no result, no msgBody) is an empty list', () => {
    expect(clean(parseArrivalList(fixture(COVERED_FIXTURES[7]), 200))).toEqual([]);
    expect(clean(parseLocationList(fixture(COVERED_FIXTURES[7]), 200))).toEqual([]);
  });
});

describe('quirks', () => {
  const arrival = {
    routeId: 228000001,
    routeName: '통학1(등교)',
    staOrder: 5,
    flag: 'RUN',
    predictTime1: 2,
    predictTimeSec1: '64',
    locationNo1: 1,
    plateNo1: '경기70아1234',
    vehId1: ' 228001234',
    remainSeatCnt1: 12,
    crowded1: 2,
    predictTime2: '',
    predictTimeSec2: '',
    locationNo2: '',
    plateNo2: '',
  };

  it('a one-element list sent as a bare object', () => {
    const items = clean(parseArrivalList(okBody('busArrivalList', arrival), 200));
    expect(items).toHaveLength(1);
    expect(items[0].routeName).toBe('통학1(등교)');
  });

  it('a one-element XML list is a bare element', () => {
    const xml =
      '<response><comMsgHeader/><msgHeader><resultCode>0</resultCode></msgHeader><msgBody>' +
      '<busLocationList><routeId>228000001</routeId><stationId>228000351</stationId><stationSeq>7</stationSeq>' +
      '<plateNo>경기70아1234</plateNo><vehId>228001234</vehId><remainSeatCnt></remainSeatCnt></busLocationList>' +
      '</msgBody></response>';
    expect(clean(parseLocationList(xml, 200))).toEqual([
      expect.objectContaining({ stationId: '228000351', stationSeq: 7, vehId: '228001234', remainSeatCnt: null }),
    ]);
  });

  it('an empty list sent as "" (JSON) or as an empty msgBody (XML)', () => {
    expect(clean(parseArrivalList(okBody('busArrivalList', ''), 200))).toEqual([]);
    const xml = '<response><msgHeader><resultCode>0</resultCode></msgHeader><msgBody/></response>';
    expect(clean(parseLocationList(xml, 200))).toEqual([]);
  });

  it('predictTimeSec as the string "64", ids with whitespace, a "" second vehicle', () => {
    const [item] = clean(parseArrivalList(okBody('busArrivalList', [arrival]), 200));
    expect(item.routeId).toBe('228000001');
    expect(item.vehicles).toEqual([
      {
        predictTimeSec: 64,
        locationNo: 1,
        stationName: null,
        plateNo: '경기70아1234',
        vehId: '228001234',
        lowPlate: null,
        remainSeatCnt: 12,
        crowded: 2,
      },
    ]);
  });

  it('missing predictTimeSec keys fall back to predictTime minutes', () => {
    const { predictTimeSec1: _dropped, ...withoutSec } = arrival;
    const [item] = clean(parseArrivalList(okBody('busArrivalList', [withoutSec]), 200));
    expect(item.vehicles[0].predictTimeSec).toBe(120);
  });

  it('flag PASS with every vehicle field "" has no vehicles', () => {
    const idle = Object.fromEntries(
      Object.entries(arrival).map(([key, value]) => [key, /[12]$/.test(key) ? '' : value]),
    );
    const [item] = clean(parseArrivalList(okBody('busArrivalList', [{ ...idle, flag: 'PASS' }]), 200));
    expect(item).toMatchObject({ flag: 'PASS', staOrder: 5, vehicles: [] });
  });

  it('a vehicle with a plate but no predicted time is dropped', () => {
    const [item] = clean(
      parseArrivalList(okBody('busArrivalList', [{ ...arrival, predictTime1: '', predictTimeSec1: '' }]), 200),
    );
    expect(item.vehicles).toEqual([]);
  });

  it('parseList with a discovery schema: mobileNo leading space, number ids', () => {
    const schema = z.object({ stationId: gbisId, stationName: gbisText, mobileNo: gbisText });
    const body = okBody('busStationList', [{ stationId: 228000351, stationName: '모현사거리', mobileNo: ' 29554' }]);
    expect(parseList(body, 200, 'busStationList', schema)).toEqual([
      { stationId: '228000351', stationName: '모현사거리', mobileNo: '29554' },
    ]);
  });
});

describe('failures', () => {
  it('non-2xx HTTP is an http error, whatever the body', () => {
    expectFeedError(() => parseArrivalList(okBody('busArrivalList', []), 500), 'http', 'HTTP 500');
    expectFeedError(() => parseArrivalList('', 404), 'http', 'HTTP 404');
  });

  it('a quota error (code 22) in JSON names the quota', () => {
    const body = JSON.stringify({
      OpenAPI_ServiceResponse: {
        cmmMsgHeader: {
          errMsg: 'SERVICE ERROR',
          returnAuthMsg: 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR',
          returnReasonCode: '22',
        },
      },
    });
    expectFeedError(
      () => parseArrivalList(body, 200),
      'portal',
      'portal error 22 LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR (daily quota exceeded)',
    );
  });

  it('resultCode 1 is a GBIS error', () => {
    const body = JSON.stringify({ response: { msgHeader: { resultCode: '1', resultMessage: '시스템 에러' } } });
    expectFeedError(() => parseLocationList(body, 200), 'gbis', 'GBIS resultCode 1: 시스템 에러');
  });

  it('a response without msgHeader is a GBIS error, not an empty list', () => {
    const body = JSON.stringify({ response: { comMsgHeader: '' } });
    expectFeedError(() => parseArrivalList(body, 200), 'gbis', 'without msgHeader');
  });

  it.each([
    ['plain text', 'Service Unavailable', 'neither JSON nor XML'],
    ['broken XML', '<html><body>gateway', 'unreadable XML'],
    ['JSON of another shape', '{"foo":1}', 'no GBIS response envelope'],
    ['resultCode 0 without msgBody', '{"response":{"msgHeader":{"resultCode":0}}}', 'without msgBody'],
    ['a header without resultCode', '{"response":{"msgHeader":{"resultMessage":"?"}}}', 'unreadable msgHeader'],
  ])('%s is a body error', (_name, body, message) => {
    expectFeedError(() => parseArrivalList(body, 200), 'body', message);
  });

  it('parseList (strict): an item that does not fit fails the list, named by its index', () => {
    const schema = z.object({ stationId: gbisId, stationName: gbisText });
    const body = okBody('busStationList', [{ stationId: 1, stationName: 'a' }, { stationName: 'b' }]);
    expectFeedError(
      () => parseList(body, 200, 'busStationList', schema),
      'body',
      'busStationList[1]: stationId: missing id',
    );
  });
});

describe('invalid items of arrival and location lists', () => {
  it('are left out and reported by the route they name; the rest parses', () => {
    const broken = { routeId: 228000999, routeName: 5600, staOrder: 3, predictTimeSec1: 'soon', locationNo1: 1 };
    const good = { routeId: 228000001, routeName: 1150, staOrder: 7, predictTimeSec1: 64, locationNo1: 1 };
    const list = parseArrivalList(okBody('busArrivalList', [broken, good]), 200);
    expect(list.items.map((item) => [item.routeName, item.vehicles.length])).toEqual([['1150', 1]]);
    expect(list.problems).toEqual([
      {
        message:
          'busArrivalList item of route 5600 (routeId 228000999): vehicle1.predictTimeSec: Expected number, received nan',
        routeId: '228000999',
        routeName: '5600',
      },
    ]);
  });

  it('an item naming no readable route is reported by its index, with no route', () => {
    const list = parseLocationList(
      okBody('busLocationList', [{ routeId: 1, stationId: 2, stationSeq: 3 }, { routeId: 'x', stationSeq: 4 }, 'oops']),
      200,
    );
    expect(list.items.map((item) => item.stationSeq)).toEqual([3]);
    expect(list.problems).toEqual([
      { message: 'busLocationList[1]: routeId: not a numeric id', routeId: null, routeName: null },
      { message: 'busLocationList[2]: Expected object, received string', routeId: null, routeName: null },
    ]);
  });
});
