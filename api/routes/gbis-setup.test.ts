/**
 * The GBIS setup api against the GBIS stand-in (tests/mocks/gbis-stub.ts, real HTTP): discovery
 * counted in the quota (two at once never past it), the save (audited) and the poller polling with
 * the saved ids at its next poll; a route GBIS does not know; the portal's quota error; env
 * overrides; the demo feed.
 */
import { GbisDiscoverResponseSchema, GbisSetupSchema, type GbisConfig } from '../../contract/gbis';
import { MOCK_DISCOVERED, MOCK_TIMETABLE } from '../../tests/mocks/gbis-discovery';
import { MOCK_ARRIVAL_STOP, MOCK_ROUTES } from '../../tests/mocks/gbis';
import { startGbisStub, type GbisStub } from '../../tests/mocks/gbis-stub';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor } from '../../tests/setup/db';
import { FakeClock, pollerFeed, recordingLogger } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { readAll } from '../../tests/setup/gbis-source';
import { listAudit } from '../admin/audit';
import { GbisSource } from '../bus/feed/gbis/source';
import { transitIdsFromDatabase, type GbisOverrides, type GbisSetupOptions } from '../bus/feed/gbis/setup-store';
import { discoveryCallsSpent } from '../bus/feed/store';
import { ROUTES } from '../bus/feed/transit-config';

const TOKEN = 'gbis-setup-test-service-token-0123456789';
const HEADERS = { Authorization: `Bearer ${TOKEN}`, 'X-Admin-User': 'alice', 'Content-Type': 'application/json' };
const NO_OVERRIDES: GbisOverrides = { arrivalStationId: null, routeIds: {} };
/** 10:00 KST on a Monday: in service. */
const NOW = new Date('2026-11-23T10:00:00+09:00');

describe('GBIS setup api', () => {
  const database = testDatabaseFor('pglite');
  let stub: GbisStub;
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  beforeEach(async () => {
    store = tempLocalStore();
    clock = new FakeClock(NOW);
    stub = await startGbisStub({ clock: () => clock.now() });
  });
  afterEach(async () => {
    store.remove();
    await stub.close();
  });

  const options = (over: Partial<GbisSetupOptions> = {}): GbisSetupOptions => ({
    feed: 'gbis',
    serviceKey: 'stub-key',
    baseUrl: stub.url,
    overrides: NO_OVERRIDES,
    ...over,
  });
  /** The api with the GBIS setup `gbisSetup`, spending at most `dailyQuota` calls a day per dataset when given. */
  const api = (gbisSetup?: GbisSetupOptions, dailyQuota?: number) =>
    testApi({ db: database().db, storage: store, clock, serviceToken: TOKEN, gbisSetup, dailyQuota });
  const get = async (app: ReturnType<typeof api>) => {
    const response = await app.request('/api/admin/gbis', { headers: HEADERS });
    expect(response.status).toBe(200);
    return GbisSetupSchema.parse(await response.json());
  };
  const discover = (app: ReturnType<typeof api>) =>
    app.request('/api/admin/gbis/discover', { method: 'POST', headers: HEADERS });
  const save = (app: ReturnType<typeof api>, body: unknown) =>
    app.request('/api/admin/gbis', { method: 'PUT', headers: HEADERS, body: JSON.stringify(body) });
  /** A GbisSource on the stub reading its ids from the database, as the runtime builds it. */
  const source = (overrides = NO_OVERRIDES) =>
    new GbisSource({
      serviceKey: 'stub-key',
      baseUrl: stub.url,
      ids: transitIdsFromDatabase(database().db, overrides).refresh,
      logger: recordingLogger(),
    });

  it('discovers, counting its calls; the save is audited and the poller polls with the saved ids at its next poll', async () => {
    const app = api(options());
    const { poller } = pollerFeed({ source: source(), db: database().db, clock });
    expect((await get(app)).idsKnown).toBe(false);
    await poller.pollOnce();
    expect(stub.calls()).toEqual([]); // ids unknown: no GBIS call
    expect(poller.current().lastError).toMatch(/^config: /);

    const response = await discover(app);
    expect(response.status).toBe(200);
    const { discovery, callsSpent } = GbisDiscoverResponseSchema.parse(await response.json());
    expect(callsSpent).toBe(stub.calls().length);
    expect(await discoveryCallsSpent(database().db, '2026-11-23')).toEqual({ routes: 12, stations: 6 });
    const proposal = discovery.proposal;
    expect(proposal.upStationIds).toEqual(MOCK_DISCOVERED.upStops.map((stop) => stop.stationId));
    expect(proposal.downStationIds).toEqual(MOCK_DISCOVERED.downStops.map((stop) => stop.stationId));
    expect(proposal.terminusStationId).toBe(MOCK_DISCOVERED.terminus.stationId);
    expect(proposal.routes['1150']).toEqual({
      routeId: MOCK_ROUTES[0].routeId,
      upStaOrder: MOCK_ROUTES[0].upStaOrder,
      timetable: { ...ROUTES[0].timetable, weekday: MOCK_TIMETABLE }, // the stub sends weekday fields only
    });
    expect((await get(app)).stored).toBeNull(); // discovery saves nothing

    const saved = await save(app, proposal);
    expect(saved.status).toBe(200);
    const after = GbisSetupSchema.parse(await saved.json());
    expect(after).toMatchObject({
      idsKnown: true,
      effective: proposal,
      stored: { value: proposal, updatedBy: 'alice' },
    });
    expect((await listAudit(database().db, 10))[0]).toMatchObject({
      actor: 'alice',
      action: 'gbis-config',
      target: 'gbis-config',
      before: null,
      after: proposal,
    });

    const before = stub.calls().length;
    await poller.pollOnce();
    const polled = stub.calls().slice(before);
    expect(polled.find((call) => call.operation === 'getBusArrivalListv2')?.params.stationId).toBe(
      MOCK_ARRIVAL_STOP.stationId,
    );
    expect(
      polled.filter((call) => call.operation === 'getBusLocationListv2').map((call) => call.params.routeId),
    ).toEqual(MOCK_ROUTES.map((route) => route.routeId));
    expect(poller.current()).toMatchObject({
      lastError: null,
      snapshot: { terminusStationId: proposal.terminusStationId },
    });
    expect(poller.current().snapshot?.arrivals.length).toBeGreaterThan(0);
  });

  it('leaves a route GBIS does not know undecided, with no candidate', async () => {
    const unknownStub = await startGbisStub({ clock: () => clock.now(), knownRoutes: MOCK_ROUTES.slice(0, 3) });
    try {
      const response = await discover(api(options({ baseUrl: unknownStub.url })));
      const { discovery } = GbisDiscoverResponseSchema.parse(await response.json());
      expect(discovery.routes[3]).toMatchObject({ routeNo: '1005', routeId: null, candidates: [], upStaOrder: null });
      expect(discovery.proposal.routes['1005'].routeId).toBe(''); // kept: the default
      expect(discovery.routes[0].routeId).toBe(MOCK_ROUTES[0].routeId);
    } finally {
      await unknownStub.close();
    }
  });

  it('says when GBIS refuses for its quota, with the calls spent, and saves nothing', async () => {
    stub.setMode('quota');
    const app = api(options());
    const response = await discover(app);
    expect(response.status).toBe(502);
    const { message } = (await response.json()) as { message: string };
    expect(message).toContain('호출 한도');
    expect(message).toContain('1번 호출');
    expect((await get(app)).stored).toBeNull();
    expect(await discoveryCallsSpent(database().db, '2026-11-23')).toEqual({ routes: 1, stations: 0 });
  });

  it("refuses a discovery today's quota cannot hold before calling GBIS", async () => {
    const app = api(options(), 10);
    const response = await discover(app);
    expect(response.status).toBe(429);
    expect(stub.calls()).toEqual([]);
  });

  it('refuses (429, in Korean) a discovery asked while another runs when the quota left holds only one', async () => {
    // 20 a day per dataset: one discovery (12 route-dataset calls, 6 station searches) fits, two do not.
    const app = api(options(), 20);
    const [first, second] = await Promise.all([discover(app), discover(app)]);
    expect([first.status, second.status].sort()).toEqual([200, 429]);
    const refused = first.status === 429 ? first : second;
    expect(((await refused.json()) as { message: string }).message).toBe(
      '오늘의 GBIS 호출 한도(데이터셋마다 20번)로는 조회할 수 없습니다: 노선 12번, 정류소 6번을 이미 썼거나 진행 중인 ' +
        '조회가 잡아 두었고, 조회에 노선 12번, 정류소 6번이 필요합니다. 진행 중인 조회가 있다면 끝난 뒤 다시 시도해주세요.',
    );
    expect(stub.calls()).toHaveLength(18);
    expect(await discoveryCallsSpent(database().db, '2026-11-23')).toEqual({ routes: 12, stations: 6 });
  });

  it('reports env overrides, which win over the saved setup', async () => {
    const overrides = { arrivalStationId: '990000555', routeIds: { '1150': '990009999' } };
    const app = api(options({ overrides }));
    const stored = (await get(app)).effective;
    const routes = { ...stored.routes, '1150': { ...stored.routes['1150'], routeId: '990001111' } };
    const saved = await save(app, { ...stored, routes, upStationIds: ['990000111', '', '', '', ''] });
    expect(saved.status).toBe(200);
    const setup = GbisSetupSchema.parse(await saved.json());
    expect(setup.overrides).toEqual(overrides);
    expect(setup.stored?.value.upStationIds[0]).toBe('990000111');
    expect(setup.effective.upStationIds[0]).toBe('990000555');
    expect(setup.effective.routes['1150'].routeId).toBe('990009999');
    const polled = source(overrides);
    await readAll(polled);
    expect(stub.calls().find((call) => call.operation === 'getBusArrivalListv2')?.params.stationId).toBe('990000555');
  });

  it('refuses a bad body with 400 naming the field, and GBIS work while the feed is the demo', async () => {
    const app = api(options());
    const config: GbisConfig = (await get(app)).effective;
    const bad = await save(app, { ...config, upStationIds: ['abc', '', '', '', ''] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^upStationIds\.0: /);
    expect((await save(app, 'not json')).status).toBe(400);

    const demo = api();
    expect((await get(demo)).feed).toBe('demo');
    const refused = await discover(demo);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('BUS_FEED=gbis');
    expect((await save(demo, config)).status).toBe(409);
    expect(stub.calls()).toEqual([]);
  });
});
