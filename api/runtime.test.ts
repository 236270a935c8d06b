import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PredictionAccuracySchema, TimeLeftResponseSchema } from '../contract/bus';
import { groupRoutes } from '../contract/time-left-groups';
import { SKILL_SECRET_HEADER } from '../contract/kakao';
import { recordingLogger } from '../tests/setup/fakes';
import { adCounts } from './ads/counters';
import { openDatabase } from './db/client';
import { ads } from './db/schema';
import { parseApiEnv } from './env';
import { createApiRuntime } from './runtime';

const SECRET = 'r'.repeat(40);

describe('createApiRuntime', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-runtime-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves before the demo back-fill (timetable estimates), and history reads wait for it', async () => {
    const runtime = await createApiRuntime(
      parseApiEnv({ DATA_DIR: dataDir, CLOCK_START: '2026-11-23T08:00:00+09:00' }),
      recordingLogger(),
    );
    try {
      // Not started: nothing back-filled yet, and the live view still answers, from the timetable.
      const timeLeft = TimeLeftResponseSchema.parse(await (await runtime.app.request('/api/bus/timeLeft')).json());
      const down = groupRoutes(timeLeft, 'down');
      expect(down.length).toBeGreaterThan(0);
      expect(down.every((route) => route.basis === 'timetable' && route.data.dayBefore === null)).toBe(true);
      let predicted: Response | null = null;
      const asking = Promise.resolve(runtime.app.request('/api/bus/predicted/all')).then((r) => (predicted = r));
      // Its history read waits for the back-fill (without the wait it answers within these turns).
      for (let turn = 0; turn < 200; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(predicted).toBeNull();

      await runtime.start();
      await asking;
      expect(predicted!.status).toBe(200);
      // The day's plan is computed again in the background with the history (PLAN_REFRESH_MS or a new load).
      await vi.waitFor(async () => {
        const now = TimeLeftResponseSchema.parse(await (await runtime.app.request('/api/bus/timeLeft')).json());
        expect(groupRoutes(now, 'down').some((route) => route.data.dayBefore !== null)).toBe(true);
      });
    } finally {
      await runtime.close();
    }
  }, 60_000);

  it("stores the day's accuracy figure by itself once the demo history is back-filled, before anyone asks", async () => {
    const env = parseApiEnv({ DATA_DIR: dataDir, CLOCK_START: '2026-11-23T08:00:00+09:00' });
    const runtime = await createApiRuntime(env, recordingLogger());
    try {
      await runtime.start();
      // The lease holder (PGlite: this instance) computes it after start and stores it; no request here.
      const stored = await vi.waitFor(
        async () => {
          const body = PredictionAccuracySchema.parse(await (await runtime.app.request('/api/bus/accuracy')).json());
          expect(body.computedAt).not.toBeNull();
          return body;
        },
        // The demo's 17 days of backtest take ~15 s alone, twice that beside other test files.
        { timeout: 90_000, interval: 200 },
      );
      expect(stored).toMatchObject({
        source: 'demo',
        window: { days: 14, firstDate: '2026-11-09', lastDate: '2026-11-22' },
      });
      expect(stored.estimate.maeSec).toBeGreaterThan(0);
    } finally {
      await runtime.close();
    }
  }, 120_000);

  it('writes the chatbot impressions it counted when it closes (ADR 012)', async () => {
    const seeding = await openDatabase({ dataDir });
    const [ad] = await seeding.db
      .insert(ads)
      .values({
        type: 'kakao',
        title: '캠퍼스 카페',
        content: '광고 메시지',
        imageUrl: 'https://cdn.example.com/kakao.png',
        position: 0,
        startsAt: new Date('2026-11-01T00:00:00+09:00'),
        endsAt: new Date('2027-01-01T00:00:00+09:00'),
        createdAt: new Date('2026-11-01T00:00:00+09:00'),
        updatedAt: new Date('2026-11-01T00:00:00+09:00'),
      })
      .returning();
    await seeding.close();

    const runtime = await createApiRuntime(
      parseApiEnv({ DATA_DIR: dataDir, CLOCK_START: '2026-11-23T08:00:00+09:00', KAKAO_SKILL_SECRET: SECRET }),
      recordingLogger(),
    );
    for (const utterance of ['버스', '막차']) {
      const response = await runtime.app.request('/api/kakao/skill', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [SKILL_SECRET_HEADER]: SECRET },
        body: JSON.stringify({ userRequest: { utterance }, action: { params: {} } }),
      });
      expect(await response.text()).toContain('"basicCard"');
    }
    await runtime.close();

    const reopened = await openDatabase({ dataDir });
    try {
      expect(await adCounts(reopened.db, ad.id)).toEqual([{ day: '2026-11-23', impressions: 2, clicks: 0 }]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
