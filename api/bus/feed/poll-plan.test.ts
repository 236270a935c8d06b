import {
  FREE_POLL_SEC,
  MIN_POLL_SEC,
  canPollNow,
  describePlan,
  nextPollDelaySec,
  pollsLeft,
  serviceSecondsLeftToday,
  urgencyOf,
} from './poll-plan';
import { snapshotAt } from '../../../tests/setup/fakes';

const calls = { arrivals: 1, locations: 4 };
const none = { arrivals: 0, locations: 0 };
const at = (kst: string) => new Date(`${kst}+09:00`);

describe('poll plan', () => {
  it('lets the tightest dataset decide the polls left (5% reserve)', () => {
    // 950 usable calls: locations allow 237 polls, arrivals 950.
    expect(pollsLeft(1000, calls, none)).toBe(237);
    expect(pollsLeft(1000, calls, { arrivals: 10, locations: 940 })).toBe(2);
    expect(pollsLeft(1000, calls, { arrivals: 10, locations: 950 })).toBe(0);
  });

  it('counts the service seconds left in the KST quota day', () => {
    expect(serviceSecondsLeftToday(at('2026-11-23T05:00:00'))).toBe(19 * 3600);
    expect(serviceSecondsLeftToday(at('2026-11-23T23:00:00'))).toBe(3600);
    expect(serviceSecondsLeftToday(at('2026-11-23T00:10:00'))).toBe(20 * 60 + 19 * 3600);
    expect(serviceSecondsLeftToday(at('2026-11-23T03:00:00'))).toBe(0);
  });

  it('paces the whole quota over a service day at normal urgency', () => {
    const delay = nextPollDelaySec({
      now: at('2026-11-23T05:00:00'),
      dailyQuota: 1000,
      callsPerPoll: calls,
      spent: none,
      urgency: 'normal',
    });
    expect(delay).toBe(Math.round((19 * 3600) / 237)); // 289 s
  });

  // A day polled exactly when the plan says, with no other guard: the pacing alone keeps every
  // urgency within the budget (950 of 1,000 location calls), and normal urgency spends nearly all.
  it.each([
    ['near', 900],
    ['normal', 900],
    ['idle', 800],
  ] as const)('keeps a whole day polled at %s urgency within the budget', (urgency, atLeast) => {
    let now = at('2026-11-23T05:00:00').getTime();
    const end = at('2026-11-24T00:00:00').getTime();
    const spent = { arrivals: 0, locations: 0 };
    while (now < end) {
      spent.arrivals += 1;
      spent.locations += 4;
      now += nextPollDelaySec({ now: new Date(now), dailyQuota: 1000, callsPerPoll: calls, spent, urgency }) * 1000;
    }
    expect(spent.locations).toBeLessThanOrEqual(950);
    expect(spent.locations).toBeGreaterThanOrEqual(atLeast);
  });

  it('polls twice as often when a bus is near and a third as often when none is coming', () => {
    const base = { now: at('2026-11-23T08:00:00'), dailyQuota: 1000, callsPerPoll: calls, spent: none };
    const normal = nextPollDelaySec({ ...base, urgency: 'normal' });
    expect(nextPollDelaySec({ ...base, urgency: 'near' })).toBe(Math.round(normal / 2));
    expect(nextPollDelaySec({ ...base, urgency: 'idle' })).toBe(normal * 3);
  });

  it('waits for 05:00 KST outside service hours and for KST midnight once the budget is spent', () => {
    const plan = { dailyQuota: 1000, callsPerPoll: calls, urgency: 'normal' as const };
    expect(nextPollDelaySec({ ...plan, now: at('2026-11-23T03:00:00'), spent: none })).toBe(2 * 3600);
    expect(canPollNow({ ...plan, now: at('2026-11-23T03:00:00') }, none)).toBe(false);
    const spent = { arrivals: 237, locations: 948 };
    expect(canPollNow({ ...plan, now: at('2026-11-23T22:00:00') }, spent)).toBe(false);
    expect(nextPollDelaySec({ ...plan, now: at('2026-11-23T22:00:00'), spent })).toBe(2 * 3600);
  });

  it('never polls faster than the floor, and a free source polls at a fixed pace', () => {
    const now = at('2026-11-23T23:59:00');
    expect(nextPollDelaySec({ now, dailyQuota: 100_000, callsPerPoll: calls, spent: none, urgency: 'near' })).toBe(
      MIN_POLL_SEC,
    );
    expect(nextPollDelaySec({ now, dailyQuota: 1000, callsPerPoll: null, spent: none, urgency: 'idle' })).toBe(
      FREE_POLL_SEC,
    );
  });

  it('judges urgency from the last snapshot', () => {
    const now = at('2026-11-23T08:00:00');
    expect(urgencyOf(snapshotAt(now, [['1150', 300, 2]]))).toBe('near');
    expect(urgencyOf(snapshotAt(now, [['1150', 1800, 20]]))).toBe('normal');
    expect(urgencyOf(snapshotAt(now, []))).toBe('idle');
  });

  it('describes the plan in calls per day for the start-up log', () => {
    expect(describePlan(1000, calls)).toContain('at most 237 polls/day = 237 arrival and 948 location calls/day');
  });
});

describe('describePlan with an operating key', () => {
  it('caps the polls at the 20 s floor', () => {
    expect(describePlan(100_000, { arrivals: 1, locations: 4 })).toContain('at most 3510 polls/day');
    expect(describePlan(100_000, { arrivals: 1, locations: 4 })).toContain('mean interval 20 s');
  });
});
