/**
 * The poller: the only caller of the bus source (one per deployment, run by the lease holder).
 * Each dataset has its own pace (docs/gbis.md §Quota): the arrival list by poll-plan.ts, each
 * route's location list by location-plan.ts; a poll reads what is due (what falls due within
 * COALESCE_SEC joins it). Each poll confirms the lease, reserves its calls in the database, calls
 * the source, and stores the snapshot with what it read merged in; on failure it keeps the last
 * good one and marks the feed stale (lastError, failingSince), then backs off. Log lines are written once per state change (healthy → failing,
 * a new kind of failure, failing → recovered), never once per poll or request.
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { failureLog, type FailureLog } from '../../../lib/failure-log';
import type { Logger } from '../../logger';
import { isInService, secondsUntilService } from '../../time';
import { formatKstDate } from '../../../contract/kst';
import { callsSpent, recordCalls, saveFeedState, type FeedState } from './store';
import {
  arrivalsDelaySec,
  callsLeft,
  FREE_POLL_SEC,
  MAX_POLL_SEC,
  MIN_POLL_SEC,
  secondsUntilQuotaDay,
  urgencyOf,
} from './poll-plan';
import { LocationPlan } from './location-plan';
import { callsOf, FeedError, type DatasetCalls, type FeedReading, type FeedSource, type PollRequest } from './snapshot';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';
import { feedPolls } from '../../metrics';

/**
 * How often a source that cannot poll yet (FeedError 'config' from prepare) reads its setup again,
 * in seconds, in service hours; outside them it looks again when service starts.
 */
export const CONFIG_RECHECK_SEC = 60;

/** First retry after a failure, in seconds; doubled per consecutive failure up to MAX_POLL_SEC. */
export const BACKOFF_START_SEC = 30;

/** A dataset due within this many seconds of a poll is read with it, in one wake-up. */
const COALESCE_SEC = 5;

export type PollerOptions = {
  source: FeedSource;
  db: Db;
  /** Time and timers: the poll loop waits on `clock.after`. */
  clock: Clock;
  dailyQuota: number;
  logger: Logger;
  /** Initial state (the stored one), so a restart keeps showing the last good snapshot and its plan. */
  state: FeedState;
  /** Called after each poll with the new state (the feed service notifies followers). */
  onState: (state: FeedState) => void | Promise<void>;
  /**
   * Called after each good poll (once its state is stored) with the new snapshot, e.g. for
   * departure detection. Awaited; must not throw (a rejection would end this poll as a failure).
   */
  onSnapshot?: (snapshot: FeedSnapshot) => Promise<void>;
  /**
   * Confirms, right before each call, that this instance still holds the poller lease (feed
   * service). False, or a rejection (a lease check that times out counts as lost): no call.
   */
  confirmLease?: () => Promise<boolean>;
};

export class Poller {
  private state: FeedState;
  private failures = 0;
  private cancelTimer: (() => void) | null = null;
  private stopped = false;
  private running: Promise<unknown> | null = null;
  private readonly abort = new AbortController();
  private readonly lease: FailureLog;
  private readonly locations: LocationPlan;
  /** When the arrival list is next due, ms since the epoch (the stored nextPollAt after a restart). */
  private arrivalsDueMs: number;

  constructor(private readonly options: PollerOptions) {
    this.state = options.state;
    this.locations = new LocationPlan(options.source.name);
    if (options.state.snapshot) this.locations.observe(options.state.snapshot);
    this.arrivalsDueMs = options.state.nextPollAt?.getTime() ?? 0;
    // A restart in the middle of an outage goes on backing off and logs the recovery.
    this.failures = options.state.lastError ? 1 : 0;
    this.lease = failureLog(options.logger, {
      failing: `[bus feed] ${options.source.name}: the poller lease is not confirmed; not calling the source.`,
      recovered: `[bus feed] ${options.source.name}: the poller lease is confirmed again.`,
    });
  }

  current(): FeedState {
    return this.state;
  }

  /**
   * Polls once if the source is prepared (its setup read), in service hours, within the quota and
   * with the lease confirmed, stores the outcome, and returns the seconds to wait until the next poll. The calls are reserved (added to
   * the day's count) before the source is called, so a call is never made uncounted.
   * A feed failure is stored as the state's lastError; a database failure too (kind 'database'),
   * in memory only. Never throws.
   */
  async pollOnce(): Promise<number> {
    const now = this.options.clock.now();
    try {
      return await this.pollAt(now);
    } catch (error) {
      // The database failed (the count could not be read or reserved, or the state stored).
      this.fail(new FeedError('database', causeOf(error)), now);
      return this.backoffSec(MIN_POLL_SEC);
    }
  }

  private async pollAt(now: Date): Promise<number> {
    const { source, db, dailyQuota, confirmLease } = this.options;
    const day = formatKstDate(now);
    try {
      await source.prepare?.();
    } catch (error) {
      if (!(error instanceof FeedError && error.kind === 'config')) throw error;
      // Not set up yet (docs/gbis.md §Setup page): no call, and a look again soon (not all night), with
      // no backoff; the first poll once set up logs the recovery.
      this.fail(error, now);
      const recheckSec = Math.max(CONFIG_RECHECK_SEC, secondsUntilService(now));
      await this.publish(now, recheckSec);
      return recheckSec;
    }
    if (!isInService(now)) {
      const waitSec = secondsUntilService(now);
      this.arrivalsDueMs = now.getTime() + waitSec * 1000;
      await this.publish(now, waitSec);
      return waitSec;
    }
    const spent = source.metered ? await callsSpent(db, day) : { arrivals: 0, locations: 0 };
    const request = this.requestAt(now, spent);
    if (request.arrivals === false && request.routes.length === 0) {
      const waitSec = this.wakeSec(now, spent);
      if (callsLeft(dailyQuota, spent.arrivals) <= 0 && callsLeft(dailyQuota, spent.locations) <= 0) {
        feedPolls.inc({ outcome: 'budget' });
        this.fail(new FeedError('budget', `daily quota of ${dailyQuota} calls per dataset spent`), now);
        await this.publish(now, waitSec);
      }
      return waitSec;
    }
    if (confirmLease) {
      const held = await confirmLease().catch(() => false);
      if (!held) {
        this.lease.fail();
        return MIN_POLL_SEC; // the feed service's lease check steps this instance down meanwhile
      }
      this.lease.ok();
    }
    const spentAfter = source.metered ? await recordCalls(db, day, callsOf(request)) : spent;

    let polled: FeedSnapshot | null = null;
    try {
      const reading = await source.poll(now, request, this.abort.signal);
      feedPolls.inc({ outcome: 'ok' });
      this.recover(now);
      polled = merged(this.state.snapshot, reading, request, now, source.name);
      this.state = { ...this.state, snapshot: polled, lastError: null, failingSince: null };
      this.locations.observe(polled);
    } catch (error) {
      if (this.stopped) return 0;
      feedPolls.inc({ outcome: 'failed' });
      this.fail(error, now);
    }
    if (request.arrivals) {
      const urgency = urgencyOf(this.state.snapshot);
      const planned = arrivalsDelaySec({
        now,
        dailyQuota,
        metered: source.metered,
        spent: spentAfter.arrivals,
        urgency,
      });
      this.arrivalsDueMs = now.getTime() + this.backoffSec(planned) * 1000;
    }
    const delaySec = this.backoffSec(this.wakeSec(now, spentAfter));
    await this.publish(now, delaySec);
    if (polled) await this.options.onSnapshot?.(polled);
    return delaySec;
  }

  /**
   * What is due at `now` (or within COALESCE_SEC): every dataset each FREE_POLL_SEC for a free
   * source; else the arrival list at arrivalsDueMs and each route at its LocationPlan time, while
   * the dataset has calls left today.
   */
  private requestAt(now: Date, spent: DatasetCalls): PollRequest {
    const { source } = this.options;
    const routes = source.locatedRoutes.map((route) => route.routeNo);
    if (!source.metered) return { arrivals: true, routes };
    const horizonMs = now.getTime() + COALESCE_SEC * 1000;
    const due = this.locationsDueMs(now, spent);
    return {
      arrivals: this.arrivalsDueMs <= horizonMs && callsLeft(this.options.dailyQuota, spent.arrivals) > 0,
      routes: routes.filter((routeNo) => (due.get(routeNo) ?? Infinity) <= horizonMs),
    };
  }

  private locationsDueMs(now: Date, spent: DatasetCalls): Map<string, number> {
    return this.locations.dueMs({
      now,
      snapshot: this.state.snapshot,
      routes: this.options.source.locatedRoutes,
      callsLeft: callsLeft(this.options.dailyQuota, spent.locations),
    });
  }

  /** Seconds until the first dataset falls due (FREE_POLL_SEC for a free source), at least 1; the quota day's turn when none has calls left. */
  private wakeSec(now: Date, spent: DatasetCalls): number {
    if (!this.options.source.metered) return FREE_POLL_SEC;
    const { dailyQuota } = this.options;
    const nowMs = now.getTime();
    const arrivalsMs = callsLeft(dailyQuota, spent.arrivals) > 0 ? this.arrivalsDueMs : Infinity;
    const nextMs = Math.min(arrivalsMs, ...this.locationsDueMs(now, spent).values());
    if (nextMs === Infinity) return Math.max(MIN_POLL_SEC, secondsUntilQuotaDay(now));
    return Math.max(1, Math.ceil((nextMs - nowMs) / 1000));
  }

  /** `planned` while healthy; after failures at least BACKOFF_START_SEC × 2^(failures − 1), up to MAX_POLL_SEC. */
  private backoffSec(planned: number): number {
    if (this.failures === 0) return planned;
    return Math.max(planned, Math.min(MAX_POLL_SEC, BACKOFF_START_SEC * 2 ** (this.failures - 1)));
  }

  /**
   * Stores the state with the arrival list's next read as nextPollAt (followers and the stale rule
   * read it: the countdown is as old as the arrivals), at least `delaySec` away, and notifies.
   */
  private async publish(now: Date, delaySec: number): Promise<void> {
    const nextMs = Math.max(this.arrivalsDueMs, now.getTime() + delaySec * 1000);
    this.state = { ...this.state, nextPollAt: new Date(nextMs) };
    await saveFeedState(this.options.db, this.state, now);
    await this.options.onState(this.state);
  }

  /**
   * Starts the loop until stop(). A source that costs calls first waits for the stored next-poll
   * time (at most MAX_POLL_SEC), so restarts, and a new leader after a failover, keep the plan's
   * pace; a free source polls at once.
   */
  start(): void {
    const { clock, source, logger } = this.options;
    const { lastError, failingSince, nextPollAt } = this.state;
    if (lastError) {
      logger.warn(
        `[bus feed] ${source.name} resuming while failing since ${failingSince?.toISOString()}: ${lastError}`,
      );
    }
    const loop = async () => {
      this.running = this.pollOnce();
      const delaySec = (await this.running) as number;
      if (!this.stopped) this.cancelTimer = clock.after(delaySec * 1000, () => void loop());
    };
    const storedWaitMs = source.metered && nextPollAt ? nextPollAt.getTime() - clock.now().getTime() : 0;
    const waitMs = Math.min(MAX_POLL_SEC * 1000, storedWaitMs);
    if (waitMs > 0) this.cancelTimer = clock.after(waitMs, () => void loop());
    else void loop();
  }

  /** Stops the loop and aborts a poll in flight; resolves when it has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.cancelTimer?.();
    await this.running?.catch(() => undefined);
  }

  private fail(error: unknown, now: Date): void {
    const message = error instanceof FeedError ? `${error.kind}: ${error.message}` : `unexpected: ${String(error)}`;
    const kind = message.split(':')[0];
    const previousKind = this.state.lastError?.split(':')[0];
    this.failures += 1;
    if (kind !== previousKind) {
      const age = this.state.snapshot ? ` Keeping the snapshot of ${this.state.snapshot.takenAt}, marked stale.` : '';
      this.options.logger.warn(`[bus feed] ${this.options.source.name} poll failing: ${message}.${age}`);
    }
    this.state = { ...this.state, lastError: message, failingSince: this.state.failingSince ?? now };
  }

  private recover(now: Date): void {
    if (this.failures > 0 && this.state.failingSince) {
      const seconds = Math.round((now.getTime() - this.state.failingSince.getTime()) / 1000);
      this.options.logger.info(
        `[bus feed] ${this.options.source.name} recovered after ${this.failures} failed polls (${seconds} s).`,
      );
    }
    this.failures = 0;
  }
}

/**
 * The feed after `reading`: its arrivals (takenAt `now`) when the request read them, else the
 * previous ones and their takenAt; the requested routes' vehicles (locationsTakenAt `now`), the
 * other routes' as they were.
 */
function merged(
  previous: FeedSnapshot | null,
  reading: FeedReading,
  request: PollRequest,
  now: Date,
  source: FeedSource['name'],
): FeedSnapshot {
  const at = now.toISOString();
  const readRoutes = new Set(request.routes);
  const kept = previous?.vehicles.filter((vehicle) => !readRoutes.has(vehicle.routeNo)) ?? [];
  const locationsTakenAt: Record<string, string> = { ...previous?.locationsTakenAt };
  // A snapshot stored before the datasets were paced apart read every route at its takenAt.
  if (previous && !previous.locationsTakenAt) {
    for (const vehicle of previous.vehicles) locationsTakenAt[vehicle.routeNo] = previous.takenAt;
  }
  for (const routeNo of readRoutes) locationsTakenAt[routeNo] = at;
  return {
    source,
    takenAt: reading.arrivals ? at : (previous?.takenAt ?? at),
    arrivals: reading.arrivals ?? previous?.arrivals ?? [],
    vehicles: [...kept, ...reading.vehicles],
    locationsTakenAt,
    terminusStationId: reading.terminusStationId ?? previous?.terminusStationId,
  };
}

/** The driver's message (drizzle wraps it in "Failed query: <sql>" with the driver's error as cause). */
function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
