/**
 * The KakaoTalk skill's api for api/routes/skill-*.test.ts: the skill secret, an Open Builder
 * request (tests/fixtures/skill/), a live feed at Monday 08:00 KST, and the api with its chatbot ad
 * rotation on a test database.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { mailOff } from '../../api/mail/outbox';
import { SKILL_SECRET_HEADER, SkillResponseSchema, type SkillResponse } from '../../contract/skill';
import { uploadImageThrough, validApplication } from './ads-api';
import { testApi } from './api';
import { testDatabaseFor, type TestDatabaseKind } from './db';
import { FakeClock, recordingLogger, snapshotAt } from './fakes';
import { tempLocalStore } from './storage';
import { adCounts } from '../../api/ads/counters';
import { approveApplication, createAdApplication } from '../../api/ads/applications';
import type { Api } from '../../api/app';
import type { ApiParts } from '../../api/compose';
import type { FeedState } from '../../api/bus/feed/store';
import { createChatbotAdService, type ChatbotAdService } from '../../api/skill/ads';

export const SECRET = 'k'.repeat(64);
export const BASE = 'https://bus.example.com';
// Monday 2026-11-23, 08:00 KST: in service, a weekday.
export const NOW = new Date('2026-11-23T08:00:00+09:00');

export const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/skill/${name}`, import.meta.url), 'utf8'));

/** An Open Builder SkillPayload as the bot sends it (tests/fixtures/skill/request.json) with `utterance` and `params`. */
export function payload(utterance: string, params: Record<string, string> = {}) {
  const request = structuredClone(fixture('request.json')) as {
    userRequest: { utterance: string };
    action: { params: Record<string, string> };
  };
  request.userRequest.utterance = utterance;
  request.action.params = params;
  return request;
}

/** The feed as a good poll left it at NOW: 1150 3 minutes (2 stops) away, 1117 1 minute (1 stop). */
export function liveFeed(takenAt = NOW, lastError: string | null = null): FeedState {
  const snapshot = snapshotAt(takenAt, [
    ['1150', 170, 2],
    ['1117', 20, 1],
  ]);
  return { source: 'gbis', snapshot, lastError, failingSince: null, nextPollAt: null };
}

/**
 * Registers, for the suite on `kind`, the file's test database (emptied before each test) and, made
 * afresh for each test, a store, a FakeClock at NOW, the live feed of NOW (`setFeed` changes it) and
 * a recording logger. Returns the helpers, read at each call: `api()` builds the api on them.
 */
export function skillApiFor(kind: TestDatabaseKind) {
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
  let rotation: ChatbotAdService;
  /** The api on the test's feed state, with `deps` over a fresh rotation and the secret. */
  const api = (
    options: { secret?: string; publicBaseUrl?: string } = { secret: SECRET, publicBaseUrl: BASE },
    deps: Partial<ApiParts> = {},
  ) => {
    rotation = createChatbotAdService({ db: db(), logger, publicBaseUrl: options.publicBaseUrl });
    return testApi({
      db: db(),
      storage: store,
      clock,
      logger,
      feed: { current: () => state, role: () => 'leader' },
      skillSecret: options.secret,
      chatbotAds: rotation,
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

  /** An approved chatbot ad (its image uploaded through the api), paid from NOW for one month. */
  async function chatbotAd(app: Api, title: string, fields: { redirectUrl?: string; content?: string } = {}) {
    const { imageUrl } = await uploadImageThrough(app, 'kakao');
    const application = validApplication('kakao', imageUrl, { title, content: `${title}의 광고 메시지`, ...fields });
    const created = await createAdApplication(db(), application, clock.now(), mailOff);
    const ad = await approveApplication(db(), 'kakao', created!.id, 'test', clock.now(), mailOff);
    return ad!;
  }
  const stored = async (id: number) => (await adCounts(db(), id)).reduce((sum, day) => sum + day.impressions, 0);
  /** Ad `id`'s stored impressions once the rotation has written what it counted. */
  const impressions = async (id: number) => {
    await rotation.flush();
    return stored(id);
  };
  /** Makes `next` the feed the api reads from here on. */
  const setFeed = (next: FeedState) => {
    state = next;
  };

  return {
    db,
    clock: () => clock,
    logger: () => logger,
    rotation: () => rotation,
    setFeed,
    api,
    post,
    ask,
    text,
    card,
    flakyDb,
    chatbotAd,
    stored,
    impressions,
  };
}
