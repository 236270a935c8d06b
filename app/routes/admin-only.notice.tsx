/**
 * /admin-only/notice (spec §2 Admin routes): the switch of the home screen's blocking
 * service-suspension notice (spec §1, §4) with its title and text, then the bus feed's health and
 * the prediction backtest of the last 14 days. One form, one zod schema, checked by conform in the
 * browser and again by the action; it works without JavaScript. The three loads are independent:
 * one that fails says so in its own section and leaves the others on the page.
 */
import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useLocation, useNavigation, type MetaFunction } from '@remix-run/react';
import { z } from 'zod';
import {
  BACKTEST_METHODS,
  DEFAULT_SERVICE_NOTICE,
  ServiceNoticeSchema,
  type AdminFeedStatus,
  type BacktestReport,
  type ServiceNotice,
} from '../../contract/admin';
import { FieldError, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { formatKstDateTime } from '~/utils/kst';
import { SITE_NAME } from '~/components/site-header';
import { getBacktest, getFeedStatus, getServiceNotice, saveServiceNotice } from '~/models/admin.server';
import { parseForm, readForm, refusedForm } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/utils/session.server';
import { UpstreamError } from '~/utils/upstream.server';

const PAGE_PATH = '/admin-only/notice';
const FORM_ID = 'service-notice';
/** The backtest window of this page (the issue: the last 14 days). */
const BACKTEST_DAYS = 14;
const SAVED = '서비스 공지 설정을 저장했습니다.';
const SAVE_FAILED = '저장하지 못했습니다. 잠시 후 다시 시도해주세요.';
const LOAD_FAILED = '불러오지 못했습니다.';

/**
 * The form's schema: the contract's notice, with an unchecked box read as off (a browser sends
 * nothing for it) and Korean messages for an empty title or text (conform sends nothing for them).
 */
const NoticeFormSchema = ServiceNoticeSchema.extend({
  enabled: z.boolean().default(false),
  title: z.string({ required_error: '제목을 입력해주세요.' }).pipe(ServiceNoticeSchema.shape.title),
  text: z.string({ required_error: '내용을 입력해주세요.' }).pipe(ServiceNoticeSchema.shape.text),
});

const SOURCE_LABELS: Record<AdminFeedStatus['source'], string> = {
  demo: '데모 시뮬레이터',
  gbis: '경기도 버스정보(GBIS)',
};
const ROLE_LABELS: Record<AdminFeedStatus['role'], string> = {
  leader: '수집 담당 (leader)',
  follower: '대기 (follower: 다른 인스턴스가 수집)',
};
const METHOD_LABELS: Record<(typeof BACKTEST_METHODS)[number], string> = {
  estimate: '예측(실시간 반영)',
  history: '과거 기록만',
  yesterday: '어제',
  lastWeek: '지난주',
  timetable: '시간표',
};

const DAY_TYPE_LABELS: Record<BacktestReport['slots'][number]['dayType'], string> = {
  weekday: '평일',
  saturday: '토요일',
  holiday: '일요일·공휴일',
};

type ActionData = { result: SubmissionResult<string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const [notice, feed, backtest] = await Promise.allSettled([
    getServiceNotice(context, admin.username),
    getFeedStatus(context, admin.username),
    getBacktest(context, admin.username, BACKTEST_DAYS),
  ]);
  const { flash, headers } = await takeFlash(context, admin);
  return json(
    {
      flash,
      notice: settled(notice, 'notice'),
      feed: settled(feed, 'feed status'),
      backtest: settled(backtest, 'backtest'),
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const formData = await readForm(request);
  if (!formData) return json<ActionData>({ result: refusedForm(SAVE_FAILED) }, { status: 400 });
  const submission = parseForm(withPreset(formData), NoticeFormSchema);
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await saveServiceNotice(context, admin.username, submission.value);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin/notice] the notice was not saved:', error.message);
    return json<ActionData>({ result: submission.reply({ formErrors: [SAVE_FAILED] }) }, { status: 502 });
  }
  return redirectWithFlash(context, admin, PAGE_PATH, { tone: 'success', message: SAVED });
}

/** Every navigation (a refusal answered, or the redirect after a save) starts the form afresh from its answer. */
export default function NoticePage() {
  const { flash, notice, feed, backtest } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="admin-page">
      <h1 className="admin-page__title">서비스 공지와 상태</h1>
      <div role="status" className="admin-flash">
        {flash && <p className={flash.tone === 'success' ? 'admin-success' : 'admin-error'}>{flash.message}</p>}
      </div>
      <section aria-labelledby="notice-title" className="admin-section">
        <h2 id="notice-title" className="admin-section__title">
          서비스 중단 안내
        </h2>
        {notice ? <NoticeForm key={location.key} notice={notice} /> : <p className="admin-error">{LOAD_FAILED}</p>}
      </section>
      <section aria-labelledby="feed-title" className="admin-section">
        <h2 id="feed-title" className="admin-section__title">
          버스 정보 상태
        </h2>
        {feed ? <FeedStatusList feed={feed} /> : <p className="admin-error">{LOAD_FAILED}</p>}
      </section>
      <section aria-labelledby="backtest-title" className="admin-section">
        <h2 id="backtest-title" className="admin-section__title">
          예측 정확도 (최근 {BACKTEST_DAYS}일 백테스트)
        </h2>
        {backtest ? <BacktestTables report={backtest} /> : <p className="admin-error">{LOAD_FAILED}</p>}
      </section>
    </div>
  );
}

function NoticeForm({ notice }: { notice: ServiceNotice }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction === PAGE_PATH;
  const presetPending = pending && navigation.formData?.get('intent') === 'preset';
  const [form, fields] = useForm({
    id: FORM_ID,
    lastResult: pending ? undefined : actionData?.result,
    defaultValue: notice,
    constraint: getZodConstraint(NoticeFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(withPreset(formData), { schema: NoticeFormSchema }),
  });
  const formError = form.errors?.[0];
  return (
    <>
      <p className={`notice-state notice-state--${notice.enabled ? 'on' : 'off'}`}>
        현재: <strong>{notice.enabled ? '표시 중' : '꺼짐'}</strong>
      </p>
      <p className="field__hint">
        켜면 홈 화면을 여는 모든 이용자에게 버스 정보 대신 닫을 수 없는 안내 창이 뜹니다. 공공데이터 점검처럼 버스
        정보를 제공할 수 없을 때만 켜주세요.
      </p>
      <div role="alert">{formError && <p className="admin-error">{formError}</p>}</div>
      <Form method="post" action={PAGE_PATH} {...getFormProps(form)} className="form">
        <Checkbox meta={fields.enabled} label="홈 화면에 서비스 중단 안내 표시" />
        <TextField meta={fields.title} label="제목" inputProps={{ autoComplete: 'off' }} />
        <TextareaField meta={fields.text} label="내용" rows={6} />
        <div className="admin-form__actions">
          <SubmitButton pending={pending} pendingText={presetPending ? '저장' : '저장하는 중…'}>
            저장
          </SubmitButton>
          {/* Saves the switch as checked with the preset title and text; formNoValidate: an emptied field does not block it. */}
          <button
            type="submit"
            name="intent"
            value="preset"
            formNoValidate
            className="button button--small admin-form__secondary"
            disabled={pending}
            aria-describedby="notice-preset-hint"
          >
            {presetPending ? '되돌리는 중…' : '기본 문구로 되돌리기'}
          </button>
          <p id="notice-preset-hint" className="field__hint">
            제목과 내용을 처음 제공된 안내 문구(공공데이터포털 점검 안내)로 바꿔 저장합니다. 표시 여부는 위 체크 상태를
            따릅니다.
          </p>
        </div>
      </Form>
    </>
  );
}

/** A labelled checkbox with its error (conform sends "on" when checked, nothing otherwise). */
function Checkbox({ meta, label }: { meta: FieldMetadata<boolean>; label: string }) {
  const { key, ...props } = getInputProps(meta, { type: 'checkbox' });
  return (
    <div className="field">
      <label className="admin-checkbox">
        <input key={key} {...props} />
        <span>{label}</span>
      </label>
      <FieldError meta={meta as Parameters<typeof FieldError>[0]['meta']} />
    </div>
  );
}

function FeedStatusList({ feed }: { feed: AdminFeedStatus }) {
  const calls = (spent: number) => `${spent}${feed.dailyQuota === null ? '' : ` / ${feed.dailyQuota}`}회`;
  return (
    <dl className="admin-dl">
      <dt>데이터 출처</dt>
      <dd>{SOURCE_LABELS[feed.source]}</dd>
      <dt>마지막 정상 수집</dt>
      <dd>
        {feed.takenAt ? (
          <>
            <time dateTime={feed.takenAt}>{formatKstDateTime(feed.takenAt)}</time>
            {feed.ageSec !== null && ` (${feed.ageSec}초 전)`}
          </>
        ) : (
          '아직 없음'
        )}
      </dd>
      <dt>지연 여부</dt>
      <dd className={feed.stale ? 'admin-error' : undefined}>
        {feed.stale ? '예 (오래된 정보를 보여주는 중)' : '아니요'}
      </dd>
      <dt>운행 시간</dt>
      <dd>{feed.inService ? '운행 중 (05:00–24:30)' : '운행 시간 아님'}</dd>
      <dt>마지막 오류</dt>
      <dd>{feed.lastError ?? '없음'}</dd>
      <dt>도착 정보 API</dt>
      <dd>오늘 호출 {calls(feed.callsToday.arrivals)}</dd>
      <dt>위치 정보 API</dt>
      <dd>오늘 호출 {calls(feed.callsToday.locations)}</dd>
      <dt>이 서버의 역할</dt>
      <dd>{ROLE_LABELS[feed.role]}</dd>
    </dl>
  );
}

function BacktestTables({ report }: { report: BacktestReport }) {
  if (report.days.length === 0) return <p>백테스트할 기록이 아직 없습니다.</p>;
  const tables = [
    { id: 'overall', caption: '전체', scores: report.overall },
    ...report.routes.map((route) => ({ id: route.routeNo, caption: `${route.routeNo}번`, scores: route })),
  ];
  return (
    <>
      <p className="field__hint">
        기간 {report.days[0]} ~ {report.days[report.days.length - 1]} ({report.days.length}일). 평균 오차는 예측한 출발
        시각과 실제 출발의 차이로 작을수록, ETA 점수는 남은 시간에 맞는 허용 오차 안에 든 조회의 비율(TransitApp 방식)로
        클수록 좋습니다.
      </p>
      {tables.map(({ id, caption, scores }) => (
        <div key={id} className="admin-table-wrap">
          <table className="admin-table">
            <caption>
              {caption} (출발 {scores.departures}회)
            </caption>
            <thead>
              <tr>
                <th scope="col">방법</th>
                <th scope="col">평균 오차(MAE)</th>
                <th scope="col">ETA 점수</th>
                <th scope="col">답한 조회</th>
              </tr>
            </thead>
            <tbody>
              {BACKTEST_METHODS.map((method) => {
                const score = scores.methods[method];
                return (
                  <tr key={method}>
                    <th scope="row">{METHOD_LABELS[method]}</th>
                    <td>{score?.maeSec == null ? '없음' : formatSeconds(score.maeSec)}</td>
                    <td>{score?.etaScore == null ? '없음' : `${score.etaScore.toFixed(1)}%`}</td>
                    <td>{score ? `${score.answered} / ${score.queries}` : '없음'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
      {report.slots.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption>학습한 출발 시간표 (노선·요일 유형별 마지막 날 기준)</caption>
            <thead>
              <tr>
                <th scope="col">노선</th>
                <th scope="col">요일 유형</th>
                <th scope="col">출발 시각 수</th>
                <th scope="col">흩어짐(중앙값)</th>
              </tr>
            </thead>
            <tbody>
              {report.slots.map((slot) => (
                <tr key={`${slot.routeNo}-${slot.dayType}`}>
                  <th scope="row">{slot.routeNo}번</th>
                  <td>{DAY_TYPE_LABELS[slot.dayType]}</td>
                  <td>{slot.count}</td>
                  <td>{formatSeconds(slot.spreadSec)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/**
 * "기본 문구로 되돌리기" (intent=preset): the switch as posted with the preset title and text
 * (contract DEFAULT_SERVICE_NOTICE). Used by conform in the browser and by the action alike.
 */
function withPreset(formData: FormData): FormData {
  if (formData.get('intent') !== 'preset') return formData;
  const preset = new FormData();
  for (const [name, value] of formData) preset.append(name, value);
  preset.set('title', DEFAULT_SERVICE_NOTICE.title);
  preset.set('text', DEFAULT_SERVICE_NOTICE.text);
  return preset;
}

/** The value of a settled load, or null when the api failed (logged); other errors are thrown. */
function settled<T>(result: PromiseSettledResult<T>, what: string): T | null {
  if (result.status === 'fulfilled') return result.value;
  if (!(result.reason instanceof UpstreamError)) throw result.reason;
  console.error(`[admin/notice] the ${what} did not load:`, result.reason.message);
  return null;
}

/** Seconds (a mean error) as "3분 12초", or "45초" under a minute. */
function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes}분 ${whole % 60}초` : `${whole}초`;
}

export const meta: MetaFunction = () => [
  { title: `서비스 공지 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
