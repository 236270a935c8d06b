/**
 * /admin-only/feed (docs/product.md §11): the bus feed's health, the timetable changes the
 * predictions follow with the form that restarts a route's learning, and the prediction backtest
 * of the last 14 days. The two loads are independent: one that fails says so in its own section
 * and leaves the other on the page.
 */
import type { SubmissionResult } from '@conform-to/react';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, type MetaFunction } from '@remix-run/react';
import { TimetableRestartSchema } from '../../contract/admin-feed';
import { BacktestTables } from '~/components/admin/backtest-tables';
import { FeedHealth } from '~/components/admin/feed-health';
import { LoadFailed } from '~/components/admin/list-states';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { TIMETABLE_RESTART_PATH, TimetableRestartForm } from '~/components/admin/timetable-restart-form';
import { getBacktest, getFeedStatus, restartTimetableLearning } from '~/models/bus.server';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/models/session.server';
import { parseForm, readForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

/** The backtest window of this page: two weeks, so every day type is seen at least twice. */
const BACKTEST_DAYS = 14;
const TITLE = '버스 정보 상태';
const FEED_FAILED = '버스 정보 수집 상태를 불러오지 못했습니다.';
const BACKTEST_FAILED = '예측 정확도를 불러오지 못했습니다.';
const RESTART_FAILED = '저장하지 못했습니다. 잠시 후 다시 시도해주세요.';
const FIELDS: FormSpec = { schema: TimetableRestartSchema };

type ActionData = { result: SubmissionResult<string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const [feed, backtest] = await Promise.allSettled([
    getFeedStatus(context, admin.username),
    getBacktest(context, admin.username, BACKTEST_DAYS),
  ]);
  const { flash, headers } = await takeFlash(context, admin);
  return json(
    {
      flash,
      feed: settled(feed, 'feed status', context.reqId),
      backtest: settled(backtest, 'backtest', context.reqId),
    },
    { headers },
  );
}

/** Restarts a route's learning at a date (the api checks the date's range and says why it refuses). */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const formData = await readForm(request, FIELDS);
  if (!formData) return json<ActionData>({ result: refusedForm(RESTART_FAILED) }, { status: 400 });
  const submission = parseForm(formData, TimetableRestartSchema);
  if (submission.status !== 'success') return json<ActionData>({ result: submission.reply() }, { status: 400 });
  try {
    const message = await restartTimetableLearning(context, admin.username, submission.value);
    return redirectWithFlash(context, admin, TIMETABLE_RESTART_PATH, { tone: 'success', message });
  } catch (error) {
    rethrowUnlessUpstream(error);
    if (error.status === 400 && error.serverMessage) {
      return json<ActionData>(
        { result: submission.reply({ fieldErrors: { since: [error.serverMessage] } }) },
        { status: 400 },
      );
    }
    consoleFor(context.reqId).error('[admin/feed] the restart was not saved:', error.message);
    return json<ActionData>({ result: submission.reply({ formErrors: [RESTART_FAILED] }) }, { status: 502 });
  }
}

export default function FeedPage() {
  const { flash, feed, backtest } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  return (
    <div className="admin-page">
      <h1 className="admin-page__title">{TITLE}</h1>
      <div role="status" className="admin-flash">
        {flash && <p className={flash.tone === 'success' ? 'admin-success' : 'admin-error'}>{flash.message}</p>}
      </div>
      <section aria-labelledby="feed-title" className="admin-section">
        <h2 id="feed-title" className="admin-section__title">
          수집 상태
        </h2>
        {feed ? <FeedHealth feed={feed} /> : <LoadFailed message={FEED_FAILED} />}
      </section>
      {feed && (
        <section aria-labelledby="restart-title" className="admin-section">
          <h2 id="restart-title" className="admin-section__title">
            시간표가 바뀐 노선 다시 배우기
          </h2>
          <TimetableRestartForm key={location.key} lastResult={actionData?.result} changes={feed.timetableChanges} />
        </section>
      )}
      <section aria-labelledby="backtest-title" className="admin-section">
        <h2 id="backtest-title" className="admin-section__title">
          예측 정확도 (최근 {BACKTEST_DAYS}일 백테스트)
        </h2>
        {backtest ? <BacktestTables report={backtest} /> : <LoadFailed message={BACKTEST_FAILED} />}
      </section>
    </div>
  );
}

/** The value of a settled load, or null when the api failed (logged, for request `reqId`); other errors are thrown. */
function settled<T>(result: PromiseSettledResult<T>, what: string, reqId: string | undefined): T | null {
  if (result.status === 'fulfilled') return result.value;
  rethrowUnlessUpstream(result.reason);
  consoleFor(reqId).error(`[admin/feed] the ${what} did not load:`, result.reason.message);
  return null;
}

export const meta: MetaFunction = () => [{ title: `${TITLE} | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
