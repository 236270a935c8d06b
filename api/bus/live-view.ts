/**
 * What the phones' refresh (GET /api/bus/timeLeft, docs/product.md §7) and the KakaoTalk skill
 * answer from: the timeLeft view of the feed's state with today's predictions and the timetables in
 * use (TransitIdsNow), built once per (second, feed state, ids in use) whoever asks, since every phone asks every 4 s and the answer only changes
 * by the second or with a new state. The predictions never make it fail: while they throw, the view
 * has no down group.
 */
import type { TimeLeftResponse } from '../../contract/bus';
import type { Clock } from '../clock';
import { failureLog } from '../../lib/failure-log';
import type { Logger } from '../logger';
import type { BusFeed } from './feed/service';
import type { FeedState } from './feed/store';
import type { PredictionService, TodayPredictions } from './predictions/service';
import type { RoutePredictions } from './predictions/day-plan';
import { timeLeftView } from './time-left-view';
import type { RouteConfig, TransitIdsNow } from './feed/transit-config';

/** The view at `now` (the first request of its second) and the predictions and routes (with their timetables) it was built with. */
export type LiveView = {
  now: Date;
  view: Required<TimeLeftResponse>;
  predictions: readonly RoutePredictions[];
  /** The routes in use, in route order, with their timetables (TransitIdsNow.current().routes). */
  routes: readonly RouteConfig[];
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
  /** The ids in use, read from memory. */
  transit: Pick<TransitIdsNow, 'current'>;
  logger: Logger;
}): LiveViewService {
  const { feed, clock, predictions, transit, logger } = deps;
  const serving = failureLog(logger, {
    failing: '[predictions] failing: timeLeft without its down group, /predicted answers 503',
    recovered: '[predictions] serving predictions again.',
    level: 'error',
  });
  const predictionsOrNull: LiveViewService['predictionsOrNull'] = (read) => serving.orNull(read);

  let cached: { second: number; state: FeedState; live: LiveView } | null = null;
  return {
    predictionsOrNull,
    current: async () => {
      const now = clock.now();
      const second = Math.floor(now.getTime() / 1000);
      const state = feed.current();
      const { routes } = transit.current();
      if (cached?.second !== second || cached.state !== state || cached.live.routes !== routes) {
        const today = (await predictionsOrNull(() => predictions.todayNow(now)))?.routes ?? [];
        cached = {
          second,
          state,
          live: { now, view: timeLeftView(state, now, today, routes), predictions: today, routes },
        };
      }
      return cached.live;
    },
  };
}
