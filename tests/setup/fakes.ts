/** Test doubles shared by api tests: a settable clock, a scripted feed source, a recording logger. */
import { emptyFeedState } from '../../api/bus/feed/store';
import type { Clock } from '../../api/clock';
import type { Logger } from '../../api/logger';
import { isRequestTag } from '../../lib/observability/request-tag';
import type { BusFeed } from '../../api/bus/feed/service';
import { Poller, type PollerOptions } from '../../api/bus/feed/poller';
import { FeedError, readingOf, type FeedReading, type FeedSource, type PollRequest } from '../../api/bus/feed/snapshot';
import { MOCK_ROUTES } from '../mocks/gbis';
import type { FeedSnapshot, VehiclePosition } from '../../contract/feed-snapshot';
import type { Section } from '../../contract/bus';

/**
 * A clock that moves only when told. Its timers (Clock.after) fire during `advance`/`set`, in
 * order of their due time, each once the clock has reached it.
 */
export class FakeClock implements Clock {
  private timers: { dueMs: number; callback: () => void }[] = [];

  constructor(private instant: Date) {}
  now(): Date {
    return new Date(this.instant);
  }
  after(ms: number, callback: () => void): () => void {
    const timer = { dueMs: this.instant.getTime() + ms, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  /** Timers not yet fired. */
  pending(): number {
    return this.timers.length;
  }
  /** When the earliest timer not yet fired is due (ms since the epoch), or null when none is. */
  nextDueMs(): number | null {
    return this.timers.length === 0 ? null : Math.min(...this.timers.map((timer) => timer.dueMs));
  }
  set(instant: Date | string): void {
    const target = new Date(instant).getTime();
    for (;;) {
      const due = this.timers.filter((t) => t.dueMs <= target).sort((a, b) => a.dueMs - b.dueMs)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.instant = new Date(Math.max(this.instant.getTime(), due.dueMs));
      due.callback();
    }
    this.instant = new Date(target);
  }
  advance(seconds: number): void {
    this.set(new Date(this.instant.getTime() + seconds * 1000));
  }
}

/**
 * A source whose next answers are scripted: a snapshot builder (each poll reads the parts of it
 * the request asks for), or a FeedError to throw. Metered with the four routes located, unless
 * built with `{ metered: false }`. `requests` logs what each poll asked for.
 */
export class ScriptedSource implements FeedSource {
  readonly name = 'gbis' as const;
  readonly metered: boolean;
  readonly locatedRoutes = MOCK_ROUTES;
  polls = 0;
  readonly requests: PollRequest[] = [];
  private next: (now: Date) => FeedSnapshot = (now) => snapshotAt(now, []);

  constructor(options: { metered?: boolean } = {}) {
    this.metered = options.metered ?? true;
  }

  answer(build: (now: Date) => FeedSnapshot): void {
    this.next = build;
  }
  fail(error: FeedError): void {
    this.next = () => {
      throw error;
    };
  }
  async poll(now: Date, request: PollRequest): Promise<FeedReading> {
    this.polls += 1;
    this.requests.push(request);
    return readingOf(this.next(now), request);
  }
}

/** A gbis snapshot taken at `now` with arrivals given as [routeNo, predictTimeSec, locationNo]. */
export function snapshotAt(now: Date, arrivals: [string, number, number][]): FeedSnapshot {
  return {
    source: 'gbis',
    takenAt: now.toISOString(),
    arrivals: arrivals.map(([routeNo, predictTimeSec, locationNo]) => ({
      routeNo,
      predictTimeSec,
      locationNo,
      stationName: null,
      plateNo: `경기70아${routeNo}`,
      vehId: routeNo,
      lowPlate: 0,
      remainSeatCnt: 20,
      crowded: null,
    })),
    vehicles: [],
  };
}

/** Route `routeNo`'s vehicle (vehId `routeNo`, as snapshotAt names its buses) at `section` of a progress line. */
export function vehicleAt(routeNo: string, section: Section, stateCd = 1): VehiclePosition {
  return { routeNo, vehId: routeNo, plateNo: null, stationId: 'x', stationSeq: 40, stateCd, section };
}

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  // As the log writes a line: a request's tag is its reqId field, not text.
  const record = (...args: unknown[]) =>
    void lines.push(
      args
        .filter((arg) => !isRequestTag(arg))
        .map(String)
        .join(' '),
    );
  return { lines, info: record, warn: record, error: record };
}

export { FeedError };

/**
 * A Poller on `db` with test defaults (quota 1000, empty initial state, recording logger, no
 * followers to notify), and the BusFeed view the api reads, for tests that drive polls by hand.
 */
export function pollerFeed(options: Pick<PollerOptions, 'source' | 'db' | 'clock'> & Partial<PollerOptions>): {
  poller: Poller;
  feed: BusFeed;
} {
  const poller = new Poller({
    dailyQuota: 1000,
    logger: recordingLogger(),
    state: emptyFeedState(options.source.name),
    onState: () => undefined,
    ...options,
  });
  return {
    poller,
    feed: {
      current: () => poller.current(),
      role: () => 'leader',
      start: async () => poller.start(),
      stop: () => poller.stop(),
    },
  };
}
