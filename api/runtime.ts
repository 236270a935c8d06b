/**
 * The api's life: `openApiRuntime` begins to open its services (api/compose.ts openApiServices,
 * the one composition root: database migrated, bus source and feed, predictions, storage, chatbot
 * ads, e-mail) and build the Hono app on them (api/app.ts), and answers at once: the entries
 * (api/main.ts standalone, server.ts in-process) listen while the database opens, their probes
 * saying `starting` meanwhile (ADR 025); `start()` begins the background work once the entry
 * listens (ADR 013), and the history's work (the demo back-fill, the day's accuracy) once its first
 * page is answered; `close()` undoes it all.
 */
import { chmodSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { ApiEnv } from './env';
import { checkRouteInfo } from './bus/feed/gbis/route-info';
import { gbisHttp } from './bus/feed/gbis/http';
import { createApi, type Api } from './app';
import { offsetClock, systemClock, type Clock } from './clock';
import { openApiServices, type ApiServices } from './compose';
import { backfillDemoHistory } from './bus/predictions/departures/store';
import type { BusFeed } from './bus/feed/service';
import { consoleLogger, type Logger } from './logger';
import { scheduleOrphanSweep } from './ads/images';
import { readiness, startingHealthRoutes } from './routes/health';
import { observeApi } from './metrics';
import { runRetention } from './privacy/retention';
import { setupPath } from './admin/setup';
import { IMPRESSION_FLUSH_MS } from './skill/ads';
import { storedSecret } from '../lib/secrets';

export type ApiRuntime = {
  app: Api;
  feed: BusFeed;
  /** The one-time setup page's path with its token, when no admin exists yet; the entry (server.ts, main.ts) prints it once it listens. */
  setupPath: string | null;
  /**
   * Starts the background work: the bus feed's lease loop (and so the polls), the chatbot ads'
   * first read and the housekeeping timers; and has the metrics read it (api/metrics.ts observeApi). The entries call it once the server listens, so a
   * process that fails to start (port in use, missing build) spends no GBIS calls. The history's
   * work (the demo back-fill, then the day's accuracy backtest) begins once `firstAnswer` resolves
   * (the entry's first answered page: lib/lifecycle.ts firstAnswer), or HISTORY_WORK_WAIT_MS after
   * start when no page comes, so that a start's first page does not share the CPU with it (ADR 025).
   * Without `firstAnswer` it begins at once.
   */
  start(firstAnswer?: Promise<void>): Promise<void>;
  close(): Promise<void>;
};

/** The api from the moment its entry listens, while the database opens and after (ADR 025). */
export type StartingApi = {
  /** The runtime once the database is open (and migrated); rejects with what opening threw (openApiRuntime). */
  ready: Promise<ApiRuntime>;
  /**
   * The api's handler from the first moment: until `ready`, GET /api/healthz answers 200 and GET
   * /api/readyz 503, both `starting` (api/routes/health.ts startingHealthRoutes), and every other
   * request waits for `ready`, then is the api's; 503 `{ message }` when opening failed (the
   * entry is then exiting).
   */
  fetch(request: Request): Promise<Response>;
  /** The admin api's bearer token: API_SERVICE_TOKEN, or on the embedded default the one kept under DATA_DIR; null → admin api disabled. */
  serviceToken: string | null;
  /** Whether the database is the embedded PGlite under DATA_DIR (no DATABASE_URL). */
  embedded: boolean;
  /**
   * Waits for `ready`, then starts the runtime (ApiRuntime.start with `firstAnswer`).
   * @returns the started runtime.
   * @throws what `ready` rejects with.
   */
  start(firstAnswer?: Promise<void>): Promise<ApiRuntime>;
  /** Closes the runtime once opening is over; nothing is left open when opening failed. */
  close(): Promise<void>;
};

/**
 * How long (ms) after start() the history's work waits for the entry's first page before it begins
 * anyway (ApiRuntime.start): a process nobody visits still back-fills and computes the day's figure.
 */
export const HISTORY_WORK_WAIT_MS = 5_000;

/** What a request waiting for the api gets when its database failed to open (the process is exiting). */
export const OPENING_FAILED_MESSAGE = 'The api could not open its database; see its log.';

/** The api's clock: real time, or running from CLOCK_START when it is set. */
export function apiClock(env: Pick<ApiEnv, 'CLOCK_START'>): Clock {
  return env.CLOCK_START ? offsetClock(new Date(env.CLOCK_START)) : systemClock;
}

/**
 * Begins to open the database and build the api, and answers at once, so that the entry listens
 * meanwhile (ADR 025); nothing runs in the background until `start()`. `clock` is the env's
 * (CLOCK_START) unless given (the bench's simulated hour). With the demo feed, history reads
 * (predictions, accuracy) wait for the back-fill that `start()` runs after the first page.
 * @throws when the embedded default's API_SERVICE_TOKEN cannot be kept under DATA_DIR (storedSecret).
 *   What opening throws rejects `ready` instead: DataDirBusyError (another process holds DATA_DIR),
 *   an unreachable database, a failed migration, a misconfigured GBIS source.
 */
export function openApiRuntime(env: ApiEnv, logger: Logger = consoleLogger, clock: Clock = apiClock(env)): StartingApi {
  const embedded = !env.DATABASE_URL;
  // Production (PostgreSQL) passes the token in env; the embedded default keeps one under DATA_DIR.
  const serviceToken = env.API_SERVICE_TOKEN ?? (embedded ? storedSecret(env.DATA_DIR, 'API_SERVICE_TOKEN') : null);
  if (!serviceToken) logger.warn('[admin] API_SERVICE_TOKEN is not set: the admin api answers 503.');
  let opened: ApiRuntime | null = null;
  const ready = buildApiRuntime(env, { logger, clock, embedded, serviceToken }).then((runtime) => (opened = runtime));
  // Handled by whoever awaits it (start(), a waiting request); a failure before anyone does must not
  // end the process as an unhandled rejection: the entry reports it once it listens (lib/lifecycle.ts).
  ready.catch(() => undefined);
  const whileOpening = new Hono()
    .route('/api', startingHealthRoutes({ source: env.BUS_FEED, clock }))
    .all('*', async (c) => {
      const runtime = await ready.catch(() => null);
      return runtime ? runtime.app.fetch(c.req.raw) : c.json({ message: OPENING_FAILED_MESSAGE }, 503);
    });
  return {
    ready,
    serviceToken,
    embedded,
    fetch: async (request) => (opened ? opened.app.fetch(request) : whileOpening.fetch(request)),
    start: async (firstAnswer) => {
      const runtime = await ready;
      await runtime.start(firstAnswer);
      return runtime;
    },
    close: () =>
      ready.then(
        (runtime) => runtime.close(),
        () => undefined,
      ),
  };
}

/**
 * Opens the database and builds the api, and waits for it: openApiRuntime's `ready` (the tests and
 * the scripts, which serve nothing meanwhile).
 * @throws what openApiRuntime throws or its `ready` rejects with.
 */
export async function createApiRuntime(
  env: ApiEnv,
  logger: Logger = consoleLogger,
  clock: Clock = apiClock(env),
): Promise<ApiRuntime> {
  return openApiRuntime(env, logger, clock).ready;
}

/**
 * Opens the services (openApiServices) and builds the app on them; `start` and `close` run and
 * stop the background work (startHousekeeping, historyWork) around the feed's lease loop.
 */
async function buildApiRuntime(
  env: ApiEnv,
  settings: { logger: Logger; clock: Clock; embedded: boolean; serviceToken: string | null },
): Promise<ApiRuntime> {
  const services = await openApiServices(env, settings);
  const { feed, chatbotAds, database, workers } = services;
  const app = createApi(services.context);
  const history = historyWork(env, services);
  const stops: (() => void)[] = [];
  let localSocket: Server | null = null;
  let starting: Promise<void> | null = null;
  const start = async (firstAnswer: Promise<void>) => {
    try {
      await feed.start();
      if (settings.embedded && env.DATA_DIR !== 'memory') {
        localSocket = await openLocalSocket(app, env.DATA_DIR, settings.logger);
      }
      stops.push(...startHousekeeping(services, history.refreshAccuracy));
      const { db, clock, accuracy, dailyQuota = 0, dataDirFreeBytes } = services.context;
      stops.push(
        observeApi({
          db,
          clock,
          feed,
          accuracy,
          dailyQuota,
          ready: async () => !(await readiness({ db, clock, dataDirFreeBytes })).failure,
        }),
      );
    } catch (error) {
      services.historyWritten(); // nothing will be back-filled: history reads go on with what is stored
      throw error;
    }
    history.begin(firstAnswer);
  };
  return {
    app,
    feed,
    setupPath: services.setupToken ? setupPath(services.setupToken) : null,
    start: (firstAnswer = Promise.resolve()) => (starting ??= start(firstAnswer)),
    close: async () => {
      await starting?.catch(() => undefined); // a signal during start() waits for it, then undoes it
      await history.stop(); // a back-fill under way ends (one transaction) before the database closes
      for (const stop of stops) stop();
      await new Promise((resolve) => {
        if (!localSocket) return resolve(undefined);
        localSocket.close(resolve);
        localSocket.closeAllConnections();
      });
      await feed.stop();
      await chatbotAds.flush();
      await workers.close();
      await database.close();
    },
  };
}

/**
 * The housekeeping of a started api: the chatbot ads' first read and their impressions' flush, the
 * e-mail outbox's rounds, the reminders' checks, the orphan image sweep, the retention and the accuracy figure.
 * @returns the functions that stop each.
 */
function startHousekeeping(services: ApiServices, refreshAccuracy: () => Promise<void>): (() => void)[] {
  const { context, feed, chatbotAds, mailSender, reminders } = services;
  const { db, storage, clock, logger } = context;
  void chatbotAds.refresh(clock.now()); // so that not even the first chatbot answer waits for the ad list
  const impressionFlush = setInterval(() => void chatbotAds.flush(), IMPRESSION_FLUSH_MS).unref();
  return [
    () => clearInterval(impressionFlush),
    // The outbox's rounds, every 5 s; only the lease holder sends (api/mail/sender.ts).
    mailSender?.start() ?? (() => undefined),
    // The reminders, after each snapshot and when one falls due; only the lease holder sends (api/reminders/scheduler.ts).
    reminders?.start() ?? (() => undefined),
    // Orphan images (api/ads/images.ts), every 5 minutes in every instance: each may have issued uploads.
    scheduleOrphanSweep({ db, storage, clock, logger }),
    // What is past the privacy policy's retention (api/privacy/retention.ts), in the lease holder only.
    scheduleHourly('retention', logger, () => runRetention({ db, storage, clock, logger, feed })),
    // The accuracy figure, by the lease holder only, in the first hour after 00:30 KST; the other
    // instances read what it stored.
    scheduleHourly('accuracy', logger, refreshAccuracy),
    // GBIS route info, once a KST day, by the lease holder (api/bus/feed/gbis/route-info.ts).
    scheduleHourly('route info', logger, () => readRouteInfo(context, feed)),
  ];
}

/** The daily route-info check of a GBIS feed with its service key, by the lease holder; nothing otherwise. */
async function readRouteInfo(context: ApiServices['context'], feed: ApiServices['feed']): Promise<void> {
  const { gbisSetup, db, clock, logger, transit, parseDiscovery, dailyQuota } = context;
  if (gbisSetup?.feed !== 'gbis' || !gbisSetup.serviceKey || feed.role() !== 'leader' || !dailyQuota) return;
  const http = gbisHttp({ serviceKey: gbisSetup.serviceKey, baseUrl: gbisSetup.baseUrl });
  const ids = await transit.refresh();
  const check = await checkRouteInfo({
    db,
    gbis: { http, parse: parseDiscovery },
    ids,
    now: clock.now(),
    dailyQuota,
    logger,
  });
  if (check.outcome === 'read' && check.changed.length > 0) await transit.refresh();
}

/**
 * The history's work (ADR 025): once `begin`'s first answer resolves, or HISTORY_WORK_WAIT_MS
 * after, the demo back-fill (then the history reads waiting for it go on), then today's plan of the
 * predictions, then today's accuracy figure (`refreshAccuracy`, by the lease holder). `stop` ends
 * the wait, so a process stopped before it back-fills nothing, and waits for a back-fill under way.
 */
function historyWork(
  env: ApiEnv,
  services: ApiServices,
): { begin(firstAnswer: Promise<void>): void; refreshAccuracy(): Promise<void>; stop(): Promise<void> } {
  const { context, feed, historyWritten } = services;
  const { db, clock, logger, accuracy, jobs, predictions } = context;
  let closing = false;
  let stopWaiting!: () => void;
  const closed = new Promise<void>((resolve) => (stopWaiting = resolve));
  let work: Promise<void> = Promise.resolve();
  const backfillDemo = async () => {
    try {
      const written = await backfillDemoHistory(db, {
        seed: env.DEMO_SEED,
        now: clock.now(),
        days: env.DEMO_HISTORY_DAYS,
        jobs,
      });
      logger.info(`[departures] demo history: ${written} back-filled departures written (none when already present).`);
    } catch (error) {
      logger.error('[departures] the demo history back-fill failed; predicting from what is stored:', error);
    } finally {
      historyWritten();
    }
  };
  const refreshAccuracy = async () => {
    const started = performance.now();
    if (feed.role() === 'leader' && (await accuracy.refresh(clock.now()))) {
      logger.info(`[accuracy] today's prediction accuracy computed in ${Math.round(performance.now() - started)} ms.`);
    }
  };
  const afterFirstAnswer = async (firstAnswer: Promise<void>) => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, HISTORY_WORK_WAIT_MS).unref()));
    await Promise.race([firstAnswer, waited, closed]);
    clearTimeout(timer);
    if (closing) return historyWritten();
    if (env.BUS_FEED === 'demo') await backfillDemo();
    // The riders' plan of today before the accuracy run: the worker thread runs one job at a time,
    // and a plan queued behind a backtest kept the times modal (which awaits it) waiting for seconds.
    await predictions
      .today(clock.now())
      .catch((error: unknown) => logger.error('[predictions] first plan failed:', error));
    if (closing) return;
    // Today's figure as soon as the history is there (a first start has none stored), off the pages' way.
    // A run the close cut short (its worker thread ended) is no failure.
    void refreshAccuracy().catch((error: unknown) => closing || logger.error('[accuracy] run failed:', error));
  };
  return {
    refreshAccuracy,
    begin: (firstAnswer) => (work = afterFirstAnswer(firstAnswer)),
    stop: async () => {
      closing = true;
      stopWaiting();
      await work;
    },
  };
}

/** The file under DATA_DIR where the embedded server serves its api to local CLIs (owner-only). */
export const LOCAL_API_SOCKET = 'api.sock';

/**
 * The embedded server owns DATA_DIR (one process per data directory), so CLIs that only read
 * (`npm run backtest`) ask the running api instead, over a Unix socket in DATA_DIR readable by
 * the owner only (who can read DATA_DIR's secrets anyway). Admin endpoints still need the service
 * token. A socket file left by a crashed owner is replaced (this process holds the lock).
 * @returns the server, or null (logged) when the socket cannot be opened (e.g. a path too long).
 */
async function openLocalSocket(app: Api, dataDir: string, logger: Logger): Promise<Server | null> {
  const path = join(dataDir, LOCAL_API_SOCKET);
  rmSync(path, { force: true });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, resolve);
    });
    chmodSync(path, 0o600);
    return server;
  } catch (error) {
    logger.warn(`[api] no local socket at ${path} for CLIs (${(error as Error).message}).`);
    return null;
  }
}

/** The housekeeping jobs run a minute after start (not in the way of start-up), then every hour. */
const HOUSEKEEPING_FIRST_RUN_MS = 60 * 1000;
const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs `job` a minute after start, so a process that restarts often still does it, then every hour.
 * A failed run is logged under `name` and retried at the next.
 * @returns a stop function that clears both timers.
 */
function scheduleHourly(name: string, logger: Logger, job: () => Promise<unknown>): () => void {
  const run = () => job().catch((error: unknown) => logger.error(`[${name}] run failed:`, error));
  const first = setTimeout(run, HOUSEKEEPING_FIRST_RUN_MS).unref();
  const every = setInterval(run, HOUSEKEEPING_INTERVAL_MS).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
