/**
 * The demo bus feed (BUS_FEED=demo, the default): a seeded, deterministic simulator of routes 1150,
 * 1117, 1303 and 1005 around the campus that produces exactly the FeedSnapshot the GBIS source
 * produces. Stateless: planDay and snapshotAt are pure functions of (seed, date or instant), so any
 * instant, past or present, can be simulated. Its stop ids are not GBIS ids: `demo-up-<i>` and
 * `demo-down-<i>` on the campus section, `demo-terminus` for the campus terminus, `demo-road` for
 * every other stop. The model (timetable, runs, fleet, feed) and the seeding of its draws:
 * docs/predictions.md §The demo feed's simulator.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import type { Section } from '../../../../contract/bus';
import { dayType, isInService, serviceClock } from '../../../time';
import { kstInstant } from '../../../../contract/kst';
import type { Arrival, FeedSnapshot } from '../../../../contract/feed-snapshot';
import { STOP_NAMES } from '../../../../contract/transit';
import { ROUTES, timetableMinutes } from '../transit-config';
import type { DayType } from '../../../../contract/transit';

/** Inclusive integer range for a draw. */
type Range = readonly [number, number];

/** The demo's stationId of the campus terminus (FeedSnapshot terminusStationId). */
const DEMO_TERMINUS_ID = 'demo-terminus';

const SEC = 1000;
const MIN = 60 * SEC;

/** Seconds between consecutive stops of the campus section (and from blue roof to the terminus). */
const STOP_GAP_SEC: Range = [60, 180];
/** Minutes and stops of road between the far terminus and the campus section, either way. */
const ROAD_RUN_MIN: Range = [40, 70];
const ROAD_STOPS: Range = [20, 35];
/** Delay of a whole run, in seconds: usual, and for the LATE_PERCENT of runs that are late. */
const USUAL_DELAY_SEC: Range = [0, 180];
const LATE_DELAY_SEC: Range = [300, 900];
const LATE_PERCENT = 10;
/** Noise on the route's layoverMin at the campus terminus, in seconds. */
const LAYOVER_NOISE_SEC: Range = [-90, 120];
/** Minutes a vehicle waits at the far terminus before it can start another run. */
const FAR_LAYOVER_MIN: Range = [10, 20];
/** Seats of these intercity coaches; free seats drop by one every SEATS_TAKEN_EVERY road stops. */
const SEATS = 45;
const SEATS_TAKEN_EVERY = 2;
/** Bound of a run's relative prediction error, in percent. */
const PREDICTION_BIAS_PERCENT = 12;
/** Seconds a vehicle stands at a stop (GBIS stateCd 1) before it counts as having left it (2). */
const DWELL_SEC = 20;
/** Share of low-floor vehicles (lowPlate 1), in percent. */
const LOW_FLOOR_PERCENT = 20;

/**
 * Illustrative places on the road toward the campus crossroads, nearest first; each names a band
 * of consecutive road stops (stationName of arrivals).
 */
const ROAD_PLACES = [
  '왕산리',
  '모현읍행정복지센터',
  '오산리',
  '갈담리',
  '매산리',
  '일산리',
  '능원리',
  '초부리',
  '문형리',
  '신현리',
  '오포읍행정복지센터',
  '태전동',
] as const;

/** A vehicle of the demo fleet. */
export type DemoVehicle = {
  /** Numeric string, unique across routes (GBIS vehId shape). */
  vehId: string;
  /** e.g. "경기70아1234"; the series letter is per route so plates never collide. */
  plateNo: string;
  /** GBIS lowPlate: 0 normal, 1 low-floor. */
  lowPlate: 0 | 1;
};

/** One planned run of a vehicle: up to the campus terminus, then down and away. All instants are Dates. */
export type Run = {
  routeNo: string;
  /** Service date ("yyyy-MM-dd", KST) the run belongs to, even when it runs past midnight. */
  serviceDate: string;
  /** 0-based order of the run's timetable departure within its service day. */
  runIndex: number;
  vehicle: DemoVehicle;
  /** Timetable departure from the campus terminus (before the run's delay). */
  scheduledDeparture: Date;
  /** Enters the feed, `roadStopsBefore` stops before the campus crossroads. */
  appearAt: Date;
  roadStopsBefore: number;
  /** When it passes each up stop (STOP_NAMES.up), in their order. */
  upStops: Date[];
  terminusArrival: Date;
  /** Actual departure from the campus terminus (the observed down departure). */
  departure: Date;
  /** When it passes each down stop (STOP_NAMES.down), in their order. */
  downStops: Date[];
  /** Road stops after the campus crossroads; it leaves the feed at the last one, `leaveAt`. */
  roadStopsAfter: number;
  leaveAt: Date;
  /** Free seats when it enters the feed (0–45). */
  seatsAtAppear: number;
  /** Relative error of its arrival predictions: predicted = true remaining × (1 + bias). */
  predictionBias: number;
};

/** A draw function over one seeded generator. */
type Draw = (range: Range) => number;

/** FNV-1a then murmur3's finalizer: a well-mixed 32-bit seed from a text key. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** A generator for one key: the same (seed, key) always draws the same sequence. */
function drawFor(seed: number, ...key: Array<string | number>): Draw {
  const rng = xoroshiro128plus(hash32([seed, ...key].join('|')));
  return ([from, to]) => unsafeUniformIntDistribution(from, to, rng);
}

/**
 * The fleet of a route: vehicle `number` → its identity. The 4 plate digits come from an affine
 * map with a multiplier coprime to 9000, so distinct numbers never share a plate.
 */
function fleetOf(seed: number, routeIndex: number): (number: number) => DemoVehicle {
  const { routeNo } = ROUTES[routeIndex];
  const draw = drawFor(seed, routeNo, 'fleet');
  const multiplier = 30 * draw([1, 299]) + 1; // ≡ 1 mod 2, 3 and 5
  const offset = draw([0, 8999]);
  return (number) => {
    const digits = 1000 + ((multiplier * number + offset) % 9000);
    const own = drawFor(seed, routeNo, 'vehicle', number);
    return {
      vehId: String(233_000_000 + routeIndex * 10_000 + digits),
      plateNo: `경기70${'아바사자'[routeIndex % 4]}${digits}`,
      lowPlate: own([1, 100]) <= LOW_FLOOR_PERCENT ? 1 : 0,
    };
  };
}

/** `count` instants from `start` going forward (or backward for negative gaps), one gap drawn each. */
function stopTimes(draw: Draw, startMs: number, count: number, direction: 1 | -1): number[] {
  const times: number[] = [];
  let at = startMs;
  for (let i = 0; i < count; i++) {
    at += direction * draw(STOP_GAP_SEC) * SEC;
    times.push(at);
  }
  return times;
}

/** A run before a vehicle is assigned, with the instant its vehicle can start another one. */
type UnassignedRun = Omit<Run, 'vehicle'> & { readyAtMs: number };

/** Times of one run from its timetable departure; the draws are in a fixed order per run key. */
function planRun(
  draw: Draw,
  base: Pick<Run, 'routeNo' | 'serviceDate' | 'runIndex'>,
  layoverMin: number,
  scheduledMs: number,
): UnassignedRun {
  const delaySec = draw([1, 100]) <= LATE_PERCENT ? draw(LATE_DELAY_SEC) : draw(USUAL_DELAY_SEC);
  const departureMs = scheduledMs + delaySec * SEC;
  const terminusArrivalMs = departureMs - layoverMin * MIN - draw(LAYOVER_NOISE_SEC) * SEC;
  // Backwards from the terminus: blue roof first, campus crossroads last.
  const upStopsMs = stopTimes(draw, terminusArrivalMs, STOP_NAMES.up.length, -1).reverse();
  const roadStopsBefore = draw(ROAD_STOPS);
  const appearMs = upStopsMs[0] - draw(ROAD_RUN_MIN) * MIN;
  const downStopsMs = stopTimes(draw, departureMs, STOP_NAMES.down.length, 1);
  const roadStopsAfter = draw(ROAD_STOPS);
  const leaveMs = downStopsMs[downStopsMs.length - 1] + draw(ROAD_RUN_MIN) * MIN;
  return {
    ...base,
    scheduledDeparture: new Date(scheduledMs),
    appearAt: new Date(appearMs),
    roadStopsBefore,
    upStops: upStopsMs.map((ms) => new Date(ms)),
    terminusArrival: new Date(terminusArrivalMs),
    departure: new Date(departureMs),
    downStops: downStopsMs.map((ms) => new Date(ms)),
    roadStopsAfter,
    leaveAt: new Date(leaveMs),
    seatsAtAppear: draw([0, SEATS]),
    predictionBias: draw([-PREDICTION_BIAS_PERCENT, PREDICTION_BIAS_PERCENT]) / 100,
    readyAtMs: leaveMs + draw(FAR_LAYOVER_MIN) * MIN,
  };
}

/** The runs of route ROUTES[routeIndex] in timetable order, departures counted from `midnightMs`. */
function planRoute(seed: number, routeIndex: number, serviceDate: string, midnightMs: number, day: DayType): Run[] {
  const route = ROUTES[routeIndex];
  const { routeNo, layoverMin } = route;
  const timetable = route.timetable[day];
  const lastMin = timetableMinutes(timetable.last);

  const unassigned: UnassignedRun[] = [];
  let departureMin = timetableMinutes(timetable.first);
  for (let runIndex = 0; departureMin <= lastMin; runIndex++) {
    const draw = drawFor(seed, routeNo, serviceDate, runIndex);
    unassigned.push(planRun(draw, { routeNo, serviceDate, runIndex }, layoverMin, midnightMs + departureMin * MIN));
    const schedule = drawFor(seed, routeNo, day, runIndex);
    departureMin += schedule([timetable.minHeadwayMin, timetable.maxHeadwayMin]);
  }

  const vehicle = fleetOf(seed, routeIndex);
  const readyAtMs: number[] = []; // per fleet number, when that vehicle can start a run
  return unassigned.map(({ readyAtMs: runReadyAtMs, ...run }) => {
    let number = -1;
    for (let candidate = 0; candidate < readyAtMs.length; candidate++) {
      const ready = readyAtMs[candidate];
      if (ready <= run.appearAt.getTime() && (number < 0 || ready < readyAtMs[number])) number = candidate;
    }
    if (number < 0) number = readyAtMs.length;
    readyAtMs[number] = runReadyAtMs;
    return { ...run, vehicle: vehicle(number) };
  });
}

/**
 * Every run of every route (ROUTES order, then timetable order) on one service date ("yyyy-MM-dd",
 * KST), by the model of docs/predictions.md §The demo feed's simulator. Pure and cheap: no time
 * stepping, one day-type look-up, a few thousand draws. A back-fill of past departures reads
 * `routeNo` and `departure`.
 */
export function planDay(seed: number, serviceDate: string): Run[] {
  const day = dayType(serviceDate);
  // NOTE: KST has no DST: a time of the service day is its midnight plus minutes, as in kstInstant.
  const midnightMs = kstInstant(serviceDate, 0).getTime();
  return ROUTES.flatMap((_, routeIndex) => planRoute(seed, routeIndex, serviceDate, midnightMs, day));
}

/** The last day planned for snapshotAt: a poll every 15 s would otherwise plan the same day again (~20 ms). */
let lastPlanned: { seed: number; serviceDate: string; runs: Run[] } | null = null;

/** planDay(seed, serviceDate), kept for the next call with the same arguments. */
function plannedDay(seed: number, serviceDate: string): Run[] {
  if (lastPlanned?.seed !== seed || lastPlanned.serviceDate !== serviceDate) {
    lastPlanned = { seed, serviceDate, runs: planDay(seed, serviceDate) };
  }
  return lastPlanned.runs;
}

/** A stop of a run with when the vehicle reached it (ms) and when it left it. */
type PassedStop = {
  stationId: string;
  section: Section | null;
  /** Road stops still to go before the campus crossroads; null from the crossroads on. */
  stopsToCrossroads: number | null;
  reachedMs: number;
  leftMs: number;
};

/** Every stop of a run in order, from where it enters the feed to the last one before it leaves. */
function stopsOf(run: Run): PassedStop[] {
  const passing = (
    stationId: string,
    section: Section | null,
    stopsToCrossroads: number | null,
    reachedMs: number,
  ): PassedStop => ({
    stationId,
    section,
    stopsToCrossroads,
    reachedMs,
    leftMs: reachedMs + DWELL_SEC * SEC,
  });
  const appearMs = run.appearAt.getTime();
  const beforeStepMs = (run.upStops[0].getTime() - appearMs) / run.roadStopsBefore;
  const crossroadsDownMs = run.downStops[run.downStops.length - 1].getTime();
  const afterStepMs = (run.leaveAt.getTime() - crossroadsDownMs) / run.roadStopsAfter;
  return [
    ...Array.from({ length: run.roadStopsBefore }, (_, i) =>
      passing('demo-road', null, run.roadStopsBefore - i, appearMs + i * beforeStepMs),
    ),
    ...run.upStops.map((at, stopIndex) =>
      passing(`demo-up-${stopIndex}`, { direction: 'up', stopIndex }, null, at.getTime()),
    ),
    { ...passing(DEMO_TERMINUS_ID, null, null, run.terminusArrival.getTime()), leftMs: run.departure.getTime() },
    ...run.downStops.map((at, stopIndex) =>
      passing(`demo-down-${stopIndex}`, { direction: 'down', stopIndex }, null, at.getTime()),
    ),
    // The last road stop is the far terminus, reached at leaveAt: the run is out of the feed there.
    ...Array.from({ length: run.roadStopsAfter - 1 }, (_, i) =>
      passing('demo-road', null, null, crossroadsDownMs + (i + 1) * afterStepMs),
    ),
  ];
}

/** stationSeq of a run's first stop: road stops are numbered as if every run came from ROAD_STOPS' farthest. */
function firstStationSeq(run: Run): number {
  return ROAD_STOPS[1] - run.roadStopsBefore + 1;
}

/** stationName of a road stop before the crossroads: its band of ROAD_PLACES. */
function roadPlace(stopsToCrossroads: number): string {
  return ROAD_PLACES[Math.floor(((stopsToCrossroads - 1) * ROAD_PLACES.length) / ROAD_STOPS[1])];
}

/**
 * The demo feed as of `instant`: a FeedSnapshot with source 'demo' and takenAt = instant (ISO).
 * - vehicles: every run of our routes between appearAt and leaveAt, at the last stop it passed
 *   (section set on the up / down stops of STOP_NAMES; stationSeq numbers the run's stops in order; stateCd 1
 *   for DWELL_SEC after reaching a stop and for the whole layover, else 2).
 * - arrivals: per route, the up to 2 running vehicles not yet at the campus crossroads with the
 *   soonest predictions, all sorted by predictTimeSec. predictTimeSec (seconds) is the true time
 *   left × (1 + the run's bias), so its error shrinks to 0 on arrival; locationNo is the road
 *   stops left; remainSeatCnt falls from seatsAtAppear as road stops pass.
 * Only runs of the instant's service date are considered. Outside service hours (05:00–24:30 KST)
 * both lists are empty, so the first runs, on the road since before 05:00, show up mid-way at
 * 05:00 and the last ones vanish at 24:30.
 */
export function snapshotAt(seed: number, instant: Date): FeedSnapshot {
  const snapshot: FeedSnapshot = {
    source: 'demo',
    takenAt: instant.toISOString(),
    arrivals: [],
    vehicles: [],
    terminusStationId: DEMO_TERMINUS_ID,
  };
  if (!isInService(instant)) return snapshot;

  const nowMs = instant.getTime();
  const candidates = new Map<string, Arrival[]>(ROUTES.map((route) => [route.routeNo, []]));
  for (const run of plannedDay(seed, serviceClock(instant).serviceDate)) {
    if (run.appearAt.getTime() > nowMs || nowMs >= run.leaveAt.getTime()) continue;
    const stops = stopsOf(run);
    const lastIndex = stops.findLastIndex((stop) => stop.reachedMs <= nowMs);
    const last = stops[lastIndex];
    snapshot.vehicles.push({
      routeNo: run.routeNo,
      vehId: run.vehicle.vehId,
      plateNo: run.vehicle.plateNo,
      stationId: last.stationId,
      stationSeq: firstStationSeq(run) + lastIndex,
      stateCd: nowMs < last.leftMs ? 1 : 2,
      section: last.section,
    });
    if (last.stopsToCrossroads !== null) {
      const trueLeftSec = (run.upStops[0].getTime() - nowMs) / SEC;
      candidates.get(run.routeNo)?.push({
        routeNo: run.routeNo,
        predictTimeSec: Math.ceil(trueLeftSec * (1 + run.predictionBias)),
        locationNo: last.stopsToCrossroads,
        stationName: roadPlace(last.stopsToCrossroads),
        plateNo: run.vehicle.plateNo,
        vehId: run.vehicle.vehId,
        lowPlate: run.vehicle.lowPlate,
        remainSeatCnt: Math.max(0, run.seatsAtAppear - Math.floor(lastIndex / SEATS_TAKEN_EVERY)),
        crowded: null,
      });
    }
  }
  snapshot.arrivals = [...candidates.values()].flatMap((arrivals) => arrivals.sort(byPrediction).slice(0, 2));
  snapshot.arrivals.sort(byPrediction);
  return snapshot;
}

function byPrediction(a: Arrival, b: Arrival): number {
  return a.predictTimeSec - b.predictTimeSec || a.routeNo.localeCompare(b.routeNo);
}
