/**
 * The GBIS setup's api, for the web's admin page /admin-only/gbis (docs/gbis.md §Setup page), behind
 * the service token:
 * - GET /api/admin/gbis: the ids in use and where they come from (contract GbisSetup);
 * - POST /api/admin/gbis/discover: runs discovery with GBIS_SERVICE_KEY, counting its calls in
 *   today's quota (contract GbisDiscoverResponseSchema);
 * - PUT /api/admin/gbis: saves a setup (contract GbisConfig), audited; the poller reads it at its next poll,
 *   and this instance's timetables (TransitIdsNow) follow at once.
 * Refusals are `{ message }`: 400 naming the field of a bad body, 409 while GBIS is not in use
 * (BUS_FEED=demo, or no key), 429 when today's quota cannot hold a discovery beside the calls spent
 * and those reserved by discoveries running now (runDiscovery), 502 when GBIS fails one of its
 * calls (the message says how many calls were spent).
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { GbisConfigSchema, type GbisSetup } from '../../contract/gbis';
import { gbisHttp } from '../bus/feed/gbis/http';
import { idsKnown } from '../bus/feed/transit-config';
import { runDiscovery } from '../bus/feed/gbis/setup-discovery';
import {
  configOf,
  loadGbisConfig,
  resolveTransitIds,
  saveGbisConfig,
  type GbisSetupOptions,
} from '../bus/feed/gbis/setup-store';
import { allCallsSpent } from '../bus/feed/store';
import type { FeedError } from '../bus/feed/snapshot';
import type { ApiContext } from '../context';
import { actorOf, requireServiceToken } from '../service-token';
import { formatKstDate } from '../../contract/kst';
import { jsonBody } from '../validate';

/** A deployment without GBIS setup options: the demo feed. */
const DEMO: GbisSetupOptions = { feed: 'demo', serviceKey: null, overrides: { arrivalStationId: null, routeIds: {} } };

const NOT_IN_USE =
  'GBIS를 쓰지 않는 배포입니다 (BUS_FEED=demo). BUS_FEED=gbis와 GBIS_SERVICE_KEY를 설정하고 다시 시작해주세요.';

/** Why GBIS failed a discovery call, in Korean, with the calls it spent. */
function failureMessage(error: FeedError, callsSpent: number): string {
  const why =
    error.kind === 'portal' && /portal error 22\b/.test(error.message)
      ? '오늘의 GBIS 호출 한도를 모두 썼습니다 (공공데이터포털 오류 22). 내일 다시 시도해주세요.'
      : error.kind === 'portal'
        ? `공공데이터포털이 요청을 거절했습니다. 서비스 키를 확인해주세요. (${error.message})`
        : `GBIS 조회에 실패했습니다. 잠시 후 다시 시도해주세요. (${error.kind}: ${error.message})`;
  return `${why} 이번 조회에서 GBIS를 ${callsSpent}번 호출했고, 아무것도 저장하지 않았습니다.`;
}

/** Mounts the setup routes behind the service token; needs the database, clock, quota, token and GBIS options. */
export function gbisSetupRoutes({
  db,
  clock,
  serviceToken,
  dailyQuota = 1000,
  gbisSetup = DEMO,
  transit,
  parseDiscovery,
}: ApiContext) {
  const { feed, serviceKey, overrides } = gbisSetup;
  const requireGbis = () => {
    if (feed !== 'gbis') throw new HTTPException(409, { message: NOT_IN_USE });
  };
  const setup = async (): Promise<GbisSetup> => {
    const day = formatKstDate(clock.now());
    const stored = await loadGbisConfig(db);
    const effective = resolveTransitIds(stored?.value ?? null, overrides);
    return {
      feed,
      keyConfigured: Boolean(serviceKey),
      effective: configOf(effective),
      idsKnown: idsKnown(effective),
      stored: stored && { ...stored, updatedAt: stored.updatedAt.toISOString() },
      overrides,
      callsToday: await allCallsSpent(db, day),
      dailyQuota,
    };
  };
  return new Hono()
    .use(requireServiceToken(serviceToken))
    .use(async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    })
    .get('/', async (c) => c.json(await setup()))
    .post('/discover', async (c) => {
      requireGbis();
      if (!serviceKey) throw new HTTPException(409, { message: 'GBIS_SERVICE_KEY가 설정되지 않았습니다.' });
      const now = clock.now();
      const current = transit.current(); // the ids in use: what a save refreshed last
      const http = gbisHttp({ serviceKey, baseUrl: gbisSetup.baseUrl, timeoutMs: 10_000 });
      const result = await runDiscovery({ db, http, parse: parseDiscovery, current, dailyQuota, now });
      if (result.outcome === 'no-budget') {
        const { spent, needed } = result;
        throw new HTTPException(429, {
          message:
            `오늘의 GBIS 호출 한도(데이터셋마다 ${dailyQuota}번)로는 조회할 수 없습니다: 노선 ${spent.routes}번, ` +
            `정류소 ${spent.stations}번을 이미 썼거나 진행 중인 조회가 잡아 두었고, 조회에 노선 ${needed.routes}번, ` +
            `정류소 ${needed.stations}번이 필요합니다. 진행 중인 조회가 있다면 끝난 뒤 다시 시도해주세요.`,
        });
      }
      if (result.outcome === 'failed') {
        return c.json({ message: failureMessage(result.error, result.callsSpent) }, 502);
      }
      return c.json({ discovery: result.discovery, callsSpent: result.callsSpent });
    })
    .put('/', jsonBody(GbisConfigSchema), async (c) => {
      requireGbis();
      await saveGbisConfig(db, c.req.valid('json'), actorOf(c), clock.now());
      await transit.refresh();
      return c.json(await setup());
    });
}
