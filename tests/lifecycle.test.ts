/**
 * The entries as processes (built: `npm run build`, which `npm test` runs first): the api
 * starts polling only once it listens, a start-up failure exits with its cause and spends no GBIS
 * call, one process owns a PGlite data directory and a restart after a crash takes it over at once,
 * and SIGTERM closes the listener first (new connections refused, not reset: docs/deploy.md
 * §Stopping), lets the requests in flight finish, and under load (keep-alive connections kept busy)
 * exits 0 within 10 s with every call counted and the database closed.
 */
import autocannon from 'autocannon';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callsSpent } from '../api/bus/feed/store';
import { openDatabase } from '../api/db/client';
import { SHUTDOWN_LIMIT_MS } from '../lib/lifecycle';
import { gbisStubEnv, startGbisStub, type GbisStub } from './mocks/gbis-stub';
import { freePort, runEntry, type EntryProcess } from './setup/process';
import { answer, idleKeepAliveSocket, newConnection } from './setup/sockets';

const CLOCK_START = '2026-11-23T08:00:00+09:00';

describe('the entries as processes', () => {
  let stub: GbisStub;
  let dataDir: string;
  const running: EntryProcess[] = [];
  beforeEach(async () => {
    stub = await startGbisStub();
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-lifecycle-'));
  });
  afterEach(async () => {
    for (const entry of running.splice(0)) {
      if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
    }
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const serverEnv = () => ({ ...gbisStubEnv(stub), DATA_DIR: dataDir, CLOCK_START, API_SERVICE_TOKEN: 't'.repeat(40) });
  const start = (port: number, entry = 'build/api.js', portVar = 'API_PORT') => {
    const process = runEntry(entry, { ...serverEnv(), [portVar]: String(port) });
    running.push(process);
    return process;
  };
  const calls = async () => {
    const database = await openDatabase({ dataDir });
    try {
      return await callsSpent(database.db, '2026-11-23');
    } finally {
      await database.close();
    }
  };

  it('stops with the cause when its port is in use, before any GBIS call', async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, resolve));
    try {
      const api = start(port);
      const exit = await api.exited();
      expect(exit.code).toBe(1);
      expect(api.output()).toContain(`[api] cannot listen on port ${port}: the port is in use`);
      expect(stub.calls()).toHaveLength(0);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('starts at once on the DATA_DIR of a process killed with SIGKILL, naming the dead pid', async () => {
    // It listens while its database opens (ADR 025): the open database is what holds DATA_DIR.
    const opened = /\[db\] PGlite under DATA_DIR .* open and migrated in \d+ ms\./;
    const startedAt = Date.now();
    const first = start(await freePort());
    await first.waitFor(opened);
    const firstStartMs = Date.now() - startedAt;
    first.child.kill('SIGKILL');
    await first.exited();
    // Its lock stays fresh however slow the next start is (a start under tsx on a busy machine can
    // outlast the 10 s staleness): only the takeover of a dead owner's lock lets it in.
    const future = Date.now() / 1000 + 120;
    utimesSync(join(dataDir, 'owner.lock'), future, future);

    const restartedAt = Date.now();
    const second = start(await freePort());
    await second.waitFor(opened);
    const restartMs = Date.now() - restartedAt;
    expect(second.output()).toContain(
      `[db] DATA_DIR ${dataDir} was held by pid ${first.child.pid}, which is no longer running: taking it over.`,
    );
    // What a first start takes, plus slack for a busy machine.
    expect(restartMs).toBeLessThan(firstStartMs + 5_000);
  }, 90_000);

  it('refuses a second process on its DATA_DIR, naming the first one’s pid; the first keeps serving, read-only CLIs through it', async () => {
    const first = start(await freePort());
    await first.waitFor(/\[api\] listening on http:\/\/localhost:(\d+)/);
    const port = Number(/localhost:(\d+)/.exec(first.output())![1]);
    const second = start(await freePort());
    const exit = await second.exited();
    expect(exit.code).toBe(1);
    expect(second.output()).toContain(
      `[api] cannot start: DATA_DIR ${dataDir} is in use by another process (pid ${first.child.pid})`,
    );
    expect(second.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
    const health = await fetch(`http://127.0.0.1:${port}/api/healthz`);
    expect(health.status).toBe(200);

    // A CLI that only reads works meanwhile: the backtest asks the running server.
    const backtest = runEntry('build/backtest.js', serverEnv(), ['--days', '7']);
    const done = await backtest.exited();
    expect(done.code, backtest.output()).toBe(0);
    expect(backtest.output()).toContain(
      `DATA_DIR is held by the running server (pid ${first.child.pid}): asking it (its own cadence).`,
    );
    // The server's report (a new GBIS feed has no departures yet).
    expect(backtest.output()).toMatch(/^Backtest of 0 service days/m);
    expect(backtest.output()).toMatch(/^overall +0 +0 \|/m);
  }, 90_000);

  it('on SIGTERM refuses new connections at once (ECONNREFUSED, not reset), closes idle keep-alive sockets, and lets a request in flight finish with Connection: close', async () => {
    const port = await freePort();
    const server = runEntry('tests/setup/slow-server.ts', { PORT: String(port), SLOW_MS: '2000' });
    running.push(server);
    await server.waitFor(/listening on/);
    const idle = await idleKeepAliveSocket(port);
    const idleClosed = new Promise<void>((resolve) => idle.once('close', resolve));
    const slow = answer(port, '/slow');
    await server.waitFor(/slow request received/);

    server.child.kill('SIGTERM');
    await server.waitFor(/SIGTERM: closing/);
    expect(await newConnection(port)).toBe('ECONNREFUSED'); // was accepted, then reset
    await idleClosed;
    expect(await slow).toEqual({ status: 200, connection: 'close', body: '/slow answered\n' });
    expect(await server.exited()).toMatchObject({ code: 0, signal: null });
  }, 60_000);

  // The web's SSR pages keep each connection busy (a request always in flight), where server.close()
  // alone never called back: exit 1 after 10 s before this fix. The api's answers are quicker.
  it.each([
    { entry: 'build/server.js', portVar: 'PORT', path: '/' },
    { entry: 'build/api.js', portVar: 'API_PORT', path: '/api/bus/timeLeft' },
  ])(
    '$entry exits 0 within 10 s on SIGTERM under 20 busy keep-alive connections, a poll in flight, every call counted',
    async ({ entry, portVar, path }) => {
      stub.setDelay(60_000); // the first poll is still waiting for GBIS when the signal comes
      const port = await freePort();
      const server = start(port, entry, portVar);
      await server.waitFor(/listening on/);
      await vi.waitFor(() => expect(stub.calls()).toHaveLength(5), { timeout: 10_000 });

      // 20 keep-alive connections sending back to back (autocannon reconnects when one is closed).
      let answered = 0;
      const load = autocannon(
        { url: `http://127.0.0.1:${port}${path}`, connections: 20, duration: 60 },
        () => undefined,
      );
      load.on('response', () => (answered += 1));
      await vi.waitFor(() => expect(answered).toBeGreaterThan(200), { timeout: 10_000 });

      server.child.kill('SIGTERM');
      const exit = await server.exited();
      load.stop();
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.afterMs).toBeLessThan(SHUTDOWN_LIMIT_MS);
      // The database was closed (DATA_DIR is free again) and the poll cut short was counted.
      expect(await calls()).toEqual(stub.counts());
    },
    60_000,
  );
});
