/**
 * The KakaoTalk skill's answers: each kind of question, the refusals, the fixture replayed exactly,
 * and its variables.
 */
import { eq } from 'drizzle-orm';
import { ApiErrorSchema } from '../../contract/bus';
import { SKILL_MAX_BODY_BYTES, SKILL_SECRET_HEADER } from '../../contract/skill';
import { fixture, skillApiFor, liveFeed, NOW, payload, SECRET } from '../../tests/setup/skill-api';
import { testDatabaseKinds } from '../../tests/setup/db';
import { ads } from '../db/schema';
import { parseApiEnv } from '../env';

describe.each(testDatabaseKinds)('chatbot skill api on %s', (kind) => {
  const { db, clock, setFeed, api, post, ask, text, chatbotAd, impressions } = skillApiFor(kind);

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
      setFeed(liveFeed(new Date(NOW.getTime() - 10 * 60_000), 'GBIS timeout'));
      expect(text(await ask(api(), payload('버스')))).toContain(
        '⚠️ 실시간 정보가 제때 갱신되지 않고 있어요 (10분 전 정보)',
      );
      clock().set('2026-11-24T01:00:00+09:00');
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
        predictions: {
          today: async () => broken(),
          todayNow: broken,
          observe: () => undefined,
          timetableChanges: broken,
        },
      });
      expect(text(await ask(app, payload('하행')))).toBe('학교에서 나가는 버스의 예상 출발 정보가 아직 없어요.');
      expect(text(await ask(app, payload('버스')))).toMatch(/^학교 가는 버스 · .+\n1150번 3분 후 · 2정거장 전/);
    });

    it('ignores what it does not read (bot, intent, contexts, detailParams, unknown fields)', async () => {
      const body = { ...payload('막차'), contexts: [{ name: 'x' }], flow: { trigger: { type: 'x' } }, extra: 1 };
      expect(text(await ask(api(), body))).toMatch(/^오늘 막차/);
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
      const ad = await chatbotAd(app, '캠퍼스 카페');
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

  it('replays tests/fixtures/skill/request.json into exactly tests/fixtures/skill/response.json', async () => {
    const app = api();
    const ad = await chatbotAd(app, '캠퍼스 카페', {
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
