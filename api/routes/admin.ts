/**
 * Admin api (/api/admin/*), for the web's server side only (docs/product.md §6: admin endpoints require
 * a service token that only the web holds): `Authorization: Bearer <API_SERVICE_TOKEN>`.
 * Unset token → 503 on every route; missing or wrong token → 401. The acting admin is named in the
 * X-Admin-User header (audit log).
 *
 * Sign-in and sessions (admin-auth.ts), the prediction backtest, the service notice, the feed's
 * health with today's GBIS calls, the inquiries (a reply by e-mail, and the deletion of one on its
 * sender's request, privacy policy 제7조), the e-mails that failed (and their resend) and the audit log.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import { z } from 'zod';
import { AdminNoticeSchema, AUDIT_PAGE_SIZE, STALE_EDIT_MESSAGE, type MailOverview } from '../../contract/admin';
import { TIMETABLE_RESTART_SAVED, TimetableRestartSchema } from '../../contract/admin-feed';
import { latestTimetableRestarts, saveTimetableRestart } from '../bus/predictions/restarts';
import { INQUIRY_REPLY_MESSAGES, InquiryReplySchema } from '../../contract/inquiries';
import { PREDICTION_ACCURACY_DAYS } from '../../contract/bus';
import { listAudit } from '../admin/audit';
import { getAdminNotice, saveNotice } from '../admin/notice';
import { backtestHistoryRange, cadenceOf, DEVELOPMENT_KEY_QUOTA } from '../bus/predictions/backtest';
import { callsSpent } from '../bus/feed/store';
import { planOfDay } from '../bus/feed/poll-plan';
import type { TimetableShape } from '../bus/predictions/changes';
import { locatedRoutes } from '../bus/feed/transit-config';
import { HISTORY_WINDOW_DAYS } from '../bus/predictions/day-plan';
import { timeLeftView } from '../bus/time-left-view';
import { deleteInquiry, listInquiries, replyToInquiry, type ReplyRefusal } from '../inquiries/model';
import { resendMail, undeliveredMail } from '../mail/outbox';
import { sendingFailure } from '../mail/sending-state';
import { addServiceDays, serviceClock } from '../time';
import { formatKstDate, formatKstTime, kstInstant } from '../../contract/kst';
import type { ApiContext } from '../context';
import { actorOf, requireServiceToken } from '../service-token';
import { jsonBody } from '../validate';
import { adminAuthRoutes } from './admin-auth';

const BacktestQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(HISTORY_WINDOW_DAYS).default(14) });

/** Why a reply was refused (409), in the admins' words. */
const REPLY_REFUSALS: Record<Exclude<ReplyRefusal, 'not-found'>, string> = {
  'no-email': INQUIRY_REPLY_MESSAGES.noEmail,
  replied: INQUIRY_REPLY_MESSAGES.replied,
  'mail-off': INQUIRY_REPLY_MESSAGES.mailOff,
};

/** How many inquiries the admin list shows, newest first. */
const INQUIRY_PAGE_SIZE = 500;

/** Mounts the bearer-token guard and the admin routes; needs the database, clock, feed, history and token. */
export function adminRoutes(context: ApiContext) {
  const { db, clock, feed, history, serviceToken, mail } = context;
  const enabledByDefault = context.serviceNoticeDefault ?? false;
  return new Hono()
    .use(requireServiceToken(serviceToken))
    .use(async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    })
    .route('/', adminAuthRoutes(context))
    .get(
      '/backtest',
      validator('query', (query) => {
        const parsed = BacktestQuerySchema.safeParse(query);
        if (!parsed.success) {
          throw new HTTPException(400, { message: `days: a whole number from 1 to ${HISTORY_WINDOW_DAYS}` });
        }
        return parsed.data;
      }),
      async (c) => {
        const { days } = c.req.valid('query');
        const today = serviceClock(clock.now()).serviceDate;
        // The days of the public figure: the report the lease holder stored with it today.
        const stored = days === PREDICTION_ACCURACY_DAYS ? await context.accuracy.report(today) : null;
        if (stored) return c.json(stored);
        const records = await history(backtestHistoryRange(days, today));
        // CPU-bound, ~80 ms per day evaluated: in the worker thread.
        const routes = context.transit.current().routes;
        const cadence = cadenceOf(feed.current().source, context.dailyQuota ?? DEVELOPMENT_KEY_QUOTA);
        return c.json(await context.jobs.backtest({ history: records, days, before: today, routes, cadence }));
      },
    )
    .get('/notice', async (c) => c.json(await getAdminNotice(db, enabledByDefault)))
    .put('/notice', jsonBody(AdminNoticeSchema), async (c) => {
      const change = { actor: actorOf(c), enabledByDefault };
      const saved = await saveNotice(db, c.req.valid('json'), change, clock.now());
      if (saved === 'stale') throw new HTTPException(409, { message: STALE_EDIT_MESSAGE });
      return c.json(saved);
    })
    .get('/feed', async (c) => {
      const now = clock.now();
      const state = feed.current();
      return c.json({
        ...timeLeftView(state, now).feed,
        lastError: state.lastError,
        role: feed.role(),
        callsToday: await callsSpent(db, formatKstDate(now)),
        dailyQuota: context.dailyQuota ?? null,
        // The GBIS source is the metered one; the demo simulator is free.
        plan:
          context.dailyQuota === undefined
            ? null
            : planOfDay(context.dailyQuota, state.source === 'gbis', locatedRoutes(context.transit.current()).length),
        timetableChanges: (await context.predictions.timetableChanges(now)).map(({ routeNo, change }) => ({
          routeNo,
          since: change.since,
          dayTypes: change.dayTypes,
          before: change.before && shapeForAdmins(change.before, change.since),
          after: change.after && shapeForAdmins(change.after, change.since),
        })),
        timetableRestarts: await latestTimetableRestarts(db, state.source),
      });
    })
    .post('/timetable-restarts', jsonBody(TimetableRestartSchema), async (c) => {
      const restart = c.req.valid('json');
      const today = serviceClock(clock.now()).serviceDate;
      if (restart.since > today || restart.since < addServiceDays(today, -HISTORY_WINDOW_DAYS)) {
        throw new HTTPException(400, { message: `날짜는 최근 ${HISTORY_WINDOW_DAYS}일 안의 날이어야 합니다.` });
      }
      await saveTimetableRestart(db, feed.current().source, restart, actorOf(c), clock.now());
      return c.json({ success: true, message: TIMETABLE_RESTART_SAVED }, 201);
    })
    .get('/inquiries', async (c) => c.json({ success: true, data: await listInquiries(db, INQUIRY_PAGE_SIZE) }))
    .post('/inquiries/:id{[0-9]+}/reply', jsonBody(InquiryReplySchema), async (c) => {
      const { reply } = c.req.valid('json');
      const outcome = await replyToInquiry(db, Number(c.req.param('id')), reply, actorOf(c), clock.now(), mail);
      if (outcome === 'not-found') throw new HTTPException(404, { message: '문의를 찾을 수 없습니다.' });
      if (outcome !== true) throw new HTTPException(409, { message: REPLY_REFUSALS[outcome] });
      return c.json({ success: true, message: INQUIRY_REPLY_MESSAGES.sent });
    })
    .delete('/inquiries/:id{[0-9]+}', async (c) => {
      if (!(await deleteInquiry(db, Number(c.req.param('id')), actorOf(c), clock.now()))) {
        throw new HTTPException(404, { message: '문의를 찾을 수 없습니다.' });
      }
      return c.json({ success: true, message: 'Deleted' });
    })
    .get('/mail', async (c) => {
      const overview: MailOverview = {
        enabled: mail.enabled,
        failing: await sendingFailure(db),
        ...(await undeliveredMail(db)),
      };
      return c.json(overview);
    })
    .post('/mail/:id{[0-9]+}/resend', async (c) => {
      if (!mail.enabled) throw new HTTPException(409, { message: '이메일 발송이 꺼져 있습니다(SMTP_URL).' });
      if (!(await resendMail(db, Number(c.req.param('id')), actorOf(c), clock.now()))) {
        throw new HTTPException(404, { message: '다시 보낼 실패한 메일이 없습니다.' });
      }
      mail.kick();
      return c.json({ success: true, message: 'Queued' });
    })
    .get('/audit', async (c) => c.json({ success: true, data: await listAudit(db, AUDIT_PAGE_SIZE) }));
}

/** A timetable's shape as the admin feed page shows it: the first departure "HH:mm" (KST), the headway in whole minutes. */
function shapeForAdmins({ firstSec, headwaySec }: TimetableShape, serviceDate: string) {
  return { first: formatKstTime(kstInstant(serviceDate, firstSec / 60)), headwayMin: Math.round(headwaySec / 60) };
}
