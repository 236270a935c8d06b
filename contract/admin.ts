/**
 * Admin payloads of the Campus Bus API (ours, beside docs/product.md §7): sign-in and sessions, the first
 * admin's setup, the service notice (docs/product.md §1, §4), the audit log and the messages of the admin pages
 * (docs/product.md §2, §8; the English ones are the spec's own words). Inquiries are in contract/inquiries.ts.
 */
import { z } from 'zod';
import { freeText, oneLineText, text, trimmedLine } from './strings';

/** docs/product.md §8 and §2: the admin pages' messages, word for word (the English ones are quoted as the spec has them). */
export const ADMIN_MESSAGES = {
  emptyApplicationList: '요청받은 광고가 없습니다.',
  approved: '광고가 승인되었습니다.',
  /** Followed by ": {server message}" when the server gives one (docs/product.md §8). */
  approveFailed: '광고 승인에 실패했습니다',
  rejected: '광고가 거절되었습니다.',
  rejectFailed: '광고 거절에 실패했습니다.',
  /** docs/product.md §2, §5: the application list and detail for a type other than web or kakao. */
  invalidType: 'invalid ad type',
  /** docs/product.md §8: the edit page for a type other than web or kakao. */
  invalidTypeEdit: 'Invalid ad type.',
  invalidUrl: 'invalid URL',
  listLoadFailed: 'Failed to load the ad list.',
  modified: 'ad has been modified',
  /** Followed by ": {server message}" (docs/product.md §8 "Failed to modify the ad: {server message}"). */
  modifyFailedWith: 'Failed to modify the ad',
  modifyFailed: 'Failed to modify the ad.',
  deleteFailed: 'Failed to delete the ad.',
  uploadFailed: 'Failed to upload the image.',
  deleteConfirm: 'Do you want to delete the ad?',
  deletedTitle: 'Completed',
  deletedText: 'Deleted',
  loading: 'Loading...',
  noTitle: '(no title)',
  noLink: '(no link)',
  noImage: 'no image',
} as const;

/** docs/product.md §2: the ad edit page's heading per type. */
export const AD_EDIT_HEADINGS = {
  web: 'Web ad post / edit',
  kakao: 'Chatbot ad post / edit',
  other: 'Ad management',
} as const;

/** Admin usernames: 3–32 of a–z, 0–9, '.', '_', '-' (lower-cased), so the audit log reads plainly. */
export const AdminUsernameSchema = trimmedLine('아이디', { required_error: '아이디를 입력해주세요.' })
  .toLowerCase()
  .min(1, '아이디를 입력해주세요.')
  .regex(/^[a-z0-9._-]{3,32}$/, '아이디는 영문 소문자, 숫자, . _ - 로 3~32자입니다.');

/** Passwords: 12–128 characters (NIST SP 800-63B: length over composition rules). */
export const PASSWORD_MIN_LENGTH = 12;
export const NewPasswordSchema = oneLineText('비밀번호', { required_error: '비밀번호를 입력해주세요.' })
  .min(1, '비밀번호를 입력해주세요.')
  .min(PASSWORD_MIN_LENGTH, `비밀번호는 ${PASSWORD_MIN_LENGTH}자 이상이어야 합니다.`)
  .max(128, '비밀번호는 128자 이하여야 합니다.');

/**
 * POST /api/admin/login body. The password is not length-checked here (an old one may be shorter),
 * and only its NUL is refused: it is compared, never stored or shown.
 */
export const LoginRequestSchema = z.object({
  username: trimmedLine('아이디').toLowerCase().min(1).max(64),
  password: text().min(1).max(1024),
});

/** An admin session as the api answers it: the opaque id the web keeps in its cookie, its admin and end. */
export const AdminSessionSchema = z.object({
  sessionId: text().min(1),
  username: text(),
  /** ISO instant; the session is refused from then on. */
  expiresAt: text().datetime({ offset: true }),
});
export type AdminSession = z.infer<typeof AdminSessionSchema>;

/** POST /api/admin/setup body: the one-time token printed at start and the first admin's account. */
export const SetupRequestSchema = z.object({
  token: oneLineText('설정 링크').min(1).max(200),
  username: AdminUsernameSchema,
  password: NewPasswordSchema,
});

/**
 * docs/product.md §1, §4: the blocking service-suspension notice on the home screen, the admins' switch.
 * `titleEn` and `textEn`: its English, optional (null, or absent in a notice saved before they
 * existed); English pages show it when both are given, else the Korean (docs/product.md §1 Languages).
 */
export const ServiceNoticeSchema = z.object({
  enabled: z.boolean(),
  title: trimmedLine('제목').min(1, '제목을 입력해주세요.').max(100, '100자 이하로 입력해주세요.'),
  text: freeText().trim().min(1, '내용을 입력해주세요.').max(2000, '2000자 이하로 입력해주세요.'),
  titleEn: trimmedLine('영문 제목').max(100, '100자 이하로 입력해주세요.').nullable().default(null),
  textEn: freeText().trim().max(2000, '2000자 이하로 입력해주세요.').nullable().default(null),
});
export type ServiceNotice = z.infer<typeof ServiceNoticeSchema>;

/**
 * What an admin's save on a version another admin has changed since gets (409, ours): the save is
 * refused, and the form shows what is saved now.
 */
export const STALE_EDIT_MESSAGE = '다른 관리자가 먼저 바꿨습니다.';

/**
 * GET and PUT /api/admin/notice (ours): the notice with its `version`, the ISO instant of its last
 * save (null before any). A PUT names the version it was made on: one made on an older version is
 * refused 409 `{ message: STALE_EDIT_MESSAGE }`, so two admins never overwrite each other unseen.
 */
export const AdminNoticeSchema = ServiceNoticeSchema.extend({
  version: oneLineText('버전').datetime({ offset: true }).nullable(),
});
export type AdminNotice = z.infer<typeof AdminNoticeSchema>;

/** docs/product.md §4: the preset notice, the reference's public-data-portal maintenance announcement (and its English). */
export const DEFAULT_SERVICE_NOTICE: Omit<ServiceNotice, 'enabled'> = {
  title: '서비스 일시 중단 안내',
  text:
    '국가정보자원관리원 데이터센터 화재로 공공데이터포털(data.go.kr)이 점검 중이어서 ' +
    '버스 도착 정보 제공을 일시 중단합니다. 공공데이터포털 점검이 끝나는 대로 서비스를 재개하겠습니다. ' +
    '이용에 불편을 드려 죄송합니다.',
  titleEn: 'Service temporarily suspended',
  textEn:
    'A fire at the National Information Resources Service data center has taken the Public Data Portal ' +
    '(data.go.kr) down for maintenance, so live bus information is suspended. We will resume as soon as ' +
    'the portal is back. We are sorry for the inconvenience.',
};

/** A notice as the home shows it (docs/product.md §1, §4): its Korean and its English, if any. */
export type PublicNotice = Omit<ServiceNotice, 'enabled'>;

/** What the audit log records (issue: every sign-in, approve, reject, edit, reorder, delete and notice change). */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'admin-created',
  'password-reset',
  'approve',
  'reject',
  'edit',
  'reorder',
  'delete',
  'notice',
  'reply',
  'resend',
  'gbis-config',
  'timetable-restart',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  /** ISO instant. */
  at: text().datetime({ offset: true }),
  /** The admin's username; 'cli' for npm run admin:create, 'setup' for the setup link. */
  actor: text(),
  action: z.enum(AUDIT_ACTIONS),
  /** What it acted on: "ad-request:web:12", "ad:kakao:3", "ads:web", "notice", "admin:name". */
  target: text(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditListResponseSchema = z.object({ success: z.boolean(), data: z.array(AuditEntrySchema) });

/** How many audit entries /admin-only/audit shows (the issue: the latest 200). */
export const AUDIT_PAGE_SIZE = 200;

/** The header the web names the acting admin in, for the audit log (behind the service token only). */
export const ADMIN_USER_HEADER = 'X-Admin-User';

/** The backtest methods (api/bus/predictions/backtest.ts), in the order the reports list them. */
export const BACKTEST_METHODS = ['estimate', 'history', 'dayBefore', 'weekBefore', 'timetable'] as const;

const MethodScoreSchema = z.object({
  queries: z.number().int(),
  answered: z.number().int(),
  /** Mean absolute error in seconds; null when nothing was answered. */
  maeSec: z.number().nullable(),
  /** Share of queries answered within their lead's tolerance, in percent; null when none. */
  etaScore: z.number().nullable(),
  /** Share of the answers stating a range whose departure fell inside it (the 80 % range), percent; null for a method without ranges. */
  coverage: z.number().nullable(),
  /** Mean width of the stated ranges, seconds; null for a method without ranges. */
  meanRangeSec: z.number().nullable(),
});
const BacktestScoresSchema = z.object({
  departures: z.number().int(),
  methods: z.object({
    estimate: MethodScoreSchema,
    history: MethodScoreSchema,
    dayBefore: MethodScoreSchema,
    weekBefore: MethodScoreSchema,
    timetable: MethodScoreSchema,
  } satisfies Record<(typeof BACKTEST_METHODS)[number], typeof MethodScoreSchema>),
});

/**
 * The slots learnt for a route and day type, as of the last evaluated day of that type:
 * how many, and their spread (median over the slots of the median |departure − slot|, seconds).
 */
const SlotReportSchema = z.object({
  routeNo: text(),
  dayType: z.enum(['weekday', 'saturday', 'holiday']),
  serviceDate: text(),
  count: z.number().int(),
  spreadSec: z.number(),
});

/** GET /api/admin/backtest?days=N: the prediction backtest over the last N service days. */
export const BacktestReportSchema = z.object({
  days: z.array(text()),
  routes: z.array(BacktestScoresSchema.extend({ routeNo: text() })),
  overall: BacktestScoresSchema,
  /** Per route and day type evaluated whose estimate was learnt from history (not the timetable). */
  slots: z.array(SlotReportSchema),
  /**
   * How the estimate's spreads are recalibrated so that their 80 % ranges hold: the levels G(k / 20),
   * k = 0…20, learnt over the days evaluated (docs/predictions.md §The range and the rider-safe
   * time); null when none was learnt.
   */
  rangeCalibration: z
    .array(z.number().min(0).max(1))
    .length(21)
    .refine((levels) => levels.every((level, k) => k === 0 || level >= levels[k - 1]), 'levels must not decrease')
    .nullable(),
});
export type BacktestReport = z.infer<typeof BacktestReportSchema>;

/** What caused an e-mail (the outbox's kinds; docs/product.md §11 E-mail). */
export const MAIL_KINDS = [
  'application-received',
  'application-admin',
  'approved',
  'rejected',
  'inquiry-admin',
  'inquiry-reply',
] as const;

/** An e-mail given up on (an SMTP 5xx, or 24 h of retries), as the admins' mail page lists it. */
export const UndeliveredMailSchema = z.object({
  id: z.number().int(),
  kind: z.enum(MAIL_KINDS),
  recipients: z.array(text()),
  subject: text(),
  /** RFC 5322 Message-ID, kept by a resend. */
  messageId: text(),
  attempts: z.number().int(),
  /** The last failure as the SMTP server or the network said it. */
  lastError: text().nullable(),
  /** ISO instant it was queued. */
  createdAt: text().datetime({ offset: true }),
});
export type UndeliveredMail = z.infer<typeof UndeliveredMailSchema>;

/**
 * GET /api/admin/mail: whether e-mail is on (SMTP_URL set), whether sends fail now (since when, ISO,
 * and the SMTP server's or the network's last message; null while they go out), how many e-mails
 * wait to be sent, how many failed, and the failed ones, newest first (at most 100).
 */
export const MailOverviewSchema = z.object({
  enabled: z.boolean(),
  failing: z
    .object({
      since: text().datetime({ offset: true }),
      lastError: text(),
      lastErrorAt: text().datetime({ offset: true }),
    })
    .nullable(),
  pending: z.number().int(),
  failedCount: z.number().int(),
  failed: z.array(UndeliveredMailSchema),
});
export type MailOverview = z.infer<typeof MailOverviewSchema>;
