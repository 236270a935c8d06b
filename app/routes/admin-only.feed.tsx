/**
 * /admin-only/feed (docs/product.md §11): the bus feed's health and the prediction
 * backtest of the last 14 days. The two loads are independent: one that fails says so in its own
 * section and leaves the other on the page.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData, type MetaFunction } from '@remix-run/react';
import { BacktestTables } from '~/components/admin/backtest-tables';
import { FeedHealth } from '~/components/admin/feed-health';
import { LoadFailed } from '~/components/admin/list-states';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { getBacktest, getFeedStatus } from '~/models/bus.server';
import { requireAdmin } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

/** The backtest window of this page: two weeks, so every day type is seen at least twice. */
const BACKTEST_DAYS = 14;
const TITLE = '버스 정보 상태';
const FEED_FAILED = '버스 정보 수집 상태를 불러오지 못했습니다.';
const BACKTEST_FAILED = '예측 정확도를 불러오지 못했습니다.';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const [feed, backtest] = await Promise.allSettled([
    getFeedStatus(context, admin.username),
    getBacktest(context, admin.username, BACKTEST_DAYS),
  ]);
  return json({
    feed: settled(feed, 'feed status', context.reqId),
    backtest: settled(backtest, 'backtest', context.reqId),
  });
}

export default function FeedPage() {
  const { feed, backtest } = useLoaderData<typeof loader>();
  return (
    <div className="admin-page">
      <h1 className="admin-page__title">{TITLE}</h1>
      <section aria-labelledby="feed-title" className="admin-section">
        <h2 id="feed-title" className="admin-section__title">
          수집 상태
        </h2>
        {feed ? <FeedHealth feed={feed} /> : <LoadFailed message={FEED_FAILED} />}
      </section>
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
