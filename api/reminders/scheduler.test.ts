import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock, recordingLogger } from '../../tests/setup/fakes';
import {
  startPushService,
  TEST_VAPID as VAPID,
  type LoopbackPushService,
  type PushBrowser,
} from '../../tests/setup/push';
import type { ReminderRequest } from '../../contract/reminders';
import { pushSubscriptions, reminders } from '../db/schema';
import type { BusTime, BusTimes } from './moment';
import { pushHostsOf } from './push-endpoint';
import { createReminderScheduler, SEND_CONCURRENCY, type ReminderScheduler } from './scheduler';
import { createReminder, renewSubscription } from './store';

const START = new Date('2026-11-23T08:00:00+09:00');
const at = (minutes: number) => new Date(START.getTime() + minutes * 60_000);

describe.each(testDatabaseKinds)('the reminders’ scheduler on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  let service: LoopbackPushService;
  let clock: FakeClock;
  let buses: { up: Map<string, BusTime[]>; down: Map<string, BusTime[]> };
  let leader: boolean;
  let started: { stop: () => void; scheduler: ReminderScheduler }[];

  beforeEach(async () => {
    clock = new FakeClock(START);
    service = await startPushService(() => clock.now().getTime());
    buses = { up: new Map(), down: new Map() };
    leader = true;
    started = [];
  });
  afterEach(async () => {
    for (const { stop } of started) stop();
    await service.close(); // a held push fails now
    for (const { scheduler: each } of started) await each.idle(); // nothing of this test writes after it
  });

  const scheduler = (logger = recordingLogger()): ReminderScheduler => {
    const built = createReminderScheduler({
      db: db(),
      clock,
      logger,
      vapid: VAPID,
      busTimes: (): BusTimes => buses,
      isLeader: () => leader,
    });
    started.push({ stop: built.start(), scheduler: built });
    return built;
  };
  /** Sets `request`'s reminder from the browser subscribed as `browser` (a new one named so, or one already subscribed). */
  const set = async (
    browser: string | PushBrowser,
    request: Omit<ReminderRequest, 'subscription'>,
    locale: 'ko' | 'en' = 'ko',
  ) => {
    const { subscription } = typeof browser === 'string' ? service.subscribe(browser) : browser;
    const reminder = await createReminder(
      db(),
      { ...request, subscription },
      { locale, hosts: pushHostsOf(service.host), now: clock.now(), times: buses },
    );
    if (typeof reminder === 'string') throw new Error(reminder);
    return reminder;
  };
  /**
   * Moves the clock `seconds` on, `step` seconds at a time, checking after each step as snapshots
   * would have it, and waiting for the sends it started (unless told to `leave` them: held ones).
   */
  const run = async (target: ReminderScheduler, seconds: number, step = 15, sends: 'wait' | 'leave' = 'wait') => {
    for (let s = 0; s < seconds; s += step) {
      clock.advance(step);
      await target.check();
      if (sends === 'wait') await settled();
    }
  };
  /** Lets the background rounds and sends (and their clean-up) finish before the clock moves on. */
  const settled = async () => {
    // A round a timer or a late call began runs on its own: let it claim, then wait for its sends.
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const { scheduler: each } of started) await each.idle();
  };

  it('sends an up reminder once, when its bus is its minutes from the campus stop, in the page’s language', async () => {
    buses.up.set('1150', [
      { at: at(3), plateNo: '경기70아1111' },
      { at: at(12), plateNo: '경기70아2222' },
    ]);
    await set('phone', { routeNo: '1150', direction: 'up', leadMin: 5 });
    await set('laptop', { routeNo: '1150', direction: 'up', leadMin: 10 }, 'en');
    const target = scheduler();
    await run(target, 8 * 60);
    // The 10-minute one is for the 12-minute bus (the 3-minute one is too near): due at +2 min.
    expect(service.delivered.map((d) => [d.name, d.at.toISOString(), JSON.parse(d.payload)])).toEqual([
      [
        'laptop',
        at(2).toISOString(),
        {
          title: 'Bus 1150',
          body: 'The 1150 reaches the HUFS crossroads in about 10 minutes.',
          url: '/?dir=up',
          tag: expect.stringMatching(/^reminder-/),
          lang: 'en',
        },
      ],
      [
        'phone',
        at(7).toISOString(),
        expect.objectContaining({ body: '1150번 버스가 약 5분 후 외대사거리에 도착합니다.', lang: 'ko' }),
      ],
    ]);
    expect(service.delivered[1].ttl).toBe(240); // kept by the push service until its bus is a minute away
    await run(target, 60);
    expect(service.received()).toBe(2);
    // One-shot: each is gone once sent, and its subscription with it.
    expect(await db().select().from(reminders)).toEqual([]);
    expect(await db().select().from(pushSubscriptions)).toEqual([]);
  });

  it('follows a down estimate as it moves, and fires on its moment', async () => {
    buses.down.set('1117', [{ at: at(20), plateNo: null }]);
    await set('phone', { routeNo: '1117', direction: 'down', leadMin: 5 });
    const target = scheduler();
    await run(target, 10 * 60);
    buses.down.set('1117', [{ at: at(24), plateNo: null }]); // the estimate moves 4 minutes later
    await run(target, 8 * 60 + 45);
    expect(service.delivered).toEqual([]);
    await run(target, 15);
    expect(service.delivered.map((d) => [d.at.toISOString(), JSON.parse(d.payload).body])).toEqual([
      [at(19).toISOString(), '1117번 버스가 약 5분 후 캠퍼스에서 출발할 예정입니다.'],
    ]);
  });

  it('drops a reminder whose bus came before its moment could be told, never sending late', async () => {
    buses.up.set('1303', [{ at: at(8), plateNo: '경기70바1' }]);
    await set('phone', { routeNo: '1303', direction: 'up', leadMin: 5 });
    const target = scheduler();
    // The bus jumps ahead: it is at the stop before the reminder's moment was ever seen (no check ran).
    buses.up.set('1303', [{ at: at(0.5), plateNo: '경기70바1' }]);
    clock.advance(60);
    await target.check();
    await settled();
    expect(service.received()).toBe(0);
    expect(await db().select().from(reminders)).toEqual([]);
    expect(await db().select().from(pushSubscriptions)).toEqual([]);
  });

  it('drops one whose bus is not seen again within the match window', async () => {
    buses.down.set('1005', [{ at: at(10), plateNo: null }]);
    await set('phone', { routeNo: '1005', direction: 'down', leadMin: 3 });
    buses.down.set('1005', []);
    const target = scheduler();
    await run(target, 24 * 60);
    expect(await db().select().from(reminders)).toHaveLength(1); // not yet: the data may come back
    await run(target, 2 * 60);
    expect(await db().select().from(reminders)).toEqual([]);
    expect(service.received()).toBe(0);
  });

  it('deletes the subscription a push service says is gone (404, 410), with its other reminders', async () => {
    buses.up.set('1150', [{ at: at(6), plateNo: 'a' }]);
    buses.up.set('1117', [{ at: at(30), plateNo: 'b' }]);
    const browser = service.subscribe('phone');
    for (const routeNo of ['1150', '1117'] as const) {
      await set(browser, { routeNo, direction: 'up', leadMin: 5 });
    }
    service.answer(() => ({ status: 410 }));
    await run(scheduler(), 90);
    expect(service.received()).toBe(1);
    expect(await db().select().from(pushSubscriptions)).toEqual([]);
    expect(await db().select().from(reminders)).toEqual([]);
  });

  it('retries a 429 after its Retry-After while the bus is ahead, and gives up when it is not', async () => {
    buses.up.set('1150', [{ at: at(6), plateNo: 'a' }]);
    await set('phone', { routeNo: '1150', direction: 'up', leadMin: 5 });
    let answers = [{ status: 429, headers: { 'Retry-After': '20' } }, { status: 201 }];
    service.answer(() => answers.shift()!);
    const logger = recordingLogger();
    const target = scheduler(logger);
    await run(target, 60, 5);
    expect(service.received()).toBe(1);
    expect(service.delivered).toEqual([]);
    await run(target, 20, 5);
    expect(service.delivered.map((d) => d.at.toISOString())).toEqual([
      new Date(at(1).getTime() + 20_000).toISOString(),
    ]);
    expect(logger.lines.join('\n')).toMatch(/answered HTTP 429; retrying in 20 s/);

    buses.up.set('1117', [{ at: at(8), plateNo: 'b' }]);
    await set('tablet', { routeNo: '1117', direction: 'up', leadMin: 5 });
    answers = [{ status: 503, headers: { 'Retry-After': '600' } }];
    await run(target, 2 * 60);
    expect(logger.lines.join('\n')).toMatch(/not sent \(HTTP 503\), and no retry is left before its bus/);
    expect(await db().select().from(reminders)).toEqual([]);
  });

  it('sends nothing on an instance that does not hold the lease, and one push per reminder across two that race', async () => {
    buses.up.set('1150', [{ at: at(6), plateNo: 'a' }]);
    await set('phone', { routeNo: '1150', direction: 'up', leadMin: 5 });
    leader = false;
    const follower = scheduler();
    await run(follower, 120);
    expect(service.received()).toBe(0);
    leader = true; // both now believe they lead (a lease moving): the claim lets one send
    const [one, two] = [scheduler(), scheduler()];
    clock.advance(5);
    await Promise.all([one.check(), two.check(), follower.check()]);
    await settled();
    expect(service.received()).toBe(1);
  });

  it(`posts at most ${SEND_CONCURRENCY} pushes at once`, async () => {
    buses.up.set('1150', [{ at: at(6), plateNo: 'a' }]);
    for (let i = 0; i < SEND_CONCURRENCY * 2; i++)
      await set(`phone-${i}`, { routeNo: '1150', direction: 'up', leadMin: 5 });
    service.answer(() => 'hold');
    const target = scheduler();
    await run(target, 60, 15, 'leave');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(service.received()).toBe(SEND_CONCURRENCY);
  });

  it('drops a claimed reminder whose turn to be sent came when its bus was under a minute away', async () => {
    buses.up.set('1150', [{ at: at(6), plateNo: 'a' }]);
    for (let i = 0; i <= SEND_CONCURRENCY; i++)
      await set(`phone-${i}`, { routeNo: '1150', direction: 'up', leadMin: 5 });
    service.answer(() => ({ status: 201, delayMs: 300 }));
    const logger = recordingLogger();
    const target = scheduler(logger);
    await run(target, 60, 15, 'leave'); // all due at +1 min: eight go out, the ninth waits for a lane
    clock.advance(4.5 * 60); // meanwhile its bus came near
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(service.delivered).toHaveLength(SEND_CONCURRENCY);
    expect(logger.lines.join('\n')).toMatch(/its bus is less than a minute away now; not sent/);
    expect(await db().select().from(reminders)).toEqual([]);
  });

  it('sends to the subscription the browser renewed (pushsubscriptionchange), not the old one', async () => {
    buses.up.set('1150', [{ at: at(8), plateNo: 'a' }]);
    const old = service.subscribe('old');
    await set(old, { routeNo: '1150', direction: 'up', leadMin: 5 });
    const target = scheduler();
    await run(target, 90); // holds the reminder in memory, with the old subscription's id, read no more

    // The new endpoint is already known (another tab set a reminder with it): the reminders join its row.
    buses.up.set('1117', [{ at: at(30), plateNo: 'b' }]);
    const renewed = service.subscribe('renewed');
    await set(renewed, { routeNo: '1117', direction: 'up', leadMin: 5 });
    expect(
      await renewSubscription(db(), old.subscription.endpoint, renewed.subscription, pushHostsOf(service.host)),
    ).toBe('renewed');
    await run(target, 120);
    expect(service.delivered.map((d) => d.name)).toEqual(['renewed']);
  });

  it('follows a down estimate that moves step by step past the window it was set with', async () => {
    buses.down.set('1303', [
      { at: at(10), plateNo: null },
      { at: at(40), plateNo: null },
    ]);
    await set('phone', { routeNo: '1303', direction: 'down', leadMin: 3 });
    const target = scheduler();
    // The estimate slips 4 minutes a check: 24 minutes in all, far past 15 from where it was set.
    for (let slip = 4; slip <= 24; slip += 4) {
      buses.down.set('1303', [
        { at: at(10 + slip), plateNo: null },
        { at: at(40 + slip), plateNo: null },
      ]);
      await run(target, 15);
    }
    expect(service.received()).toBe(0);
    await run(target, 31 * 60); // past the moment of the slipped estimate: 34 − 3 = 31 minutes
    expect(service.delivered.map((d) => d.at.toISOString())).toEqual([at(31).toISOString()]);
  });

  it('a follower keeps checking, so an instance that takes the lease before any snapshot sends', async () => {
    buses.down.set('1117', [{ at: at(10), plateNo: null }]);
    await set('phone', { routeNo: '1117', direction: 'down', leadMin: 5 });
    leader = false;
    scheduler(); // started as a follower: no snapshot will kick it
    clock.advance(60);
    await settled();
    leader = true;
    for (let i = 0; i < 20; i++) {
      clock.advance(15); // its own timer, the only thing that runs a check here
      await settled();
    }
    expect(service.delivered.map((d) => d.at.toISOString())).toEqual([at(5).toISOString()]);
  });
});
