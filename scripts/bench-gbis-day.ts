/**
 * `npm run bench:gbis-day [-- --date 2026-11-23 --seed 20261123]`: one simulated KST service day
 * (05:00–24:30) of GBIS polling, on a fast test clock, against the GBIS stub answering from the
 * demo simulator (tests/mocks/gbis-simulated.ts), whose true departures from the campus terminus
 * are known (planDay). Per key size (1,000 and 10,000 calls a day per dataset), it prints:
 * - the age of the arrivals a phone sees at 5,000 random moments of service (mean and p95, s):
 *   the moment less the latest arrival-list read before it;
 * - the observed departures (DepartureDetector over the snapshots the poller published) against
 *   the true ones: mean and p95 |error| (s), how many of the true departures were observed, and how
 *   long after the departure the read that saw it came (mean and p95, s: what the live estimate waits);
 * - the calls per dataset the stub received (05:00–24:30: two quota days, the second from midnight);
 * - with --by-hour, the arrival list's reads per hour: count / mean interval / longest (s).
 * Two plans run per key: "joint" first, the baseline (every poll read the arrival list and every
 * route's location list, paced by the tighter dataset, as the poller did before docs/decisions/031),
 * then "paced", the Poller itself (api/bus/feed/poller.ts) on an in-memory PGlite.
 * Loopback HTTP only; about a minute per key.
 */
import { uniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { openDatabase } from '../api/db/client';
import { planDay } from '../api/bus/feed/demo/simulator';
import { GbisSource } from '../api/bus/feed/gbis/source';
import {
  callsLeft,
  MAX_POLL_SEC,
  MIN_POLL_SEC,
  serviceSecondsLeftToday,
  urgencyOf,
  type Urgency,
} from '../api/bus/feed/poll-plan';
import { Poller } from '../api/bus/feed/poller';
import type { DatasetCalls } from '../api/bus/feed/snapshot';
import { emptyFeedState } from '../api/bus/feed/store';
import { DepartureDetector, type DepartureRecord } from '../api/bus/predictions/departures/detector';
import { kstInstant } from '../contract/kst';
import { ROUTE_NOS } from '../contract/transit';
import type { FeedSnapshot } from '../contract/feed-snapshot';
import { simulatedAnswer, SIMULATED_IDS } from '../tests/mocks/gbis-simulated';
import { startGbisStub, type GbisStub } from '../tests/mocks/gbis-stub';
import { FakeClock } from '../tests/setup/fakes';
import { pollSettled } from './bench-gbis-calls';
import { parseCli } from './cli';

const options = parseCli('Usage: npm run bench:gbis-day -- [--date yyyy-MM-dd] [--seed N] [--by-hour]', {
  date: { type: 'string', default: '2026-11-23' },
  seed: { type: 'string', default: '20261123' },
  'by-hour': { type: 'boolean', default: false },
});
const DATE = options.date;
const SEED = Number(options.seed);
const KEYS = [1000, 10_000];
const SAMPLES = 5000;
const SERVICE_START = kstInstant(DATE, 5 * 60);
const SERVICE_END = kstInstant(DATE, 24 * 60 + 30);
/** The baseline's urgency factors: twice as often with a bus near, a third as often with none coming. */
const JOINT_URGENCY_FACTOR: Record<Urgency, number> = { near: 0.5, normal: 1, idle: 3 };
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What one plan did over the day: its arrival-list reads (ms), its observed departures, its calls. */
type Day = { arrivalReads: number[]; departures: DepartureRecord[]; calls: DatasetCalls };

/** A clock at 04:59:30 KST and the stub answering from the simulator on it, with a source on the stub. */
async function simulation(): Promise<{ clock: FakeClock; stub: GbisStub; source: GbisSource }> {
  const clock = new FakeClock(new Date(SERVICE_START.getTime() - 30_000));
  const now = () => clock.now();
  const stub = await startGbisStub({ clock: now, answer: simulatedAnswer(SEED, now) });
  const source = new GbisSource({
    serviceKey: 'bench',
    baseUrl: stub.url,
    ids: async () => SIMULATED_IDS,
    logger: SILENT,
  });
  return { clock, stub, source };
}

/**
 * The baseline: one poll reads everything, every interval of the remaining service time over the
 * polls the tighter dataset still allows (1 arrival + 4 location calls each), scaled by urgency.
 */
async function jointDay(quota: number): Promise<Day> {
  const { clock, stub, source } = await simulation();
  const detector = new DepartureDetector('gbis');
  const departures: DepartureRecord[] = [];
  const spent = { arrivals: 0, locations: 0 };
  const everything = { arrivals: true, routes: ROUTE_NOS };
  try {
    await source.prepare();
    clock.set(SERVICE_START);
    while (clock.now() < SERVICE_END) {
      const now = clock.now();
      const reading = await source.poll(now, everything, new AbortController().signal);
      spent.arrivals += 1;
      spent.locations += ROUTE_NOS.length;
      const snapshot: FeedSnapshot = {
        source: 'gbis',
        takenAt: now.toISOString(),
        arrivals: reading.arrivals ?? [],
        vehicles: reading.vehicles,
        terminusStationId: reading.terminusStationId,
      };
      departures.push(...detector.observe(snapshot));
      const polls = Math.min(callsLeft(quota, spent.arrivals), Math.floor(callsLeft(quota, spent.locations) / 4));
      const paced =
        polls > 0 ? (serviceSecondsLeftToday(now) / polls) * JOINT_URGENCY_FACTOR[urgencyOf(snapshot)] : Infinity;
      clock.advance(Math.round(Math.min(MAX_POLL_SEC, Math.max(MIN_POLL_SEC, paced))));
    }
    return { arrivalReads: stub.pollTimes(), departures, calls: stub.counts() };
  } finally {
    await stub.close();
  }
}

/** The Poller as the api runs it, on an in-memory PGlite, its timers on the test clock. */
async function pacedDay(quota: number): Promise<Day> {
  const { clock, stub, source } = await simulation();
  const database = await openDatabase({ dataDir: 'memory' });
  const detector = new DepartureDetector('gbis');
  const departures: DepartureRecord[] = [];
  const poller = new Poller({
    source,
    db: database.db,
    clock,
    dailyQuota: quota,
    logger: SILENT,
    state: emptyFeedState('gbis'),
    onState: () => undefined,
    onSnapshot: async (snapshot) => void departures.push(...detector.observe(snapshot)),
  });
  try {
    poller.start();
    await pollSettled(clock);
    for (let due = clock.nextDueMs(); due !== null && due < SERVICE_END.getTime(); due = clock.nextDueMs()) {
      clock.set(new Date(due));
      await pollSettled(clock);
    }
    return { arrivalReads: stub.pollTimes(), departures, calls: stub.counts() };
  } finally {
    await poller.stop();
    await stub.close();
    await database.close();
  }
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(0.95 * (values.length - 1))];

/** Ages (s) of the arrivals at SAMPLES seeded random moments of service: the moment less the latest read before it. */
function arrivalAges(reads: number[]): number[] {
  let rng = xoroshiro128plus(SEED);
  const span = SERVICE_END.getTime() - SERVICE_START.getTime();
  const ages: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    let offset: number;
    [offset, rng] = uniformIntDistribution(0, span - 1, rng);
    const at = SERVICE_START.getTime() + offset;
    const last = reads.filter((read) => read <= at).at(-1);
    if (last !== undefined) ages.push((at - last) / 1000);
  }
  return ages;
}

/**
 * Per observed departure, against the true one of the same vehicle nearest to it: the |error| of
 * its time (s), and how long after the true departure it was seen (s): the read that saw it gone,
 * gapSec after the one before.
 */
function departureErrors(observed: DepartureRecord[]): { errors: number[]; seenAfter: number[]; trueCount: number } {
  const runs = planDay(SEED, DATE).filter((run) => run.departure >= SERVICE_START && run.departure < SERVICE_END);
  const matched = observed.flatMap((record) => {
    const candidates = runs.filter((run) => run.routeNo === record.routeNo && run.vehicle.vehId === record.vehId);
    const distance = (run: (typeof runs)[number]) => Math.abs(record.departedAt.getTime() - run.departure.getTime());
    const nearest = candidates.sort((a, b) => distance(a) - distance(b))[0];
    if (!nearest) return [];
    const seenMs = record.departedAt.getTime() + (record.gapSec * 1000) / 2;
    return [{ error: distance(nearest) / 1000, seenAfter: (seenMs - nearest.departure.getTime()) / 1000 }];
  });
  return {
    errors: matched.map((m) => m.error),
    seenAfter: matched.map((m) => m.seenAfter),
    trueCount: runs.length,
  };
}

/** Per KST hour of the service day: "hour:reads/mean interval/longest interval" of the arrival list (s). */
function arrivalReadsByHour(reads: number[]): string {
  const byHour = new Map<number, number[]>();
  reads.slice(1).forEach((read, i) => {
    const hour = Math.floor((read - SERVICE_START.getTime()) / 3_600_000) + 5;
    byHour.set(hour, [...(byHour.get(hour) ?? []), (read - reads[i]) / 1000]);
  });
  return [...byHour]
    .map(([hour, gaps]) => `${hour}:${gaps.length}/${Math.round(mean(gaps))}/${Math.max(...gaps)}`)
    .join(' ');
}

function describe(plan: string, quota: number, day: Day): string {
  if (options['by-hour']) console.log(`${plan} ${quota} by hour: ${arrivalReadsByHour(day.arrivalReads)}`);
  const ages = arrivalAges(day.arrivalReads);
  const { errors, seenAfter, trueCount } = departureErrors(day.departures);
  const cells = [
    plan.padEnd(6),
    String(quota).padStart(6),
    mean(ages).toFixed(0).padStart(8),
    p95(ages).toFixed(0).padStart(7),
    mean(errors).toFixed(0).padStart(9),
    p95(errors).toFixed(0).padStart(8),
    `${errors.length}/${trueCount}`.padStart(9),
    mean(seenAfter).toFixed(0).padStart(10),
    p95(seenAfter).toFixed(0).padStart(9),
    String(day.calls.arrivals).padStart(8),
    String(day.calls.locations).padStart(9),
  ];
  return cells.join(' ');
}

console.log(`GBIS polling over ${DATE} (KST service day 05:00–24:30), simulator seed ${SEED}`);
console.log('plan     key  age mean  age p95  dep |err|  dep p95  observed seen mean seen p95  arrivals locations');
for (const quota of KEYS) {
  console.log(describe('joint', quota, await jointDay(quota)));
  console.log(describe('paced', quota, await pacedDay(quota)));
}
console.log(
  'age: seconds since the arrival list was read; dep: observed departure − true departure; ' +
    'seen: when the read that saw it gone came after the true departure; all in seconds.',
);
