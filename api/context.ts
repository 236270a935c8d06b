/**
 * What the api's route sub-apps are given (routes import this module, never app.ts, so no import circle forms).
 * `ApiDeps` is what a caller of createApi passes; `ApiContext` is what createApi completes it into.
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
import type { KakaoAdService } from './kakao/ads';
import type { SharedRead } from './shared-read';
import type { ServiceNotice } from '../contract/admin';
import type { AdRow } from './ads/managed';
import type { GbisSetupOptions } from './bus/feed/gbis/setup-store';
import type { TransitIdsNow } from './bus/feed/transit-config';
import type { MailOutbox } from './mail/outbox';

export type ApiDeps = {
  /** The database (ads, uploads, rate limits); the bus feed has its own handle. */
  db: Db;
  /** Where ad images live (api/storage). */
  storage: ObjectStore;
  /** The bus feed as the routes read it (its lifecycle belongs to the runtime). */
  feed: Pick<BusFeed, 'current' | 'role'>;
  clock: Clock;
  logger: Logger;
  /** The running feed's stored departures (loadDepartures); absent → no history, predictions from the timetable. */
  history?: HistoryLoader;
  /** API_SERVICE_TOKEN, the bearer token of /api/admin; absent → the admin api answers 503. */
  serviceToken?: string;
  /** Fed by the feed's snapshots (createApiRuntime); absent → one over `history` without live evidence. */
  predictions?: PredictionService;
  /** The stored accuracy figure (createApiRuntime, whose lease holder refreshes it daily); absent → one over `history` and `db`. */
  accuracy?: AccuracyService;
  /** SERVICE_NOTICE=on: the notice is on until an admin saves it (api/admin/notice.ts). Default false. */
  serviceNoticeDefault?: boolean;
  /** The e-mail outbox (api/mail/outbox.ts); absent → mailOff, no e-mail. */
  mail?: MailOutbox;
  /** GBIS_DAILY_QUOTA, shown beside today's calls on the admin notice page. */
  dailyQuota?: number;
  /** KAKAO_SKILL_SECRET, the X-Kakao-Skill-Secret of POST /api/kakao/skill; absent → that endpoint answers 503. */
  kakaoSkillSecret?: string;
  /**
   * The chatbot ad rotation (api/kakao/ads.ts), whose owner flushes its impressions
   * (createApiRuntime); absent → the skill answers without ad cards.
   */
  kakaoAds?: KakaoAdService;
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
   * What the GBIS setup page's api needs of the env (api/routes/gbis-setup.ts; createApiRuntime
   * builds it with gbisSetupOf); absent → as BUS_FEED=demo: GBIS not in use.
   */
  gbisSetup?: GbisSetupOptions;
  /**
   * The GBIS ids and timetables in use, in memory (createApiRuntime: transitIdsFromDatabase with the
   * GBIS feed); absent → the defaults of api/bus/feed/transit-config.ts.
   */
  transit?: TransitIdsNow;
};

/** The app's parts built from its dependencies, shared by the route sub-apps. */
export type ApiContext = ApiDeps & {
  mail: MailOutbox;
  transit: TransitIdsNow;
  history: HistoryLoader;
  predictions: PredictionService;
  /** The timeLeft view of this second, shared by GET /api/bus/timeLeft and the KakaoTalk skill. */
  liveView: LiveViewService;
  accuracy: AccuracyService;
  rateLimiters: RateLimiters;
  kakaoAds: KakaoAdService;
  /** What every page view reads, shared for PAGE_READ_TTL_MS and forgotten after any write (api/shared-read.ts). */
  pageReads: { notice: SharedRead<ServiceNotice>; webAds: SharedRead<AdRow[]> };
};
