/**
 * The api's parts from its configuration: clock, database (migrated; the demo's departure history
 * back-filled on first start), bus source, the prediction service, the bus feed (poller or
 * follower, handing its snapshots to the predictions) and the Hono app. `openApiRuntime` begins to
 * open and build them and answers at once: the entries (api/main.ts standalone, server.ts
 * in-process) listen while the database opens, their probes saying `starting` meanwhile (ADR 025);
 * `start()` begins the background work once the entry listens (ADR 013), and the history's work
 * (the demo back-fill, the day's accuracy) once its first page is answered.
 */
import { chmodSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { ApiEnv } from './env';
import { createApi, type Api } from './app';
import { offsetClock, systemClock, type Clock } from './clock';
import { openDatabase } from './db/client';
import { createDemoSource } from './bus/feed/demo/source';
import { backfillDemoHistory, loadDepartures } from './bus/predictions/departures/store';
import { createBusFeed, type BusFeed } from './bus/feed/service';
import { createAccuracyService } from './bus/predictions/accuracy';
import { createPredictionService, type HistoryLoader } from './bus/predictions/service';
import type { FeedSource } from './bus/feed/snapshot';
import { gbisSetupOf, overridesOf, transitIdsFromDatabase } from './bus/feed/gbis/setup-store';
import { transitIdsNow } from './bus/feed/transit-config';
import { consoleLogger, type Logger } from './logger';
import { openObjectStore } from './storage';
import { scheduleOrphanSweep } from './ads/images';
import { freeDiskBytes, MB } from './readiness';
import { startingHealthRoutes } from './routes/health';
import { runRetention } from './privacy/retention';
import { issueSetupToken, setupPath } from './admin/setup';
import { createKakaoAdService, IMPRESSION_FLUSH_MS } from './kakao/ads';
import { storedSecret } from '../lib/secrets';
import type { Db } from './db/client';
import { mailboxAddress } from './mail/address';
import { createMailOutbox, mailOff, type MailOutbox } from './mail/outbox';
import { createMailSender, smtpTransport, type MailSender } from './mail/sender';

export type ApiRuntime = {
  app: Api;
  feed: BusFeed;
  /** The one-time setup page's path with its token, when no admin exists yet; the entry (server.ts, main.ts) prints it once it listens. */
  setupPath: string | null;
  /**
   * Starts the background work: the bus feed's lease loop (and so the polls), the chatbot ads'
   * first read and the housekeeping timers. The entries call it once the server listens, so a
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

async function buildApiRuntime(
  env: ApiEnv,
  parts: { logger: Logger; clock: Clock; embedded: boolean; serviceToken: string | null },
): Promise<ApiRuntime> {
  const { logger, clock, embedded, serviceToken } = parts;
  // The GBIS source (and its XML parser) is loaded only for the real feed. It reads its ids from the
  // database before each poll, never before start() (env > the admin page's saved setup > defaults:
  // docs/gbis.md §Setup page), into `transit`, where the page views read their timetables.
  const source: FeedSource =
    env.BUS_FEED === 'gbis'
      ? new (await import('./bus/feed/gbis/source')).GbisSource({
          serviceKey: env.GBIS_SERVICE_KEY ?? '',
          baseUrl: env.GBIS_BASE_URL,
          ids: () => transit.refresh(),
          logger,
        })
      : createDemoSource({ seed: env.DEMO_SEED });
  const opening = performance.now();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  logger.info(
    `[db] ${embedded ? `PGlite under DATA_DIR ${env.DATA_DIR}` : 'PostgreSQL'} open and migrated in ` +
      `${Math.round(performance.now() - opening)} ms.`,
  );
  const transit = env.BUS_FEED === 'gbis' ? transitIdsFromDatabase(database.db, overridesOf(env)) : transitIdsNow();
  const setupToken = await issueSetupToken(database.db, clock.now());
  const storage = await openObjectStore(env);
  // The demo's history is back-filled by start(), after the entry's first page. Until it is written,
  // history reads wait for it; the timeLeft view meanwhile estimates from the timetable
  // (PredictionService.todayNow).
  let backfilled!: () => void;
  const backfill = new Promise<void>((resolve) => (backfilled = resolve));
  const history: HistoryLoader = async (range) => {
    await backfill;
    return loadDepartures(database.db, { source: source.name, ...range });
  };
  const predictions = createPredictionService({
    loadHistory: history,
    logger,
    transit,
    rangeCalibration: () => accuracy.rangeCalibration(),
  });
  const feed = await createBusFeed({
    database,
    source,
    clock,
    dailyQuota: env.GBIS_DAILY_QUOTA,
    logger,
    onSnapshot: predictions.observe,
  });
  const accuracy = createAccuracyService({
    db: database.db,
    clock,
    loadHistory: history,
    source: source.name,
    transit,
  });
  const kakaoAds = createKakaoAdService({ db: database.db, logger, publicBaseUrl: env.PUBLIC_BASE_URL });
  const mail = openMail(env, { db: database.db, clock, logger, isLeader: () => feed.role() === 'leader' });
  const stops: (() => void)[] = [];
  const app = createApi({
    db: database.db,
    storage,
    feed,
    clock,
    logger,
    history,
    predictions,
    accuracy,
    serviceToken: serviceToken ?? undefined,
    serviceNoticeDefault: env.SERVICE_NOTICE === 'on',
    dailyQuota: env.GBIS_DAILY_QUOTA,
    gbisSetup: gbisSetupOf(env),
    transit,
    kakaoSkillSecret: env.KAKAO_SKILL_SECRET,
    kakaoAds,
    mail: mail.outbox,
    imageStorageMaxBytes: env.IMAGE_STORAGE_MAX_MB * MB,
    // The disk matters when the embedded database or the local store's images live on it.
    dataDirFreeBytes:
      (embedded || env.STORAGE === 'local') && env.DATA_DIR !== 'memory'
        ? () => freeDiskBytes(env.DATA_DIR)
        : undefined,
  });
  let localDoor: Server | null = null;
  let starting: Promise<void> | null = null;
  if (env.BUS_FEED !== 'demo') backfilled(); // nothing to wait for
  const backfillDemo = async () => {
    try {
      const written = await backfillDemoHistory(database.db, { seed: env.DEMO_SEED, now: clock.now() });
      logger.info(`[departures] demo history: ${written} back-filled departures written (none when already present).`);
    } catch (error) {
      logger.error('[departures] the demo history back-fill failed; predicting from what is stored:', error);
    } finally {
      backfilled();
    }
  };
  const refreshAccuracy = async () => {
    const started = performance.now();
    if (feed.role() === 'leader' && (await accuracy.refresh(clock.now()))) {
      logger.info(`[accuracy] today's prediction accuracy computed in ${Math.round(performance.now() - started)} ms.`);
    }
  };
  // close() ends the wait for the first page: a process stopped before it back-fills nothing.
  let closing = false;
  let stopWaiting!: () => void;
  const closed = new Promise<void>((resolve) => (stopWaiting = resolve));
  let historyWork: Promise<void> = Promise.resolve();
  const afterFirstAnswer = async (firstAnswer: Promise<void>) => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, HISTORY_WORK_WAIT_MS).unref()));
    await Promise.race([firstAnswer, waited, closed]);
    clearTimeout(timer);
    if (closing) return backfilled();
    if (env.BUS_FEED === 'demo') await backfillDemo();
    // Today's figure as soon as the history is there (a first start has none stored), off the pages' way.
    void refreshAccuracy().catch((error: unknown) => logger.error('[accuracy] run failed:', error));
  };
  const start = async (firstAnswer: Promise<void>) => {
    try {
      await feed.start();
      if (embedded && env.DATA_DIR !== 'memory') localDoor = await openLocalDoor(app, env.DATA_DIR, logger);
      void kakaoAds.refresh(clock.now()); // so that not even the first chatbot answer waits for the ad list
      const impressionFlush = setInterval(() => void kakaoAds.flush(), IMPRESSION_FLUSH_MS).unref();
      stops.push(
        () => clearInterval(impressionFlush),
        // The outbox's rounds, every 5 s; only the lease holder sends (api/mail/sender.ts).
        mail.sender?.start() ?? (() => undefined),
        // Orphan images (api/ads/images.ts), every 5 minutes in every instance: each may have issued uploads.
        scheduleOrphanSweep({ db: database.db, storage, clock, logger }),
        // What is past the privacy policy's retention (api/privacy/retention.ts), in the lease holder only.
        scheduleHourly('retention', logger, () => runRetention({ db: database.db, storage, clock, logger, feed })),
        // The accuracy figure, by the lease
        // holder only, in the first hour after 00:30 KST; the other instances read what it stored.
        scheduleHourly('accuracy', logger, refreshAccuracy),
      );
    } catch (error) {
      backfilled(); // nothing will be back-filled: history reads go on with what is stored
      throw error;
    }
    historyWork = afterFirstAnswer(firstAnswer);
  };
  return {
    app,
    feed,
    setupPath: setupToken ? setupPath(setupToken) : null,
    start: (firstAnswer = Promise.resolve()) => (starting ??= start(firstAnswer)),
    close: async () => {
      await starting?.catch(() => undefined); // a signal during start() waits for it, then undoes it
      closing = true;
      stopWaiting();
      await historyWork; // a back-fill under way ends (one transaction) before the database closes
      for (const stop of stops) stop();
      await new Promise((resolve) => {
        if (!localDoor) return resolve(undefined);
        localDoor.close(resolve);
        localDoor.closeAllConnections();
      });
      await feed.stop();
      await kakaoAds.flush();
      await database.close();
    },
  };
}

/**
 * The e-mail of a deployment: with SMTP_URL, an outbox whose rows the lease holder's sender delivers
 * over SMTP; without, mailOff (nothing queued, nothing sent).
 */
function openMail(
  env: ApiEnv,
  parts: { db: Db; clock: Clock; logger: Logger; isLeader: () => boolean },
): { outbox: MailOutbox; sender: MailSender | null } {
  const { SMTP_URL, MAIL_FROM, PUBLIC_BASE_URL } = env;
  // api/env.ts requires MAIL_FROM (one mailbox) and PUBLIC_BASE_URL with SMTP_URL: SMTP_URL alone decides.
  if (!SMTP_URL || !MAIL_FROM || !PUBLIC_BASE_URL) {
    parts.logger.info('[mail] SMTP_URL is not set: no e-mail is sent.');
    return { outbox: mailOff, sender: null };
  }
  const sender = createMailSender({ ...parts, transport: smtpTransport(SMTP_URL), from: MAIL_FROM });
  const bank = [env.AD_BANK_NAME, env.AD_BANK_ACCOUNT, env.AD_BANK_HOLDER] as const;
  const outbox = createMailOutbox({
    letters: {
      baseUrl: PUBLIC_BASE_URL,
      bankAccount: bank[0] && bank[1] && bank[2] ? { bank: bank[0], number: bank[1], holder: bank[2] } : null,
    },
    adminEmails: env.ADMIN_NOTIFY_EMAILS,
    messageIdHost: mailboxAddress(MAIL_FROM)!.address.split('@')[1],
    kick: sender.kick,
    logger: parts.logger,
  });
  return { outbox, sender };
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
async function openLocalDoor(app: Api, dataDir: string, logger: Logger): Promise<Server | null> {
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
