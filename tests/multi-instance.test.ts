/**
 * The multi-instance suite: several api processes (build/api.js) on one PostgreSQL, against a GBIS stub
 * on loopback that counts the calls. Exactly one instance polls; the others serve its snapshot
 * within a second; when the leader is killed (SIGKILL) another takes the lease within two poll
 * intervals; no instance's snapshot ever goes back in time; and the calls are one poller's plan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealthResponseSchema } from '../contract/bus';
import { callsSpent } from '../api/bus/feed/store';
import { MIN_POLL_SEC } from '../api/bus/feed/poll-plan';
import type { Database } from '../api/db/client';
import { gbisStubEnv, startGbisStub, type GbisStub } from './mocks/gbis-stub';
import { createTestDatabase } from './setup/db';
import { freePort, runEntry, type EntryProcess } from './setup/process';

const INSTANCES = 3;
const CLOCK_START = '2026-11-23T08:00:00+09:00';
/** With this quota the plan polls at its floor, MIN_POLL_SEC (20 s), so the test sees several polls. */
const QUOTA = '1000000';
const CALLS_PER_POLL = 5; // 1 arrival list + 4 routes' locations (the stub's routes)

describe.runIf(process.env.TEST_DATABASE_URL)('api instances on one PostgreSQL', () => {
  let stub: GbisStub;
  let database: Database & { url?: string };
  const dirs: string[] = [];
  const instances: { process: EntryProcess; port: number }[] = [];

  beforeAll(async () => {
    stub = await startGbisStub();
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    for (const { process } of instances) if (process.child.exitCode === null) process.child.kill('SIGKILL');
    await Promise.all(instances.map(({ process }) => process.exited()));
    await database.close();
    await stub.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** takenAt of each live instance's feed (ms), read from its /api/healthz. */
  /** The takenAt (ms) of the snapshot an instance serves, 0 before any. */
  const takenAt = async (port: number) => {
    const health = HealthResponseSchema.parse(await (await fetch(`http://127.0.0.1:${port}/api/healthz`)).json());
    return health.feed.takenAt ? Date.parse(health.feed.takenAt) : 0;
  };
  const takenAts = async (live: typeof instances) => Promise.all(live.map(({ port }) => takenAt(port)));

  it('polls from one instance, serves its snapshot everywhere, and fails over on SIGKILL within two poll intervals', async () => {
    for (let i = 0; i < INSTANCES; i += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'campus-bus-instance-'));
      dirs.push(dir);
      const port = await freePort();
      const process = runEntry('build/api.js', {
        ...gbisStubEnv(stub),
        DATABASE_URL: database.url!,
        DATA_DIR: dir,
        API_PORT: String(port),
        CLOCK_START,
        GBIS_DAILY_QUOTA: QUOTA,
        API_SERVICE_TOKEN: 't'.repeat(40),
      });
      instances.push({ process, port });
    }
    await Promise.all(instances.map(({ process }) => process.waitFor(/\[api\] listening/)));

    // Every instance reads each instance's snapshot every 100 ms: none may go back in time.
    const seen = new Map<number, number>();
    const firstSnapshotSeenAt = new Map<number, number>(); // port → wall time it first served a snapshot
    let backwards = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const live = instances.filter(({ process }) => process.child.exitCode === null && !process.child.killed);
        await Promise.all(
          live.map(async ({ port }) => {
            const at = await takenAt(port).catch(() => null);
            if (at === null) return;
            if (at < (seen.get(port) ?? 0)) backwards += 1;
            seen.set(port, at);
            // The moment this instance's answer came: each timed as it returns.
            if (at > 0 && !firstSnapshotSeenAt.has(port)) firstSnapshotSeenAt.set(port, Date.now());
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    // One leader; the followers serve its first snapshot within a second of it.
    await vi.waitFor(() => expect(stub.pollTimes()).toHaveLength(1), { timeout: 15_000 });
    await vi.waitFor(
      async () => {
        const times = await takenAts(instances);
        expect(times[0]).toBeGreaterThan(0); // the first snapshot, not "none yet"
        expect(new Set(times).size).toBe(1);
      },
      { timeout: 5_000 },
    );
    await vi.waitFor(() => expect(firstSnapshotSeenAt.size).toBe(INSTANCES), { timeout: 5_000 });
    const seenAts = [...firstSnapshotSeenAt.values()];
    const [firstTakenAt] = await takenAts(instances);
    const leaders = instances.filter(({ process }) => process.output().includes('this instance polls'));
    expect(leaders).toHaveLength(1);
    // From the first instance serving it to the last (NOTIFY, not the 10 s lease check), sampled every 100 ms.
    expect(Math.max(...seenAts) - Math.min(...seenAts)).toBeLessThan(1_000);

    // SIGKILL the leader: another takes the lease within two poll intervals of the kill.
    const [leader] = leaders;
    leader.process.child.kill('SIGKILL');
    const killedAt = Date.now();
    const survivors = instances.filter((instance) => instance !== leader);
    await vi.waitFor(
      () => expect(survivors.filter(({ process }) => process.output().includes('this instance polls'))).toHaveLength(1),
      { timeout: 2 * MIN_POLL_SEC * 1000, interval: 200 },
    );
    expect(Date.now() - killedAt).toBeLessThan(2 * MIN_POLL_SEC * 1000);

    // The new leader polls at the planned time; every survivor serves that snapshot.
    await vi.waitFor(() => expect(stub.pollTimes()).toHaveLength(2), { timeout: 2 * MIN_POLL_SEC * 1000 });
    await vi.waitFor(
      async () => {
        const times = await takenAts(survivors);
        expect(new Set(times).size).toBe(1);
        expect(times[0]).toBeGreaterThan(firstTakenAt); // the second snapshot
      },
      { timeout: 5_000 },
    );
    sampling = false;
    await sampler;

    expect(backwards).toBe(0);
    // One poller's plan: polls at least MIN_POLL_SEC apart, every call counted once in the database.
    const [first, second] = stub.pollTimes();
    expect(second - first).toBeGreaterThanOrEqual(MIN_POLL_SEC * 1000 - 1_000);
    expect(stub.calls()).toHaveLength(2 * CALLS_PER_POLL);
    expect(await callsSpent(database.db, '2026-11-23')).toEqual(stub.counts());
  }, 120_000);
});
