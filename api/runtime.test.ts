import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealthResponseSchema, PredictionAccuracySchema, TimeLeftResponseSchema } from '../contract/bus';
import { groupRoutes } from '../contract/time-left-groups';
import { SKILL_SECRET_HEADER } from '../contract/skill';
import { recordingLogger } from '../tests/setup/fakes';
import { adCounts } from './ads/counters';
import { openDatabase } from './db/client';
import { ads } from './db/schema';
import { parseApiEnv } from './env';
import { createApiRuntime, HISTORY_WORK_WAIT_MS, OPENING_FAILED_MESSAGE, openApiRuntime } from './runtime';

// A spy that opens the database as usual unless a test holds the open (heldOpen).
vi.mock('./db/client', { spy: true });

const SECRET = 'r'.repeat(40);
const CLOCK_START = '2026-11-23T08:00:00+09:00';

/** Resolves after enough turns of the event loop for an answer that needs nothing else to arrive. */
async function manyTurns() {
  for (let turn = 0; turn < 200; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A promise and the function that resolves it: a gate the test opens. */
function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}

/** The next openDatabase waits for `until` (then opens), or fails with `failure`. */
async function holdOpen(until: Promise<void>, failure?: Error) {
  const { openDatabase: open } = await vi.importActual<typeof import('./db/client')>('./db/client');
  vi.mocked(openDatabase).mockImplementationOnce(async (options) => {
    await until;
    if (failure) throw failure;
    return open(options);
  });
}

describe('createApiRuntime', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-runtime-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("serves before the demo back-fill (timetable estimates), and history reads wait for it, which begins after the entry's first page", async () => {
    const runtime = await createApiRuntime(parseApiEnv({ DATA_DIR: dataDir, CLOCK_START }), recordingLogger());
    const firstPage = gate();
    try {
      // Not started: nothing back-filled yet, and the live view still answers, from the timetable.
      const timeLeft = TimeLeftResponseSchema.parse(await (await runtime.app.request('/api/bus/timeLeft')).json());
      const down = groupRoutes(timeLeft, 'down');
      expect(down.length).toBeGreaterThan(0);
      expect(down.every((route) => route.basis === 'timetable' && route.data.dayBefore === null)).toBe(true);
      let predicted: Response | null = null;
      const asking = Promise.resolve(runtime.app.request('/api/bus/predicted/all')).then((r) => (predicted = r));
      // Its history read waits for the back-fill (without the wait it answers within these turns).
      await manyTurns();
      expect(predicted).toBeNull();

      // Started, the back-fill still waits for the first page (ADR 025).
      await runtime.start(firstPage.passed);
      await manyTurns();
      expect(predicted).toBeNull();

      firstPage.open();
      await asking;
      expect(predicted!.status).toBe(200);
      // The day's plan is computed again in the background with the history (PLAN_REFRESH_MS or a new load).
      await vi.waitFor(async () => {
        const now = TimeLeftResponseSchema.parse(await (await runtime.app.request('/api/bus/timeLeft')).json());
        expect(groupRoutes(now, 'down').some((route) => route.data.dayBefore !== null)).toBe(true);
      });
    } finally {
      firstPage.open();
      await runtime.close();
    }
  }, 60_000);

  it(`begins the history's work ${HISTORY_WORK_WAIT_MS} ms after start when no page comes`, async () => {
    // No simulated days: the history's work is then the (empty) back-fill the reads wait for.
    const env = parseApiEnv({ DATA_DIR: dataDir, CLOCK_START, DEMO_HISTORY_DAYS: '0' });
    const runtime = await createApiRuntime(env, recordingLogger());
    try {
      let predicted: Response | null = null;
      const asking = Promise.resolve(runtime.app.request('/api/bus/predicted/all')).then((r) => (predicted = r));
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await runtime.start(new Promise<void>(() => undefined)); // no page ever
      vi.advanceTimersByTime(HISTORY_WORK_WAIT_MS - 1);
      await manyTurns();
      expect(predicted).toBeNull();

      vi.advanceTimersByTime(1);
      vi.useRealTimers();
      await asking;
      expect(predicted!.status).toBe(200);
    } finally {
      vi.useRealTimers();
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

describe('openApiRuntime', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-opening-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const request = (api: { fetch(request: Request): Promise<Response> }, path: string) =>
    api.fetch(new Request(`http://api.internal${path}`));

  it('answers its probes `starting` while the database opens (healthz 200, readyz 503), and holds every other request until it is open', async () => {
    const opening = gate();
    await holdOpen(opening.passed);
    const api = openApiRuntime(parseApiEnv({ DATA_DIR: dataDir, CLOCK_START }), recordingLogger());
    try {
      const probe = async (path: string) => {
        const response = await request(api, path);
        return { status: response.status, body: HealthResponseSchema.parse(await response.json()) };
      };
      const starting = {
        status: 'starting',
        feed: { source: 'demo', takenAt: null, ageSec: null, stale: false, inService: true, lastError: null },
      };
      expect(await probe('/api/healthz')).toEqual({ status: 200, body: starting });
      expect(await probe('/api/readyz')).toEqual({ status: 503, body: starting });
      let answered: Response | null = null;
      const asking = request(api, '/api/bus/timeLeft').then((response) => (answered = response));
      await manyTurns();
      expect(answered).toBeNull();

      opening.open();
      await api.ready;
      await asking;
      expect(answered!.status).toBe(200);
      expect(TimeLeftResponseSchema.parse(await answered!.json()).feed?.source).toBe('demo');
      expect(await probe('/api/readyz')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
    } finally {
      opening.open();
      await api.close();
    }
  }, 60_000);

  it('answers the requests it held 503 when the database fails to open, and rejects `ready` with the cause', async () => {
    const opening = gate();
    await holdOpen(opening.passed, new Error('the disk is gone'));
    const api = openApiRuntime(parseApiEnv({ DATA_DIR: dataDir, CLOCK_START }), recordingLogger());
    const held = request(api, '/api/bus/timeLeft');
    opening.open();
    const answer = await held;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ message: OPENING_FAILED_MESSAGE });
    await expect(api.ready).rejects.toThrow('the disk is gone');
    await expect(api.start()).rejects.toThrow('the disk is gone');
    await api.close(); // nothing was left open
  });
});
