import { readFileSync } from 'node:fs';
import { mailOff } from '../mail/outbox';
import { eq } from 'drizzle-orm';
import { ApiErrorSchema } from '../../contract/bus';
import {
  SKILL_MAX_BODY_BYTES,
  SKILL_SECRET_HEADER,
  SkillResponseSchema,
  type SkillResponse,
} from '../../contract/kakao';
import { testApi } from '../../tests/setup/api';
import { uploadImageThrough, validApplication } from '../../tests/setup/ads-api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger, snapshotAt } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import { adCounts } from '../ads/counters';
import { saveAds } from '../ads/managed';
import { approveRequest, createAdRequest } from '../ads/requests';
import type { Api } from '../app';
import type { ApiParts } from '../compose';
import type { FeedState } from '../bus/feed/store';
import { ads } from '../db/schema';
import { parseApiEnv } from '../env';
import { AD_BUTTON_LABEL, createKakaoAdService, KAKAO_ADS_CACHE_MS, type KakaoAdService } from '../kakao/ads';

const SECRET = 'k'.repeat(64);
const BASE = 'https://bus.example.com';
// Monday 2026-11-23, 08:00 KST: in service, a weekday.
const NOW = new Date('2026-11-23T08:00:00+09:00');

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/kakao/${name}`, import.meta.url), 'utf8'));

/** An Open Builder SkillPayload as the bot sends it (tests/fixtures/kakao/request.json) with `utterance` and `params`. */
function payload(utterance: string, params: Record<string, string> = {}) {
  const request = structuredClone(fixture('request.json')) as {
    userRequest: { utterance: string };
    action: { params: Record<string, string> };
  };
  request.userRequest.utterance = utterance;
  request.action.params = params;
  return request;
}

/** The feed as a good poll left it at NOW: 1150 3 minutes (2 stops) away, 1117 1 minute (1 stop). */
function liveFeed(takenAt = NOW, lastError: string | null = null): FeedState {
  const snapshot = snapshotAt(takenAt, [
    ['1150', 170, 2],
    ['1117', 20, 1],
  ]);
  return { source: 'gbis', snapshot, lastError, failingSince: null, nextPollAt: null };
}

describe.each(testDatabaseKinds)('kakao skill api on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let state: FeedState;
  let logger: ReturnType<typeof recordingLogger>;

  beforeEach(() => {
    store = tempLocalStore();
    clock = new FakeClock(NOW);
    state = liveFeed();
    logger = recordingLogger();
  });
  afterEach(() => store.remove());

  // The ad rotation of the api last built, whose impressions `impressions` flushes before reading.
  let rotation: KakaoAdService;
  /** The api on the test's feed state, with `deps` over a fresh rotation and the secret. */
  const api = (
    options: { secret?: string; publicBaseUrl?: string } = { secret: SECRET, publicBaseUrl: BASE },
    deps: Partial<ApiParts> = {},
  ) => {
    rotation = createKakaoAdService({ db: db(), logger, publicBaseUrl: options.publicBaseUrl });
    return testApi({
      db: db(),
      storage: store,
      clock,
      logger,
      feed: { current: () => state, role: () => 'leader' },
      kakaoSkillSecret: options.secret,
      kakaoAds: rotation,
      ...deps,
    });
  };

  const post = (app: Api, body: string | object, headers: Record<string, string> = { [SKILL_SECRET_HEADER]: SECRET }) =>
    app.request('/api/kakao/skill', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  /** The skill's answer to `body`, asserted 200 and parsed by SkillResponseSchema. */
  async function ask(app: Api, body: object): Promise<SkillResponse> {
    const response = await post(app, body);
    expect(response.status, await response.clone().text()).toBe(200);
    return SkillResponseSchema.parse(await response.json());
  }
  const text = (answer: SkillResponse) => {
    const [first] = answer.template.outputs;
    return 'simpleText' in first ? first.simpleText.text : '';
  };
  const card = (answer: SkillResponse) => {
    const second = answer.template.outputs[1];
    return second && 'basicCard' in second ? second.basicCard : null;
  };

  /** db() whose `method` throws `message` while `failure.on` (a read-only failover, a dropped connection). */
  function flakyDb(method: 'insert' | 'select', message: string) {
    const failure = { on: true };
    const flaky = new Proxy(db(), {
      get: (target, key, receiver) =>
        key === method && failure.on
          ? () => {
              throw new Error(message);
            }
          : Reflect.get(target, key, receiver),
    });
    return { db: flaky, failure };
  }

  /** An approved kakao ad (its image uploaded through the api), paid from NOW for one month. */
  async function kakaoAd(app: Api, title: string, fields: { redirectUrl?: string; content?: string } = {}) {
    const { imageUrl } = await uploadImageThrough(app, 'kakao');
    const application = validApplication('kakao', imageUrl, { title, content: `${title}의 광고 메시지`, ...fields });
    const request = await createAdRequest(db(), application, clock.now(), mailOff);
    const ad = await approveRequest(db(), 'kakao', request!.id, 'test', clock.now(), mailOff);
    return ad!;
  }
  const stored = async (id: number) => (await adCounts(db(), id)).reduce((sum, day) => sum + day.impressions, 0);
  /** Ad `id`'s stored impressions once the rotation has written what it counted. */
  const impressions = async (id: number) => {
    await rotation.flush();
    return stored(id);
  };

  describe('answers each kind of question with a valid SkillResponse', () => {
    it.each([
      ['버스', '학교 가는 버스 · 외대사거리 도착\n1150번 3분 후 · 2정거장 전\n1117번 1분 후 · 1정거장 전'],
      ['학교 가는 버스', '학교 가는 버스 · 외대사거리 도착'],
      ['상행', '학교 가는 버스 · 외대사거리 도착'],
      ['하행', '학교에서 나가는 버스 · 다음 출발 예정\n1150번 '],
      ['나가는 버스', '학교에서 나가는 버스 · 다음 출발 예정'],
      ['출발', '학교에서 나가는 버스 · 다음 출발 예정'],
      ['1150', '1150번\n학교 가는 버스: 3분 후 · 2정거장 전\n오늘 남은 출발 예정 '],
      ['1150번', '1150번\n'],
      ['１１１７번 시간표', '1117번\n학교 가는 버스: 1분 후 · 1정거장 전'],
      ['시간표', '오늘 학교에서 출발 예정\n1150번 '],
      ['막차', '오늘 막차 · 학교 출발 (평일)\n1150번 23:30\n1117번 23:40\n1303번 22:50\n1005번 23:50'],
      ['뭐라고?', '외대 버스 챗봇이에요. 이렇게 물어보세요.'],
    ])('%j', async (utterance, start) => {
      const answer = await ask(api(), payload(utterance));
      expect(text(answer).startsWith(start), text(answer)).toBe(true);
      expect(answer.template.quickReplies!.length).toBeGreaterThan(0);
      expect(answer.template.outputs).toHaveLength(1); // no ad approved
    });

    it("uses the block's action.params over the utterance", async () => {
      expect(text(await ask(api(), payload('버스', { routeNo: '1303' })))).toMatch(/^1303번\n/);
      expect(text(await ask(api(), payload('버스', { direction: '하행' })))).toMatch(/^학교에서 나가는 버스/);
    });

    it('says a stale snapshot is stale, and outside service hours when service starts', async () => {
      state = liveFeed(new Date(NOW.getTime() - 10 * 60_000), 'GBIS timeout');
      expect(text(await ask(api(), payload('버스')))).toContain(
        '⚠️ 실시간 정보가 제때 갱신되지 않고 있어요 (10분 전 정보)',
      );
      clock.set('2026-11-24T01:00:00+09:00');
      expect(
        text(await ask(api(), payload('버스')))
          .split('\n')
          .slice(0, 2),
      ).toEqual(['지금은 버스 운행 시간이 아니에요.', '첫차는 05:10에 학교에서 출발해요 (4시간 10분 후).']);
    });

    it('still answers when the predictions fail: up from the feed, down says there is no estimate yet', async () => {
      const broken = (): never => {
        throw new Error('a bug in the plan');
      };
      const app = api(undefined, {
        predictions: { today: async () => broken(), todayNow: broken, observe: () => undefined },
      });
      expect(text(await ask(app, payload('하행')))).toBe('학교에서 나가는 버스의 예상 출발 정보가 아직 없어요.');
      expect(text(await ask(app, payload('버스')))).toMatch(/^학교 가는 버스 · .+\n1150번 3분 후 · 2정거장 전/);
    });

    it('ignores what it does not read (bot, intent, contexts, detailParams, unknown fields)', async () => {
      const body = { ...payload('막차'), contexts: [{ name: 'x' }], flow: { trigger: { type: 'x' } }, extra: 1 };
      expect(text(await ask(api(), body))).toMatch(/^오늘 막차/);
    });
  });

  describe('the chatbot ad card', () => {
    it('shows the approved in-period kakao ads in turn, in the admins’ order, counting one impression each', async () => {
      const app = api();
      const first = await kakaoAd(app, '캠퍼스 카페', { redirectUrl: 'https://cafe.example.com/menu' });
      const second = await kakaoAd(app, '모현 서점'); // no link
      const seen: (string | undefined)[] = [];
      for (let i = 0; i < 3; i += 1) seen.push(card(await ask(app, payload('버스')))?.title);
      expect(seen).toEqual(['캠퍼스 카페', '모현 서점', '캠퍼스 카페']);
      expect(await impressions(first.id)).toBe(2);
      expect(await impressions(second.id)).toBe(1);

      const shown = card(await ask(app, payload('막차')));
      expect(shown).toEqual({
        title: '모현 서점',
        description: '모현 서점의 광고 메시지',
        thumbnail: { imageUrl: `${BASE}${second.imageUrl}`, altText: '모현 서점', fixedRatio: false },
      });
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      const linked = card(await ask(app, payload('막차')));
      expect(linked?.buttons).toEqual([
        { action: 'webLink', label: AD_BUTTON_LABEL, webLinkUrl: `${BASE}/ads/click/${first.id}` },
      ]);

      // The admins put 모현 서점 first (the bulk save): once the list is read again, the turn follows it.
      const edits = [second, first].map(({ id, title, redirectUrl, imageUrl }) => ({
        id,
        title,
        redirectUrl,
        imageUrl,
      }));
      expect(await saveAds(db(), 'kakao', edits, 'test', clock.now())).toEqual({ edited: 0, reordered: true });
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await rotation.refresh(clock.now());
      const after: (string | undefined)[] = [];
      for (let i = 0; i < 4; i += 1) after.push(card(await ask(app, payload('버스')))?.title);
      expect(after).toEqual(['캠퍼스 카페', '모현 서점', '캠퍼스 카페', '모현 서점']);
    });

    it('makes each card once per list read, so that the answers carrying it can be shared', async () => {
      const app = api();
      await kakaoAd(app, '캠퍼스 카페');
      const first = await rotation.next(clock.now());
      clock.advance(1);
      expect(await rotation.next(clock.now())).toBe(first);
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await rotation.refresh(clock.now());
      const reread = await rotation.next(clock.now());
      expect(reread).not.toBe(first);
      expect(reread).toEqual(first);
    });

    it('writes the counted impressions at a flush, per ad and KST day, keeping them while writing fails', async () => {
      const app = api();
      const ad = await kakaoAd(app, '캠퍼스 카페');
      await ask(app, payload('버스'));
      await ask(app, payload('막차'));
      expect(await stored(ad.id)).toBe(0);
      await rotation.flush();
      clock.advance(16 * 3600); // Tuesday 00:00 KST: the next KST day's row
      await ask(app, payload('버스'));
      await rotation.flush();
      await rotation.flush(); // nothing new: nothing added
      expect(await adCounts(db(), ad.id)).toEqual([
        { day: '2026-11-23', impressions: 2, clicks: 0 },
        { day: '2026-11-24', impressions: 1, clicks: 0 },
      ]);

      // A database that refuses writes (a read-only failover): the counts wait for the next flush.
      const flaky = flakyDb('insert', 'cannot execute INSERT in a read-only transaction');
      const failing = createKakaoAdService({ db: flaky.db, logger, publicBaseUrl: BASE });
      await failing.next(clock.now());
      await failing.next(clock.now());
      await failing.flush();
      expect(logger.lines.filter((line) => line.includes('could not write some chatbot ad impressions'))).toHaveLength(
        1,
      );
      flaky.failure.on = false;
      await failing.next(clock.now());
      await failing.flush();
      expect(await adCounts(db(), ad.id)).toEqual([
        { day: '2026-11-23', impressions: 2, clicks: 0 },
        { day: '2026-11-24', impressions: 4, clicks: 0 },
      ]);

      // An ad deleted before the flush counts nothing, and the flush does not fail.
      await ask(app, payload('버스'));
      await db().delete(ads).where(eq(ads.id, ad.id));
      await rotation.flush();
      expect(await stored(ad.id)).toBe(0);
      expect(logger.lines.filter((line) => line.includes('could not write'))).toHaveLength(1);
    });

    it('answers whatever the ad list’s database does: without a card before any list, else with the last list read', async () => {
      const setup = api();
      await kakaoAd(setup, '캠퍼스 카페');
      const flaky = flakyDb('select', 'connection terminated unexpectedly');
      const failing = createKakaoAdService({ db: flaky.db, logger, publicBaseUrl: BASE });
      const app = api(undefined, { kakaoAds: failing });
      const failures = () => logger.lines.filter((line) => line.includes('could not read the chatbot ads')).length;

      const first = await ask(app, payload('버스'));
      expect(text(first)).toMatch(/^학교 가는 버스/);
      expect(card(first)).toBeNull();
      expect(failures()).toBe(1);

      flaky.failure.on = false;
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await failing.refresh(clock.now());
      expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');

      // A later read fails: the answers keep the last list read.
      flaky.failure.on = true;
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await failing.refresh(clock.now());
      expect(failures()).toBe(2);
      for (let i = 0; i < 2; i += 1) expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');
      // Logged once per run of failed reads, not once per read.
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await failing.refresh(clock.now());
      expect(failures()).toBe(2);
    });

    it('shows no card for a web ad, an ad past its period, or without PUBLIC_BASE_URL for an image path; logs it once', async () => {
      const app = api();
      const { imageUrl } = await uploadImageThrough(app, 'web');
      const web = await createAdRequest(db(), validApplication('web', imageUrl, { title: '웹 배너' }), NOW, mailOff);
      await approveRequest(db(), 'web', web!.id, 'test', NOW, mailOff);
      const pending = await uploadImageThrough(app, 'kakao');
      await createAdRequest(
        db(),
        validApplication('kakao', pending.imageUrl, { title: '심사 중', content: '아직 승인 전' }),
        NOW,
        mailOff,
      );
      for (let i = 0; i < 3; i += 1) expect(card(await ask(app, payload('버스')))).toBeNull();
      expect(logger.lines.filter((line) => line.includes('[kakao] no chatbot ad card'))).toHaveLength(1);

      const ad = await kakaoAd(app, '캠퍼스 카페');
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await rotation.refresh(clock.now());
      expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');
      // Past its paid period (1 month = 30 days), even inside the cache's window.
      await db()
        .update(ads)
        .set({ endsAt: new Date(clock.now().getTime() + KAKAO_ADS_CACHE_MS + 1000) })
        .where(eq(ads.id, ad.id));
      clock.advance(KAKAO_ADS_CACHE_MS / 1000);
      await rotation.refresh(clock.now());
      expect(card(await ask(app, payload('버스')))?.title).toBe('캠퍼스 카페');
      clock.advance(2);
      expect(card(await ask(app, payload('버스')))).toBeNull();
      expect(await impressions(ad.id)).toBe(2);

      const noBase = api({ secret: SECRET });
      await db()
        .update(ads)
        .set({ endsAt: new Date(NOW.getTime() + 86_400_000 * 30) })
        .where(eq(ads.id, ad.id));
      expect(card(await ask(noBase, payload('버스')))).toBeNull();
      await db().update(ads).set({ imageUrl: 'https://cdn.example.com/kakao.png' }).where(eq(ads.id, ad.id));
      const cdn = api({ secret: SECRET });
      expect(card(await ask(cdn, payload('버스')))?.thumbnail).toEqual({
        imageUrl: 'https://cdn.example.com/kakao.png',
        altText: '캠퍼스 카페',
        fixedRatio: false,
      });
    });
  });

  describe('refusals', () => {
    it('answers 503 with no secret configured', async () => {
      const response = await post(api({}), payload('버스'));
      expect(response.status).toBe(503);
      expect(ApiErrorSchema.parse(await response.json()).message).toMatch(/KAKAO_SKILL_SECRET/);
    });

    it.each([
      ['missing', {}],
      ['wrong', { [SKILL_SECRET_HEADER]: `${SECRET}x` }],
      ['truncated', { [SKILL_SECRET_HEADER]: SECRET.slice(0, -1) }],
      ['empty', { [SKILL_SECRET_HEADER]: '' }],
      ['misplaced', { Authorization: `Bearer ${SECRET}` }],
    ])('answers 401 and no data with a %s secret', async (_, headers) => {
      const app = api();
      const ad = await kakaoAd(app, '캠퍼스 카페');
      const response = await post(app, payload('버스'), headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
      expect(await impressions(ad.id)).toBe(0);
    });

    it('answers 429 after 20 wrong secrets from one client in 15 minutes, yet never holds back the right one', async () => {
      const app = api();
      const from = (ip: string, secret: string) =>
        post(app, payload('버스'), { [SKILL_SECRET_HEADER]: secret, 'X-Forwarded-For': ip });
      for (let i = 0; i < 20; i += 1) expect((await from('198.51.100.9', 'guess')).status).toBe(401);
      const limited = await from('198.51.100.9', 'guess');
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ message: 'Too many requests; try again later' });
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect((await from('198.51.100.9', SECRET)).status).toBe(200); // Open Builder's own call
      expect((await from('198.51.100.10', 'guess')).status).toBe(401); // another client
      for (let i = 0; i < 30; i += 1) expect((await from('198.51.100.11', SECRET)).status).toBe(200);
    });

    it.each([
      ['not JSON', '{"userRequest": '],
      ['an empty body', ''],
      ['JSON that is no SkillPayload', JSON.stringify({ hello: 'world' })],
      ['an utterance that is no string', JSON.stringify({ userRequest: { utterance: 3 } })],
      ['params that are no strings', JSON.stringify({ ...payload('버스'), action: { params: { routeNo: 1150 } } })],
    ])('answers 400 { message } for %s', async (_, body) => {
      const response = await post(api(), body);
      expect(response.status).toBe(400);
      expect(ApiErrorSchema.parse(await response.json()).message).not.toBe('');
    });

    it('answers 413 for a body over 64 KB', async () => {
      const body = JSON.stringify({ ...payload('버스'), padding: 'x'.repeat(SKILL_MAX_BODY_BYTES) });
      const response = await post(api(), body);
      expect(response.status).toBe(413);
      expect(ApiErrorSchema.parse(await response.json()).message).toMatch(/65536/);
    });
  });

  it('replays tests/fixtures/kakao/request.json into exactly tests/fixtures/kakao/response.json', async () => {
    const app = api();
    const ad = await kakaoAd(app, '캠퍼스 카페', {
      redirectUrl: 'https://cafe.example.com/menu',
      content: '외대생 아메리카노 1,000원 할인! 학생증을 보여주세요.',
    });
    // A fixed image path, as an upload's is random.
    await db()
      .update(ads)
      .set({ imageUrl: '/images/kakao-3f1c2a9e-5b7d-4c8e-9a0b-1d2e3f4a5b6c.png' })
      .where(eq(ads.id, ad.id));
    const response = await post(app, fixture('request.json') as object);
    expect(response.status).toBe(200);
    expect(await response.json()).toStrictEqual(fixture('response.json'));
  });
});

describe("parseApiEnv: the skill's variables", () => {
  it('reads KAKAO_SKILL_SECRET (≥ 32 characters) and PUBLIC_BASE_URL (https, no trailing slash)', () => {
    const env = parseApiEnv({ KAKAO_SKILL_SECRET: SECRET, PUBLIC_BASE_URL: 'https://bus.example.com/' });
    expect(env).toMatchObject({ KAKAO_SKILL_SECRET: SECRET, PUBLIC_BASE_URL: 'https://bus.example.com' });
    expect(parseApiEnv({ KAKAO_SKILL_SECRET: ' ', PUBLIC_BASE_URL: '' })).toMatchObject({
      KAKAO_SKILL_SECRET: undefined,
      PUBLIC_BASE_URL: undefined,
    });
  });

  it('refuses a short secret and a non-https base URL, naming the variable', () => {
    expect(() => parseApiEnv({ KAKAO_SKILL_SECRET: 'short' })).toThrow(/KAKAO_SKILL_SECRET: use at least 32/);
    expect(() => parseApiEnv({ PUBLIC_BASE_URL: 'http://bus.example.com' })).toThrow(
      /PUBLIC_BASE_URL: must be an https URL/,
    );
  });
});
