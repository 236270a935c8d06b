/**
 * /ads/status/{token}: an applicant's private status page of their ad application (docs/product.md
 * §11), reached by the link the form shows once (and the receipt e-mail carries, when the site sends
 * e-mail). It shows the ad type, title and applied date, the months and the price, the review's state (with the reason of a
 * rejection), the paid period, and once the ad runs its impressions and clicks per KST day over
 * the last 30 days (app/components/ad-status-chart.tsx). Dates are KST. The token is the only key:
 * the page is kept out of search engines, caches and Referer headers. An unknown, revoked or
 * malformed token (or one whose application was deleted) gets one 404 page. Works without JavaScript.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData, useRouteError, type MetaFunction } from '@remix-run/react';
import { AD_PAYMENT, accountSentence, amountSentence } from '../../contract/ad-payment';
import { formatWon, priceWon } from '../../contract/prices';
import { AD_TYPE_LABELS, type AdStatus } from '../../contract/ads';
import { AdStatusChart, AdStatusDays } from '~/components/ad-status-chart';
import { Fact } from '~/components/fact';
import { ErrorPanel, RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { getAdStatus } from '~/models/ads.server';
import { formatKstDate, formatKstPeriod } from '../../contract/kst';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatCount } from '../../contract/korean-format';
import { consoleFor } from '../../lib/observability/request-tag';

/** Every answer of the page, its errors included: private, never stored, indexed or leaked in a Referer. */
const PRIVATE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
};

/** The application's state as the page tells it: the review's, or its ad taken down by an admin. */
type State = AdStatus['status'] | 'takenDown';

const STATE_LABELS: Record<State, string> = {
  pending: '검토 중',
  approved: '승인',
  rejected: '거절',
  takenDown: '게재 중단',
};

const STATE_NOTES: Record<Exclude<State, 'takenDown'>, string> = {
  pending: `${AD_PAYMENT.approvalAfterDeposit} 검토가 끝나면 이 페이지에서 결과를 확인할 수 있습니다.`,
  approved: '광고가 승인되었습니다. 게재 기간 동안 광고가 실리고, 노출과 클릭 수가 이 페이지에 쌓입니다.',
  rejected: '광고가 승인되지 않았습니다. 궁금한 점은 문의하기로 알려주세요.',
};

/**
 * The application's status from the api, its type's name, and the bank account to pay into (AD_BANK_*;
 * null when not configured), told while the application waits for its deposit.
 * @throws Response 404 for a token the api does not know, 429 when this phone asked too often,
 *   502 when the api fails.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  let status: AdStatus | null;
  try {
    status = await getAdStatus(context, params.token ?? '');
  } catch (error) {
    rethrowUnlessUpstream(error);
    if (error.status === 429) throw new Response('Too many requests', { status: 429 });
    consoleFor(context.reqId).error('[ads/status] api failed:', error.message);
    throw new Response('Bad gateway', { status: 502 });
  }
  if (!status) throw new Response('Not found', { status: 404 });
  const bankAccount = context.publicConfig?.bankAccount ?? null;
  return json({ status, typeLabel: AD_TYPE_LABELS[status.type], bankAccount });
}

export const headers: HeadersFunction = () => PRIVATE_HEADERS;

/** What the page says of a taken-down ad: when, and that its figures are those of that moment. */
const takenDownNote = (at: string) =>
  `이 광고는 ${formatKstDate(at)}에 게재를 멈췄습니다. 아래 게재 기간과 노출·클릭 수는 그때까지의 기록입니다. 궁금한 점은 문의하기로 알려주세요.`;

export default function AdStatusPage() {
  const { status, typeLabel, bankAccount } = useLoaderData<typeof loader>();
  const state: State = status.takenDownAt ? 'takenDown' : status.status;
  return (
    <div className="page ad-status">
      <h1 className="page__title">광고 신청 현황</h1>
      <p className="page__lead">이 페이지는 링크를 아는 사람만 볼 수 있습니다. 링크는 다른 사람과 나누지 마세요.</p>
      <dl className="ad-status__facts">
        <Fact term="광고 유형">{typeLabel}</Fact>
        <Fact term="광고 제목">{status.title}</Fact>
        <Fact term="신청일">{formatKstDate(status.appliedAt)}</Fact>
        <Fact term="광고 기간">{status.duration}개월</Fact>
        <Fact term="광고비">{formatWon(priceWon(status.duration))}</Fact>
        <Fact term="상태">
          <span className={`ad-status__state ad-status__state--${state}`}>{STATE_LABELS[state]}</span>
        </Fact>
        {status.status === 'rejected' && status.rejectReason && <Fact term="거절 사유">{status.rejectReason}</Fact>}
        {status.period && <Fact term="게재 기간">{formatKstPeriod(status.period.startsAt, status.period.endsAt)}</Fact>}
      </dl>
      <p className="ad-status__note">
        {status.takenDownAt ? takenDownNote(status.takenDownAt) : STATE_NOTES[status.status]}
        {(state === 'rejected' || state === 'takenDown') && (
          <>
            {' '}
            <Link to="/contact">문의하기</Link>
          </>
        )}
      </p>
      {status.status === 'pending' && (
        <p className="ad-status__note">
          {amountSentence(status.duration)} {AD_PAYMENT.payAfterApplying} {accountSentence(bankAccount)}{' '}
          {AD_PAYMENT.payerName} {AD_PAYMENT.unpaidDeadline}
        </p>
      )}
      {status.counts && <Counts counts={status.counts} />}
    </div>
  );
}

/** The last 30 KST days' counters: the sums in words, a chart per counter, and the days as a table. */
function Counts({ counts }: { counts: NonNullable<AdStatus['counts']> }) {
  return (
    <section className="ad-status__counts" aria-labelledby="ad-status-counts-title">
      <h2 id="ad-status-counts-title" className="section-title">
        최근 30일 노출과 클릭
      </h2>
      <p>
        노출 <strong>{formatCount(counts.impressions)}회</strong> · 클릭 <strong>{formatCount(counts.clicks)}회</strong>
        <span className="ad-status__basis"> (한국 시간 날짜 기준, 오늘 포함)</span>
      </p>
      <AdStatusChart days={counts.days} counter="impressions" label="노출" />
      <AdStatusChart days={counts.days} counter="clicks" label="클릭" />
      <AdStatusDays days={counts.days} />
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: `광고 신청 현황 — ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

/** One page for every token the api does not know; a phone that asked too often is told to wait. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorPanel title="신청 현황을 찾을 수 없습니다.">
        링크 주소가 정확한지 확인해주세요. 신청이 삭제되었거나 보관 기간이 지나 정리된 경우에도 이 페이지는 열리지
        않습니다.
      </ErrorPanel>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 429) {
    return (
      <ErrorPanel title="잠시 후 다시 열어주세요.">
        짧은 시간에 너무 자주 열어 잠시 조회가 제한되었습니다. 몇 분 뒤에 다시 열어주세요.
      </ErrorPanel>
    );
  }
  return <RouteError />;
}
