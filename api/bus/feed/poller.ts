/**
 * The poller: the only caller of the bus source (one per deployment, run by the lease holder).
 * Each poll confirms the lease, reserves its calls in the database, calls the source, and stores
 * the new snapshot; on failure it keeps the last good one and marks the feed stale (lastError,
 * failingSince), then backs off. Log lines are written once per state change (healthy → failing,
 * a new kind of failure, failing → recovered), never once per poll or request.
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { failureLog, type FailureLog } from '../../../lib/failure-log';
import type { Logger } from '../../logger';
import { isInService, secondsUntilService } from '../../time';
import { formatKstDate } from '../../../contract/kst';
import { callsSpent, recordCalls, saveFeedState, type FeedState } from './store';
import { canPollNow, MAX_POLL_SEC, MIN_POLL_SEC, nextPollDelaySec, urgencyOf } from './poll-plan';
import { FeedError, type FeedSource } from './snapshot';
import type { FeedSnapshot } from '../../../contract/feed-snapshot';
import { feedPolls } from '../../metrics';

/**
 * How often a source that cannot poll yet (FeedError 'config' from prepare) reads its setup again,
 * in seconds, in service hours; outside them it looks again when service starts.
 */
export const CONFIG_RECHECK_SEC = 60;

/** First retry after a failure, in seconds; doubled per consecutive failure up to MAX_POLL_SEC. */
export const BACKOFF_START_SEC = 30;

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

  constructor(private readonly options: PollerOptions) {
    this.state = options.state;
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
    const plan = { now, dailyQuota, callsPerPoll: source.callsPerPoll };
    const spent = await callsSpent(db, day);
    if (!canPollNow(plan, spent)) {
      feedPolls.inc({ outcome: 'budget' });
      const waitSec = nextPollDelaySec({ ...plan, spent, urgency: urgencyOf(this.state.snapshot) });
      if (isInService(now)) {
        this.fail(new FeedError('budget', `daily quota of ${dailyQuota} calls per dataset spent`), now);
      }
      await this.publish(now, waitSec);
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
    const spentAfter = source.callsPerPoll ? await recordCalls(db, day, source.callsPerPoll) : spent;

    let polled: FeedSnapshot | null = null;
    try {
      polled = await source.poll(now, this.abort.signal);
      feedPolls.inc({ outcome: 'ok' });
      this.recover(now);
      this.state = { ...this.state, snapshot: polled, lastError: null, failingSince: null };
    } catch (error) {
      if (this.stopped) return 0;
      feedPolls.inc({ outcome: 'failed' });
      this.fail(error, now);
    }
    const after = nextPollDelaySec({ ...plan, spent: spentAfter, urgency: urgencyOf(this.state.snapshot) });
    const delaySec = this.backoffSec(after);
    await this.publish(now, delaySec);
    if (polled) await this.options.onSnapshot?.(polled);
    return delaySec;
  }

  /** `planned` while healthy; after failures at least BACKOFF_START_SEC × 2^(failures − 1), up to MAX_POLL_SEC. */
  private backoffSec(planned: number): number {
    if (this.failures === 0) return planned;
    return Math.max(planned, Math.min(MAX_POLL_SEC, BACKOFF_START_SEC * 2 ** (this.failures - 1)));
  }

  /** Stores the state with the next poll's time (followers and the stale rule read it) and notifies. */
  private async publish(now: Date, delaySec: number): Promise<void> {
    this.state = { ...this.state, nextPollAt: new Date(now.getTime() + delaySec * 1000) };
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
    const storedWaitMs = source.callsPerPoll && nextPollAt ? nextPollAt.getTime() - clock.now().getTime() : 0;
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

/** The driver's message (drizzle wraps it in "Failed query: <sql>" with the driver's error as cause). */
function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
