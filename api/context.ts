/**
 * What the api's route sub-apps are given (routes import this module, never app.ts or compose.ts,
 * so no import circle forms): the services the composition root builds (api/compose.ts
 * composeApi) and the settings it was given.
 */
import type { Clock } from './clock';
import type { BusFeed } from './bus/feed/service';
import type { AccuracyService } from './bus/predictions/accuracy';
import type { LiveViewService } from './bus/live-view';
import type { HistoryLoader, PredictionService } from './bus/predictions/service';
import type { Db } from './db/client';
import type { Logger } from './logger';
import type { RateLimiters } from './rate-limit';
import type { ObjectStore } from './storage/types';
import type { ChatbotAdService } from './skill/ads';
import type { SharedRead } from './shared-read';
import type { ServiceNotice } from '../contract/admin';
import type { AdRow } from './ads/managed';
import type { GbisSetupOptions } from './bus/feed/gbis/setup-store';
import type { TransitIdsNow } from './bus/feed/transit-config';
import type { MailOutbox } from './mail/outbox';
import type { PushHost } from './reminders/push-endpoint';
import type { PredictionJobs } from './bus/predictions/jobs';
import type { DiscoveryParser } from './bus/feed/gbis/discover';

/** The api's settings, from its env (api/compose.ts openApiServices); a test gives those it needs. */
export type ApiSettings = {
  /** API_SERVICE_TOKEN, the bearer token of /api/admin; absent → the admin api answers 503. */
  serviceToken?: string;
  /** SERVICE_NOTICE=on: the notice is on until an admin saves it (api/admin/notice.ts). Default false. */
  serviceNoticeDefault?: boolean;
  /** GBIS_DAILY_QUOTA, shown beside today's calls on the admin notice page. */
  dailyQuota?: number;
  /** KAKAO_SKILL_SECRET, the X-Kakao-Skill-Secret of POST /api/kakao/skill; absent → that endpoint answers 503. */
  skillSecret?: string;
  /**
   * IMAGE_STORAGE_MAX_MB in bytes: the most the issued, not yet removed ad images may take
   * (api/ads/images.ts issueImageUpload). Default IMAGE_STORAGE_DEFAULT_BYTES (1024 MB).
   */
  imageStorageMaxBytes?: number;
  /**
   * The bytes free on DATA_DIR's disk (api/readiness.ts freeDiskBytes), read by /api/readyz and
   * before each presign; absent (nothing of ours on a local disk, or a test) → not checked.
   * @throws when the disk cannot be read (the probe then reports the disk).
   */
  dataDirFreeBytes?: () => Promise<number>;
  /**
   * What the GBIS setup page's api needs of the env (api/routes/gbis-setup.ts; built with
   * gbisSetupOf); absent → as BUS_FEED=demo: GBIS not in use.
   */
  gbisSetup?: GbisSetupOptions;
  /** PUSH_ENDPOINT_HOSTS, parsed: the push services reminders are sent to; absent → the browsers' (DEFAULT_PUSH_HOSTS). */
  pushHosts?: readonly PushHost[];
  /**
   * The VAPID public key (base64url) pages subscribe with (api/reminders/push.ts): VAPID_PUBLIC_KEY,
   * or the one kept under DATA_DIR on the embedded default; absent → reminders are off (503).
   */
  vapidPublicKey?: string;
};

/** The services of the api, shared by the route sub-apps, and its settings. */
export type ApiContext = ApiSettings & {
  /** The database (ads, uploads, rate limits); the bus feed has its own handle. */
  db: Db;
  /** Where ad images live (api/storage). */
  storage: ObjectStore;
  /** The bus feed as the routes read it (its lifecycle belongs to the runtime). */
  feed: Pick<BusFeed, 'current' | 'role'>;
  clock: Clock;
  logger: Logger;
  /** The CPU-heavy jobs, each run in the worker thread (api/worker-pool.ts): the admin's backtest, the services'. */
  jobs: PredictionJobs;
  /** Where GBIS discovery's answers are parsed: the worker thread (api/bus/feed/gbis/worker.ts). */
  parseDiscovery: DiscoveryParser;
  /** The running feed's stored departures (loadDepartures); a test's may have none. */
  history: HistoryLoader;
  /** The GBIS ids and timetables in use, in memory (transitIdsFromDatabase with the GBIS feed, else the defaults). */
  transit: TransitIdsNow;
  /** Today's predictions, fed by the feed's snapshots in the runtime. */
  predictions: PredictionService;
  /** The stored accuracy figure, which the runtime's lease holder refreshes daily. */
  accuracy: AccuracyService;
  /** The e-mail outbox (api/mail/outbox.ts); mailOff without SMTP_URL. */
  mail: MailOutbox;
  /** The chatbot ad rotation (api/skill/ads.ts), whose owner flushes its impressions; noChatbotAds → no ad cards. */
  chatbotAds: ChatbotAdService;
  /** The timeLeft view of this second, shared by GET /api/bus/timeLeft and the KakaoTalk skill. */
  liveView: LiveViewService;
  rateLimiters: RateLimiters;
  /** What every page view reads, shared for PAGE_READ_TTL_MS and forgotten after any write (api/shared-read.ts). */
  pageReads: { notice: SharedRead<ServiceNotice>; webAds: SharedRead<AdRow[]> };
};
