/**
 * Reminders sent at most once across a SIGKILL (docs/decisions/033-web-push-reminders.md): the api
 * (build/api.js, the demo feed on a fixed clock) claims a due reminder and posts it to a loopback
 * push service, which holds the request unanswered; the api is killed then, its reminder marked
 * and its push's fate unknown, and started again on the same data directory. A second reminder,
 * due a little later, arrives from the new process; the first never arrives again. Each push is a
 * real one: the service checks its VAPID JWT and decrypts it with the subscription's key.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotAt } from '../api/bus/feed/demo/simulator';
import { ReminderSchema } from '../contract/reminders';
import { freePort, runEntry, type EntryProcess } from './setup/process';
import { startPushService, type LoopbackPushService } from './setup/push';

const SEED = 20240604;

/**
 * A weekday morning instant (KST) when one route's next bus is 5 min 20–35 s from the campus stop
 * (its 5-minute reminder due in seconds) and another's 3 min 50 s–4 min 5 s (its 3-minute one due a little
 * later), in the demo simulator the api runs: found by scanning the simulator, so the test waits
 * seconds, not minutes.
 */
function startWithTwoBusesDue(): { start: Date; first: string; second: string } {
  for (let ms = Date.parse('2026-11-23T07:00:00+09:00'); ; ms += 5_000) {
    const { arrivals } = snapshotAt(SEED, new Date(ms));
    const nextOf = (routeNo: string) =>
      Math.min(...arrivals.filter((a) => a.routeNo === routeNo).map((a) => a.predictTimeSec));
    const routes = [...new Set(arrivals.map((a) => a.routeNo))];
    const first = routes.find((r) => nextOf(r) >= 320 && nextOf(r) <= 335);
    const second = routes.find((r) => r !== first && nextOf(r) >= 230 && nextOf(r) <= 245);
    if (first && second) return { start: new Date(ms), first, second };
  }
}

describe('a reminder across a SIGKILL of the api between its mark and its push', () => {
  let service: LoopbackPushService;
  const processes: EntryProcess[] = [];
  afterEach(async () => {
    for (const api of processes) api.child.kill('SIGKILL');
    await service?.close();
  });

  it('is sent once: the claim outlives the process, and the next reminder still goes out', async () => {
    const { start, first, second } = startWithTwoBusesDue();
    service = await startPushService();
    const dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-reminders-crash-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const startApi = (clockStart: Date) => {
      const api = runEntry('build/api.js', {
        DATA_DIR: dataDir,
        API_PORT: String(port),
        CLOCK_START: clockStart.toISOString(),
        PUSH_ENDPOINT_HOSTS: service.host,
      });
      processes.push(api);
      return api;
    };
    const set = async (name: string, routeNo: string, leadMin: number) => {
      const response = await fetch(`${base}/api/reminders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ subscription: service.subscribe(name).subscription, routeNo, direction: 'up', leadMin }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return ReminderSchema.parse(await response.json());
    };

    const startedAt = Date.now();
    const api = startApi(start);
    await api.waitFor(/\[api\] listening/);
    await api.waitFor(/\[bus feed\] demo: this instance polls/);
    service.answer((name) => (name === 'phone' ? 'hold' : { status: 201 }));
    const held = await set('phone', first, 5);
    await set('sentinel', second, 3);
    await service.receivedCount(1); // the phone's push is on the wire, unanswered
    api.child.kill('SIGKILL');
    await api.exited();

    // The same instant again, on the api clock: the phone's bus is still 5 minutes away or less.
    const restarted = startApi(new Date(start.getTime() + (Date.now() - startedAt)));
    await restarted.waitFor(/\[api\] listening/);
    await service.receivedCount(2);
    expect(service.delivered.map((delivery) => delivery.name)).toEqual(['sentinel']);
    expect(JSON.parse(service.delivered[0].payload)).toMatchObject({
      body: `${second}번 버스가 약 3분 후 외대사거리에 도착합니다.`,
      url: '/?dir=up',
    });
    // The sentinel's moment came after the phone's: the phone's had its chance, and was not sent again.
    expect(service.received()).toBe(2);
    expect(service.refused).toEqual([]);
    // No longer pending: claimed before the crash.
    expect((await fetch(`${base}/api/reminders/${held.id}`, { method: 'DELETE' })).status).toBe(404);
  }, 120_000);
});
