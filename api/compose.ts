/**
 * The api's one composition root: every service the api is made of is built here. The runtime
 * (api/runtime.ts) opens them from its configuration (openApiServices: database, bus source and
 * feed, storage, predictions, chatbot ads, e-mail), then starts and closes them; a test brings its
 * own database, storage and feed and has the rest built the same way (composeApi, through
 * tests/setup/api.ts). createApi (api/app.ts) only mounts the routes on the context built here.
 */
import type { FeedSourceName } from '../contract/bus';
import type { ApiEnv } from './env';
import type { Clock } from './clock';
import type { ApiContext, ApiSettings } from './context';
import { openDatabase, type Database, type Db } from './db/client';
import { createDemoSource } from './bus/feed/demo/source';
import { loadDepartures } from './bus/predictions/departures/store';
import { createBusFeed, type BusFeed } from './bus/feed/service';
import { createAccuracyService } from './bus/predictions/accuracy';
import { latestTimetableRestarts } from './bus/predictions/restarts';
import { cadenceOf, DEVELOPMENT_KEY_QUOTA } from './bus/predictions/backtest';
import { createLiveView } from './bus/live-view';
import { createPredictionService, type HistoryLoader } from './bus/predictions/service';
import type { FeedSource } from './bus/feed/snapshot';
import { gbisSetupOf, overridesOf, transitIdsFromDatabase } from './bus/feed/gbis/setup-store';
import { transitIdsNow, type TransitIds } from './bus/feed/transit-config';
import type { Logger } from './logger';
import { openObjectStore } from './storage';
import { freeDiskBytes, MB } from './readiness';
import { issueSetupToken } from './admin/setup';
import { getNotice } from './admin/notice';
import { listServedAds } from './ads/managed';
import { createChatbotAdService, noChatbotAds, type ChatbotAdService } from './skill/ads';
import { createRateLimiters } from './rate-limit';
import { sharedRead } from './shared-read';
import { mailboxAddress } from './mail/address';
import { createMailOutbox, mailOff, type MailOutbox } from './mail/outbox';
import { createMailSender, smtpTransport, type MailSender } from './mail/sender';
import { createWorkerPool, type WorkerPool } from './worker-pool';
import { predictionJobs } from './bus/predictions/jobs';
import { workerParser } from './bus/feed/gbis/discover';
import { pushHostsOf } from './reminders/push-endpoint';
import { TRIAL_SUBJECT, vapidKeysOf } from './reminders/push';
import { liveBusTimes } from './reminders/moment';
import { createReminderScheduler, type ReminderScheduler } from './reminders/scheduler';

/** How long the notice and the web banner list are shared by every page view (at most this old). */
export const PAGE_READ_TTL_MS = 1000;

/**
 * What composeApi is given: the opened database, storage and feed, the clock and the logger; the
 * services a caller built itself (the runtime's, wired to its feed and lease; a test's stubs), the
 * others being built here; and the settings.
 */
export type ApiParts = ApiSettings &
  Pick<ApiContext, 'db' | 'storage' | 'feed' | 'clock' | 'logger' | 'jobs' | 'parseDiscovery'> &
  Partial<Pick<ApiContext, 'history' | 'predictions' | 'accuracy' | 'mail' | 'chatbotAds' | 'transit'>>;

/**
 * The context every route sub-app is given, from `parts`: what is absent is built here (no history
 * → none stored; the default timetables; predictions recalibrated by the accuracy's stored
 * calibration; no e-mail; no chatbot ad cards), then the live view, the rate limiters and the
 * page reads shared for PAGE_READ_TTL_MS.
 */
export function composeApi(parts: ApiParts): ApiContext {
  const { db, clock, logger, feed } = parts;
  const history = parts.history ?? (async () => []);
  const transit = parts.transit ?? transitIdsNow();
  const { predictions, accuracy } = predictionServices({
    ...parts,
    history,
    transit,
    source: feed.current().source,
  });
  const pageRead = <T>(read: () => Promise<T>) => sharedRead(read, { clock, ttlMs: PAGE_READ_TTL_MS });
  return {
    ...parts,
    history,
    transit,
    predictions,
    accuracy,
    mail: parts.mail ?? mailOff,
    chatbotAds: parts.chatbotAds ?? noChatbotAds,
    liveView: createLiveView({ feed, clock, predictions, transit, logger }),
    rateLimiters: createRateLimiters(db),
    pageReads: {
      notice: pageRead(() => getNotice(db, parts.serviceNoticeDefault ?? false)),
      webAds: pageRead(() => listServedAds(db, 'web', clock.now())),
    },
  };
}

/**
 * The predictions of the feed named `source` over `history` and their accuracy (the one given, or
 * one over `history` and `db`), the predictions' told ranges recalibrated by the accuracy backtest's
 * stored calibration. Built before the feed by the runtime, whose snapshots the predictions observe.
 */
function predictionServices(
  parts: Pick<ApiContext, 'db' | 'clock' | 'logger' | 'history' | 'transit' | 'jobs'> &
    Partial<Pick<ApiContext, 'predictions' | 'accuracy' | 'dailyQuota'>> & { source: FeedSourceName },
): Pick<ApiContext, 'predictions' | 'accuracy'> {
  const { db, clock, logger, history, transit, source, jobs, dailyQuota = DEVELOPMENT_KEY_QUOTA } = parts;
  const cadence = cadenceOf(source, dailyQuota);
  const accuracy =
    parts.accuracy ?? createAccuracyService({ db, clock, loadHistory: history, source, jobs, transit, cadence });
  const predictions =
    parts.predictions ??
    createPredictionService({
      loadHistory: history,
      logger,
      jobs,
      transit,
      rangeCalibration: () => accuracy.rangeCalibration(),
      loadRestarts: async () =>
        Object.fromEntries(
          (await latestTimetableRestarts(db, source)).map((restart) => [restart.routeNo, restart.since]),
        ),
    });
  return { predictions, accuracy };
}

/** What openApiServices opened: the context createApi mounts the routes on, and what the runtime starts and closes. */
export type ApiServices = {
  context: ApiContext;
  /** The database (migrated), closed last. */
  database: Database;
  /** The worker thread the jobs (context.jobs) run in, closed before the database. */
  workers: WorkerPool;
  feed: BusFeed;
  chatbotAds: ChatbotAdService;
  /** The outbox's sender, which the lease holder runs; null without SMTP_URL (openMail). */
  mailSender: MailSender | null;
  /** The reminders' scheduler, which the lease holder runs; null without VAPID keys (production without VAPID_*). */
  reminders: ReminderScheduler | null;
  /** The one-time setup link's token while no admin exists (api/admin/setup.ts), else null. */
  setupToken: string | null;
  /**
   * Lets the history reads (context.history) go on. With the demo feed they wait for the back-fill
   * the runtime writes after the entry's first page (the live view meanwhile estimates from the
   * timetable: PredictionService.todayNow); other feeds have nothing to wait for.
   */
  historyWritten: () => void;
};

/**
 * Opens the database (migrated) and builds every service on it from `env`: the bus source (the
 * GBIS one reads its ids from the database before each poll, never before the feed starts: env >
 * the admin page's saved setup > defaults, docs/gbis.md §Setup page), the object store, the
 * predictions, the bus feed handing its snapshots to them and to the reminders' scheduler, the
 * chatbot ads and the e-mail.
 * Nothing runs in the background yet (api/runtime.ts start).
 * @throws DataDirBusyError, an unreachable database or a failed migration (openDatabase), a
 *   misconfigured GBIS source or object store, a VAPID key that cannot be kept under DATA_DIR.
 */
export async function openApiServices(
  env: ApiEnv,
  settings: { logger: Logger; clock: Clock; embedded: boolean; serviceToken: string | null },
): Promise<ApiServices> {
  const { logger, clock, embedded, serviceToken } = settings;
  const source = await openFeedSource(env, logger, () => transit.refresh());
  const database = await openLoggedDatabase(env, embedded, logger);
  const { db } = database;
  const transit = env.BUS_FEED === 'gbis' ? transitIdsFromDatabase(db, overridesOf(env)) : transitIdsNow();
  const setupToken = await issueSetupToken(db, clock.now());
  const storage = await openObjectStore(env);
  let historyWritten!: () => void;
  const written = new Promise<void>((resolve) => (historyWritten = resolve));
  if (env.BUS_FEED !== 'demo') historyWritten(); // nothing to wait for
  const history: HistoryLoader = async (range) => {
    await written;
    return loadDepartures(db, { source: source.name, ...range });
  };
  const workers = createWorkerPool();
  const jobs = predictionJobs(workers);
  const { predictions, accuracy } = predictionServices({
    db,
    clock,
    logger,
    history,
    transit,
    jobs,
    source: source.name,
    dailyQuota: env.GBIS_DAILY_QUOTA,
  });
  const vapid = vapidKeysOf(env, embedded);
  if (!vapid) {
    logger.warn('[reminders] VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are not set: reminders are off.');
  } else if (vapid.subject === TRIAL_SUBJECT) {
    logger.warn(
      `[reminders] no VAPID_SUBJECT and no https PUBLIC_BASE_URL: the contact is ${TRIAL_SUBJECT}, ` +
        "which Apple's push service refuses (iPhone and iPad get no reminders).",
    );
  }
  let reminders: ReminderScheduler | null = null;
  const feed = await createBusFeed({
    database,
    source,
    clock,
    dailyQuota: env.GBIS_DAILY_QUOTA,
    logger,
    onSnapshot: (snapshot) => {
      predictions.observe(snapshot);
      reminders?.kick(); // after handing it to the predictions: the up buses are the snapshot's
    },
  });
  const chatbotAds = createChatbotAdService({ db, logger, publicBaseUrl: env.PUBLIC_BASE_URL });
  const isLeader = () => feed.role() === 'leader';
  const mail = openMail(env, { db, clock, logger, isLeader });
  const context = composeApi({
    db,
    storage,
    feed,
    clock,
    logger,
    jobs,
    parseDiscovery: workerParser(workers),
    history,
    predictions,
    accuracy,
    transit,
    chatbotAds,
    mail: mail.outbox,
    serviceToken: serviceToken ?? undefined,
    serviceNoticeDefault: env.SERVICE_NOTICE === 'on',
    dailyQuota: env.GBIS_DAILY_QUOTA,
    gbisSetup: gbisSetupOf(env),
    skillSecret: env.KAKAO_SKILL_SECRET,
    pushHosts: pushHostsOf(env.PUSH_ENDPOINT_HOSTS),
    vapidPublicKey: vapid?.publicKey,
    imageStorageMaxBytes: env.IMAGE_STORAGE_MAX_MB * MB,
    // The disk matters when the embedded database or the local store's images live on it.
    dataDirFreeBytes:
      (embedded || env.STORAGE === 'local') && env.DATA_DIR !== 'memory'
        ? () => freeDiskBytes(env.DATA_DIR)
        : undefined,
  });
  if (vapid) {
    reminders = createReminderScheduler({
      db,
      clock,
      logger,
      vapid,
      isLeader,
      busTimes: () => liveBusTimes(context),
    });
  }
  return {
    context,
    database,
    workers,
    feed,
    chatbotAds,
    mailSender: mail.sender,
    reminders,
    setupToken,
    historyWritten,
  };
}

/**
 * The bus source of BUS_FEED: the GBIS one (loaded, with its XML parser, only for the real feed),
 * reading the ids in use from `ids` before each poll, or the seeded demo simulator.
 */
async function openFeedSource(env: ApiEnv, logger: Logger, ids: () => Promise<TransitIds>): Promise<FeedSource> {
  if (env.BUS_FEED !== 'gbis') return createDemoSource({ seed: env.DEMO_SEED });
  const { GbisSource } = await import('./bus/feed/gbis/source');
  return new GbisSource({ serviceKey: env.GBIS_SERVICE_KEY ?? '', baseUrl: env.GBIS_BASE_URL, ids, logger });
}

/** Opens (and migrates) the database of DATABASE_URL, or PGlite under DATA_DIR, and logs how long it took. */
async function openLoggedDatabase(env: ApiEnv, embedded: boolean, logger: Logger): Promise<Database> {
  const opening = performance.now();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  logger.info(
    `[db] ${embedded ? `PGlite under DATA_DIR ${env.DATA_DIR}` : 'PostgreSQL'} open and migrated in ` +
      `${Math.round(performance.now() - opening)} ms.`,
  );
  return database;
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
