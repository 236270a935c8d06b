/**
 * What the phones' refresh (GET /api/bus/timeLeft, docs/product.md §7) and the KakaoTalk skill
 * answer from: the timeLeft view of the feed's state with today's predictions, built once per
 * (second, feed state) whoever asks, since every phone asks every 4 s and the answer only changes
 * by the second or with a new state. The predictions never make it fail: while they throw, the view
 * has no down group.
 */
import type { TimeLeftResponse } from '../../contract/bus';
import type { Clock } from '../clock';
import { failureLog } from '../failure-log';
import type { Logger } from '../logger';
import type { BusFeed } from './feed/service';
import type { FeedState } from './feed/store';
import type { PredictionService, TodayPredictions } from './predictions/service';
import type { RoutePredictions } from './predictions/day-plan';
import { timeLeftView } from './time-left-view';

/** The view at `now` (the first request of its second) and the predictions it was built with. */
export type LiveView = {
  now: Date;
  view: Required<TimeLeftResponse>;
  predictions: readonly RoutePredictions[];
};

export type LiveViewService = {
  /** The view of this second and feed state, built by the first request to ask for it. */
  current(): Promise<LiveView>;
  /**
   * `read`'s predictions, or null when it throws. A run of failures is logged once, and its end;
   * shared by the view and the /predicted routes, so they report one state.
   */
  predictionsOrNull(read: () => TodayPredictions | Promise<TodayPredictions>): Promise<TodayPredictions | null>;
};

export function createLiveView(deps: {
  feed: Pick<BusFeed, 'current'>;
  clock: Clock;
  predictions: PredictionService;
  logger: Logger;
}): LiveViewService {
  const { feed, clock, predictions, logger } = deps;
  const serving = failureLog(logger, {
    failing: '[predictions] failing: timeLeft without its down group, /predicted answers 503',
    recovered: '[predictions] serving predictions again.',
    level: 'error',
  });
  const predictionsOrNull: LiveViewService['predictionsOrNull'] = async (read) => {
    try {
      const today = await read();
      serving.ok();
      return today;
    } catch (error) {
      serving.fail(error);
      return null;
    }
  };

  let cached: { second: number; state: FeedState; live: LiveView } | null = null;
  return {
    predictionsOrNull,
    current: async () => {
      const now = clock.now();
      const second = Math.floor(now.getTime() / 1000);
      const state = feed.current();
      if (cached?.second !== second || cached.state !== state) {
        const routes = (await predictionsOrNull(() => predictions.todayNow(now)))?.routes ?? [];
        cached = { second, state, live: { now, view: timeLeftView(state, now, routes), predictions: routes } };
      }
      return cached.live;
    },
  };
}
