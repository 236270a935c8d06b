/**
 * The api's metrics (docs/deploy.md §Metrics), in the process's registry
 * (lib/observability/metrics.ts): its requests' durations (timeApiRequests), the polls by outcome
 * (counted by the poller), and, read at each scrape from the running api (observeApi), the feed's
 * age and staleness, the GBIS calls of the KST day against the quota, the e-mail (the outbox, and
 * whether sends fail), the day's
 * prediction accuracy and the readiness. Names start `campus_bus_`; seconds and timestamps are
 * seconds (Unix time for a timestamp).
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Gauge } from 'prom-client';
import { httpRequestDuration, registry } from '../lib/observability/metrics';
import type { Clock } from './clock';
import type { Db } from './db/client';
import { isInService } from './time';
import type { FeedState } from './bus/feed/store';
import { allCallsSpent } from './bus/feed/store';
import { isStale } from './bus/time-left-view';
import { outboxSummary, type OutboxSummary } from './mail/outbox';
import { sharedRead, type SharedRead } from './shared-read';
import { sendingFailure } from './mail/sending-state';
import type { AccuracyService } from './bus/predictions/accuracy';
import { formatKstDate } from '../contract/kst';

/** The label of an api request no route answered (its 404). */
const UNMATCHED = '(unmatched)';

/**
 * Times every api request into http_request_duration_seconds, labelled with the pattern of the
 * route that answered it (`/api/ads/status/:token`), or UNMATCHED.
 */
export const timeApiRequests: MiddlewareHandler = async (c, next) => {
  const stop = httpRequestDuration.startTimer();
  try {
    await next();
  } finally {
    const answered = matchedRoutes(c).findLast((route) => route.method !== 'ALL');
    stop({ method: c.req.method, route: answered?.path ?? UNMATCHED, status_code: c.res.status });
  }
};

/** The poller's polls, by outcome: `ok`, `failed` (the source failed), `budget` (skipped: the day's quota spent). */
export const feedPolls = new Counter({
  name: 'campus_bus_feed_polls_total',
  help: 'Polls of the bus source by this instance, by outcome: ok, failed, budget (skipped, the quota spent).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** What the scrape-time metrics read of the running api. */
export type ObservedApi = {
  db: Db;
  clock: Clock;
  feed: { current(): FeedState };
  accuracy: Pick<AccuracyService, 'get'>;
  /** GBIS_DAILY_QUOTA: calls per dataset per KST day. */
  dailyQuota: number;
  /** Whether the api is ready (GET /api/readyz's check: the database takes a write, the disk has room). */
  ready(): Promise<boolean>;
};

/** The observed api, and its outbox summary read once per scrape for the three gauges that show it. */
let observed: (ObservedApi & { outbox: SharedRead<OutboxSummary> }) | null = null;

/** How long one outbox read serves a scrape's gauges (a scrape reads them within milliseconds). */
const SCRAPE_READ_MS = 1000;

/**
 * Has the scrape-time metrics read `api` (the runtime calls it once started).
 * @returns the function that stops them (the runtime's close): they then report nothing.
 */
export function observeApi(api: ObservedApi): () => void {
  const watched = {
    ...api,
    outbox: sharedRead(() => outboxSummary(api.db), { clock: api.clock, ttlMs: SCRAPE_READ_MS }),
  };
  observed = watched;
  return () => {
    if (observed === watched) observed = null;
  };
}

/** A gauge set at each scrape from the observed api, and empty while none is. */
function scrapedGauge<L extends string>(
  settings: { name: string; help: string; labelNames?: readonly L[] },
  read: (gauge: Gauge<L>, api: NonNullable<typeof observed>) => Promise<void> | void,
): void {
  new Gauge<L>({
    ...settings,
    registers: [registry],
    async collect() {
      this.reset();
      if (observed) await read(this, observed);
    },
  });
}

scrapedGauge(
  {
    name: 'campus_bus_feed_age_seconds',
    help: 'Seconds since the feed’s latest snapshot was taken; absent before the first.',
  },
  (gauge, { feed, clock }) => {
    const { snapshot } = feed.current();
    if (snapshot) gauge.set((clock.now().getTime() - Date.parse(snapshot.takenAt)) / 1000);
  },
);
scrapedGauge(
  {
    name: 'campus_bus_feed_stale',
    help: '1 while the feed is stale (a poll failed, or the planned one is over a minute late), else 0.',
  },
  (gauge, { feed, clock }) => gauge.set(isStale(feed.current(), clock.now()) ? 1 : 0),
);
scrapedGauge(
  { name: 'campus_bus_in_service_hours', help: '1 in the buses’ service hours (05:00–24:30 KST), else 0.' },
  (gauge, { clock }) => gauge.set(isInService(clock.now()) ? 1 : 0),
);
scrapedGauge(
  {
    name: 'campus_bus_gbis_calls_today',
    help: 'GBIS calls spent in the current KST day, by quota dataset (every instance’s).',
    labelNames: ['dataset'] as const,
  },
  async (gauge, { db, clock }) => {
    const calls = await allCallsSpent(db, formatKstDate(clock.now()));
    for (const [dataset, spent] of Object.entries(calls)) gauge.set({ dataset }, spent);
  },
);
scrapedGauge(
  { name: 'campus_bus_gbis_daily_quota', help: 'GBIS_DAILY_QUOTA: calls allowed per dataset per KST day.' },
  (gauge, { dailyQuota }) => gauge.set(dailyQuota),
);
scrapedGauge(
  {
    name: 'campus_bus_mail_outbox_messages',
    help: 'E-mails in the outbox, by status: pending, failed (gave up), sent (kept for the retention).',
    labelNames: ['status'] as const,
  },
  async (gauge, { outbox }) => {
    const { rows } = await outbox.get();
    for (const [status, count] of Object.entries(rows)) gauge.set({ status }, count);
  },
);
scrapedGauge(
  {
    name: 'campus_bus_mail_sending_failing',
    help: '1 while sends to the SMTP server fail (since the last one that went out), else 0.',
  },
  async (gauge, { db }) => gauge.set((await sendingFailure(db)) ? 1 : 0),
);
scrapedGauge(
  {
    name: 'campus_bus_mail_outbox_retrying',
    help: 'Pending e-mails that failed at least one attempt (the SMTP server down or refusing).',
  },
  async (gauge, { outbox }) => gauge.set((await outbox.get()).retrying),
);
scrapedGauge(
  {
    name: 'campus_bus_mail_outbox_oldest_pending_age_seconds',
    help: 'Seconds the oldest pending e-mail has waited; 0 when none waits.',
  },
  async (gauge, { outbox, clock }) => {
    const { oldestPendingAt } = await outbox.get();
    gauge.set(oldestPendingAt ? (clock.now().getTime() - oldestPendingAt.getTime()) / 1000 : 0);
  },
);
for (const [name, figure, what] of [
  ['campus_bus_prediction_eta_score_percent', 'etaScore', 'the ETA score, percent'],
  ['campus_bus_prediction_mae_seconds', 'maeSec', 'the mean absolute error, seconds'],
] as const) {
  scrapedGauge(
    {
      name,
      help: `The day’s prediction accuracy figure over the last 14 service days: ${what}, by method (estimate, dayBefore).`,
      labelNames: ['method'] as const,
    },
    async (gauge, { accuracy }) => {
      const figures = await accuracy.get();
      for (const method of ['estimate', 'dayBefore'] as const) {
        const value = figures[method][figure];
        if (value !== null) gauge.set({ method }, value);
      }
    },
  );
}
scrapedGauge(
  {
    name: 'campus_bus_prediction_computed_timestamp_seconds',
    help: 'When the day’s accuracy figure was last computed, Unix time; absent before the first.',
  },
  async (gauge, { accuracy }) => {
    const { computedAt } = await accuracy.get();
    if (computedAt) gauge.set(Date.parse(computedAt) / 1000);
  },
);
scrapedGauge(
  {
    name: 'campus_bus_ready',
    help: '1 while the api is ready (its database takes a write, its disk has room), else 0.',
  },
  async (gauge, api) => gauge.set((await api.ready()) ? 1 : 0),
);
