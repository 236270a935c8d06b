import { HealthResponseSchema, TimeLeftResponseSchema } from '../contract/bus';
import { API_MAX_BODY_BYTES } from './app';
import { STALE_GRACE_SEC } from './bus/time-left-view';
import type { BusFeed } from './bus/feed/service';
import { Poller } from './bus/feed/poller';
import type { Database } from './db/client';
import { FakeClock, FeedError, ScriptedSource, recordingLogger, snapshotAt, pollerFeed } from '../tests/setup/fakes';
import { createTestDatabase, testDatabaseFor, testDatabaseKinds } from '../tests/setup/db';
import { tempLocalStore } from '../tests/setup/storage';
import { testApi } from '../tests/setup/api';
import { groupRoutes } from '../contract/time-left-groups';

describe.each(testDatabaseKinds)('Campus Bus API on %s', (kind) => {
  let database: Database;
  let poller: Poller;
  let feed: BusFeed;
  let source: ScriptedSource;
  let clock: FakeClock;
  const sharedDatabase = testDatabaseFor(kind);

  beforeEach(async () => {
    database = sharedDatabase();
    clock = new FakeClock(new Date('2026-11-23T08:00:00+09:00'));
    source = new ScriptedSource();
    source.answer((now) =>
      snapshotAt(now, [
        ['1150', 300, 3],
        ['1303', 1200, 15],
      ]),
    );
    ({ poller, feed } = pollerFeed({ source, db: database.db, clock }));
    await poller.pollOnce();
  });

  it('GET /api/bus/timeLeft answers the spec shape from the latest snapshot', async () => {
    const app = testApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    clock.advance(60);
    const response = await app.request('/api/bus/timeLeft');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = TimeLeftResponseSchema.parse(await response.json());
    expect(groupRoutes(body, 'up').map((r) => [r.routeNo, r.time, r.location])).toEqual([
      ['1150', 4, 3],
      ['1303', 19, 15],
    ]);
    expect(body.feed).toMatchObject({ source: 'gbis', ageSec: 60, stale: false });
  });

  it('GET /api/healthz reports degraded with the error while polls fail, and the data as stale', async () => {
    source.fail(new FeedError('portal', 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR (22)'));
    clock.advance(300);
    await poller.pollOnce();
    const app = testApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    const health = HealthResponseSchema.parse(await (await app.request('/api/healthz')).json());
    expect(health.status).toBe('degraded');
    expect(health.feed.lastError).toMatch(/^portal: LIMITED_NUMBER/);
    const body = TimeLeftResponseSchema.parse(await (await app.request('/api/bus/timeLeft')).json());
    expect(body.feed).toMatchObject({ stale: true, ageSec: 300 });
    expect(groupRoutes(body, 'up')[0].routeNo).toBe('1150');
  });

  it('GET /api/healthz reports degraded when the poller has stopped (no error, the planned poll long past)', async () => {
    const app = testApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    const health = async () => HealthResponseSchema.parse(await (await app.request('/api/healthz')).json());
    expect((await health()).status).toBe('ok');
    clock.set(new Date(feed.current().nextPollAt!.getTime() + (STALE_GRACE_SEC + 1) * 1000));
    const dead = await health();
    expect(dead).toMatchObject({ status: 'degraded', feed: { stale: true, lastError: null } });
  });

  it('GET /api/readyz answers 200 while the database answers, and 503 unavailable when it does not', async () => {
    // A database of its own: this test closes it.
    const closing = await createTestDatabase(kind);
    const app = testApi({ db: closing.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    const ready = await app.request('/api/readyz');
    expect(ready.status).toBe(200);
    expect(HealthResponseSchema.parse(await ready.json())).toMatchObject({ status: 'ok', database: 'ok' });
    await closing.close();
    const down = await app.request('/api/readyz');
    expect(down.status).toBe(503);
    expect(HealthResponseSchema.parse(await down.json())).toMatchObject({
      status: 'unavailable',
      database: 'unreachable',
    });
    // Liveness does not touch the database: the process answers.
    expect((await app.request('/api/healthz')).status).toBe(200);
  });

  it('caps every request body at 64 KB, by its length or as it streams, before any route reads it', async () => {
    const app = testApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    const json = { 'Content-Type': 'application/json', 'X-Forwarded-For': '192.0.2.9' };
    const over = JSON.stringify({ content: 'x'.repeat(API_MAX_BODY_BYTES) });
    const declared = await app.request('/api/inquiries', { method: 'POST', headers: json, body: over });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ message: 'Request body over 65536 bytes' });
    // No Content-Length: counted while reading.
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i += 1) controller.enqueue(new TextEncoder().encode('y'.repeat(16 * 1024)));
        controller.close();
      },
    });
    const chunked = await app.request('/api/admin/login', {
      method: 'POST',
      headers: json,
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    // Within the cap, the route answers as usual (here: the inquiry is taken).
    const within = await app.request('/api/inquiries', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ content: '64 KB 안의 문의' }),
    });
    expect(within.status).toBe(201);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const app = testApi({ db: database.db, storage: tempLocalStore(), feed, clock, logger: recordingLogger() });
    const response = await app.request('/api/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not found' });
  });
});
