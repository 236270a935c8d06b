/**
 * The poller: the only caller of the bus source (one per deployment, run by the lease holder).
 * Each poll stores the new snapshot, or on failure keeps the last good one and marks the feed
 * stale (lastError, failingSince), then backs off. Log lines are written once per state change
 * (healthy → failing, a new kind of failure, failing → recovered), never once per poll or request.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { isInService, kstDateKey } from '../time';
import { callsSpent, recordCalls, saveFeedState, type FeedState } from './feed-store';
import { canPollNow, MAX_POLL_SEC, nextPollDelaySec, urgencyOf } from './poll-plan';
import { FeedError, type FeedSnapshot, type FeedSource } from './snapshot';

/** First retry after a failure, in seconds; doubled per consecutive failure up to MAX_POLL_SEC. */
export const BACKOFF_START_SEC = 30;

export type PollerOptions = {
  source: FeedSource;
  db: Db;
  clock: Clock;
  dailyQuota: number;
  logger: Logger;
  /** Initial state (the stored one), so a restart keeps showing the last good snapshot. */
  state: FeedState;
  /** Called after each poll with the new state (the feed service notifies followers). */
  onState: (state: FeedState) => void | Promise<void>;
  /**
   * Called after each good poll (once its state is stored) with the new snapshot, e.g. for
   * departure detection. Awaited; must not throw (a rejection would end this poll as a loop error).
   */
  onSnapshot?: (snapshot: FeedSnapshot) => Promise<void>;
};

export class Poller {
  private state: FeedState;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<unknown> | null = null;
  private readonly abort = new AbortController();

  constructor(private readonly options: PollerOptions) {
    this.state = options.state;
    // A restart in the middle of an outage goes on backing off and logs the recovery.
    this.failures = options.state.lastError ? 1 : 0;
  }

  current(): FeedState {
    return this.state;
  }

  /**
   * Polls once if in service hours and within the quota, stores the outcome, and returns the
   * seconds to wait until the next poll. Never throws for a feed failure.
   */
  async pollOnce(): Promise<number> {
    const { source, db, clock, dailyQuota } = this.options;
    const now = clock.now();
    const day = kstDateKey(now);
    const plan = { now, dailyQuota, callsPerPoll: source.callsPerPoll };
    const spent = await callsSpent(db, day);
    if (!canPollNow(plan, spent)) {
      const waitSec = nextPollDelaySec({ ...plan, spent, urgency: urgencyOf(this.state.snapshot) });
      if (isInService(now)) {
        this.fail(new FeedError('budget', `daily quota of ${dailyQuota} calls per dataset spent`), now);
      }
      await this.publish(now, waitSec);
      return waitSec;
    }

    let polled: FeedSnapshot | null = null;
    let spentAfter = spent;
    try {
      polled = await source.poll(now, this.abort.signal);
      this.recover(now);
      this.state = { ...this.state, snapshot: polled, lastError: null, failingSince: null };
    } catch (error) {
      if (this.stopped) return 0;
      this.fail(error, now);
    } finally {
      if (source.callsPerPoll) spentAfter = await recordCalls(db, day, source.callsPerPoll);
    }
    const after = nextPollDelaySec({ ...plan, spent: spentAfter, urgency: urgencyOf(this.state.snapshot) });
    const delaySec =
      this.failures === 0
        ? after
        : Math.max(after, Math.min(MAX_POLL_SEC, BACKOFF_START_SEC * 2 ** (this.failures - 1)));
    await this.publish(now, delaySec);
    if (polled) await this.options.onSnapshot?.(polled);
    return delaySec;
  }

  /** Stores the state with the next poll's time (followers and the stale rule read it) and notifies. */
  private async publish(now: Date, delaySec: number): Promise<void> {
    this.state = { ...this.state, nextPollAt: new Date(now.getTime() + delaySec * 1000) };
    await saveFeedState(this.options.db, this.state, now);
    await this.options.onState(this.state);
  }

  /** Starts the loop: polls now, then after each returned delay, until stop(). */
  start(): void {
    const { lastError, failingSince } = this.state;
    if (lastError) {
      this.options.logger.warn(
        `[bus feed] ${this.options.source.name} resuming while failing since ${failingSince?.toISOString()}: ${lastError}`,
      );
    }
    const loop = async () => {
      let delaySec = 60;
      try {
        this.running = this.pollOnce();
        delaySec = (await this.running) as number;
      } catch (error) {
        this.options.logger.error('[bus feed] poll loop error (database?); retrying in 60 s', error);
      }
      if (!this.stopped) this.timer = setTimeout(loop, delaySec * 1000);
    };
    void loop();
  }

  /** Stops the loop and aborts a poll in flight; resolves when it has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
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
