import {
  FREE_POLL_SEC,
  MIN_POLL_SEC,
  arrivalsDelaySec,
  callsLeft,
  describePlan,
  planOfDay,
  serviceSecondsLeftToday,
  urgencyOf,
} from './poll-plan';
import { snapshotAt } from '../../../tests/setup/fakes';

const at = (kst: string) => new Date(`${kst}+09:00`);
const key = { dailyQuota: 1000, metered: true };

describe('poll plan of the arrival list', () => {
  it('counts the calls left after a 5% reserve', () => {
    expect(callsLeft(1000, 0)).toBe(950);
    expect(callsLeft(1000, 940)).toBe(10);
    expect(callsLeft(1000, 960)).toBe(-10);
  });

  it('counts the service seconds left in the KST quota day', () => {
    expect(serviceSecondsLeftToday(at('2026-11-23T05:00:00'))).toBe(19 * 3600);
    expect(serviceSecondsLeftToday(at('2026-11-23T23:00:00'))).toBe(3600);
    expect(serviceSecondsLeftToday(at('2026-11-23T00:10:00'))).toBe(20 * 60 + 19 * 3600);
    expect(serviceSecondsLeftToday(at('2026-11-23T03:00:00'))).toBe(0);
  });

  it('paces the arrival calls alone over a service day while a bus is near', () => {
    const delay = arrivalsDelaySec({ ...key, now: at('2026-11-23T05:00:00'), spent: 0, urgency: 'near' });
    expect(delay).toBe(Math.round((19 * 3600) / 950)); // 72 s: the location lists no longer set the pace
  });

  // A day read exactly when the plan says, with no other guard: the pacing alone keeps every
  // urgency within the budget (950 of 1,000 arrival calls), and a day with a bus always near (the
  // pace's base) spends nearly all.
  it.each([
    ['near', 900],
    ['normal', 550],
    ['idle', 400],
  ] as const)('keeps a whole day read at %s urgency within the budget', (urgency, atLeast) => {
    let now = at('2026-11-23T05:00:00').getTime();
    const end = at('2026-11-24T00:00:00').getTime();
    let spent = 0;
    while (now < end) {
      spent += 1;
      now += arrivalsDelaySec({ ...key, now: new Date(now), spent, urgency }) * 1000;
    }
    expect(spent).toBeLessThanOrEqual(950);
    expect(spent).toBeGreaterThanOrEqual(atLeast);
  });

  it('reads at the pace while a bus is near, half as often while the next is further, a third when none is coming', () => {
    const base = { ...key, now: at('2026-11-23T08:00:00'), spent: 0 };
    expect(arrivalsDelaySec({ ...base, urgency: 'near' })).toBe(61); // 16 h over 950 calls
    expect(arrivalsDelaySec({ ...base, urgency: 'normal' })).toBe(121);
    expect(arrivalsDelaySec({ ...base, urgency: 'idle' })).toBe(182);
  });

  it('waits for 05:00 KST outside service hours and for KST midnight once the budget is spent', () => {
    const plan = { ...key, urgency: 'normal' as const };
    expect(arrivalsDelaySec({ ...plan, now: at('2026-11-23T03:00:00'), spent: 0 })).toBe(2 * 3600);
    expect(arrivalsDelaySec({ ...plan, now: at('2026-11-23T22:00:00'), spent: 950 })).toBe(2 * 3600);
  });

  it('never reads faster than the floor, and a free source reads at a fixed pace', () => {
    const now = at('2026-11-23T23:59:00');
    expect(arrivalsDelaySec({ now, dailyQuota: 100_000, metered: true, spent: 0, urgency: 'near' })).toBe(MIN_POLL_SEC);
    expect(arrivalsDelaySec({ now, dailyQuota: 1000, metered: false, spent: 0, urgency: 'idle' })).toBe(FREE_POLL_SEC);
  });

  it('judges urgency from the last snapshot', () => {
    const now = at('2026-11-23T08:00:00');
    expect(urgencyOf(snapshotAt(now, [['1150', 300, 2]]))).toBe('near');
    expect(urgencyOf(snapshotAt(now, [['1150', 1800, 20]]))).toBe('normal');
    expect(urgencyOf(snapshotAt(now, []))).toBe('idle');
  });
});

describe('the plan of a day, per dataset', () => {
  it('gives each dataset its own quota on a development key', () => {
    expect(planOfDay(1000, true, 4)).toEqual({
      arrivals: { callsPerDay: 950, meanIntervalSec: 74 },
      locations: { callsPerDay: 950, meanIntervalSec: 296 },
    });
    expect(describePlan(1000, true, 4)).toContain('arrivals: 950 calls/day, one every 74 s on average');
    expect(describePlan(1000, true, 4)).toContain('locations: 950 calls/day over 4 routes, each read every 296 s');
  });

  it('caps the calls at the 20 s floor on an operating key, and a free source reads everything at its pace', () => {
    expect(planOfDay(100_000, true, 4)).toEqual({
      arrivals: { callsPerDay: 3510, meanIntervalSec: 20 },
      locations: { callsPerDay: 14040, meanIntervalSec: 20 },
    });
    expect(planOfDay(1000, false, 4)).toBeNull();
    expect(describePlan(1000, false, 4)).toContain(`every ${FREE_POLL_SEC} s`);
  });
});
