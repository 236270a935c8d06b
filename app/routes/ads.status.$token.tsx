/**
 * /ads/status/{token}: an applicant's private status page of their ad application (docs/product.md
 * §11), reached by the link the form shows once (and the receipt e-mail carries, when the site sends
 * e-mail). It shows the ad type, title and applied date, the months and the price, the review's state (with the reason of a
 * rejection), the paid period, and once the ad runs its impressions and clicks per KST day over
 * the last 30 days (app/components/ad-status-chart.tsx). Dates are KST. The token is the only key:
 * the page is kept out of search engines, caches and Referer headers. An unknown, revoked or
 * malformed token (or one whose application was deleted) gets one 404 page. Works without JavaScript.
 * In the page's language (docs/product.md §1 Languages; English dates "Nov 28, 2026"); the title is
 * the advertiser's, marked with the language they wrote it in.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData, useRouteError, type MetaFunction } from '@remix-run/react';
import type { AdStatus } from '../../contract/ads';
import { AdStatusChart, AdStatusDays } from '~/components/ad-status-chart';
import { Fact } from '~/components/fact';
import { ErrorPanel, RouteError } from '~/components/route-error';
import { metaT, useLocale, useT } from '~/i18n/i18n';
import ads from '~/i18n/compiled/ko/ads.js';
import common from '~/i18n/compiled/ko/common.js';
import { getAdStatus } from '~/models/ads.server';
import { AD_TYPE_NAME_KEYS } from '~/utils/ad-application';
import { formatKstDate, kstPeriodDays } from '../../contract/kst';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatCount, formatEnglishDate } from '../../contract/korean-format';
import { AD_PRICE_PER_MONTH_WON, priceWon } from '../../contract/prices';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import type { Locale } from '../../contract/locales';
import { consoleFor } from '../../lib/observability/request-tag';
import { richText } from '~/i18n/rich-text';
import { bankAccountTags } from '~/components/ad-price-notice';

/** Every answer of the page, its errors included: private, never stored, indexed or leaked in a Referer. */
const PRIVATE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
};

/** The application's state as the page tells it: the review's, or its ad taken down by an admin. */
type State = AdStatus['status'] | 'takenDown';

/** Each state's name and what the page says of it, by their keys in the ads catalog. */
const STATE_KEYS = {
  pending: 'status.pending',
  approved: 'status.approved',
  rejected: 'status.rejected',
  takenDown: 'status.takenDown',
} as const;
const NOTE_KEYS = {
  pending: 'status.notePending',
  approved: 'status.noteApproved',
  rejected: 'status.noteRejected',
} as const;

/** A calendar day "yyyy-MM-dd" as the page's language shows it: as it is in Korean, "Nov 28, 2026" in English. */
const dayIn = (locale: Locale, day: string) => (locale === 'en' ? formatEnglishDate(day) : day);

/**
 * The application's status from the api, and the bank account to pay into (AD_BANK_*;
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
  return json({ status, bankAccount });
}

export const headers: HeadersFunction = () => PRIVATE_HEADERS;

/** The page (docs/product.md §11): the application's facts, its state's note, what to pay while pending, its counters. */
export default function AdStatusPage() {
  const t = useT(ads);
  const locale = useLocale();
  const { status, bankAccount } = useLoaderData<typeof loader>();
  const state: State = status.takenDownAt ? 'takenDown' : status.status;
  const won = (amount: number) => t('price.won', { amount: formatCount(amount) });
  const date = (instant: string) => dayIn(locale, formatKstDate(instant));
  const period = status.period && kstPeriodDays(status.period.startsAt, status.period.endsAt);
  const price = {
    monthly: won(AD_PRICE_PER_MONTH_WON),
    months: status.duration,
    total: won(priceWon(status.duration)),
  };
  return (
    <div className="page ad-status">
      <h1 className="page__title">{t('status.title')}</h1>
      <p className="page__lead">{t('status.lead')}</p>
      <dl className="ad-status__facts">
        <Fact term={t('status.type')}>{t(AD_TYPE_NAME_KEYS[status.type])}</Fact>
        <Fact term={t('status.adTitle')}>
          <span lang={status.lang ?? 'ko'}>{status.title}</span>
        </Fact>
        <Fact term={t('status.appliedAt')}>{date(status.appliedAt)}</Fact>
        <Fact term={t('status.duration')}>{t('price.months', { months: status.duration })}</Fact>
        <Fact term={t('status.price')}>{won(priceWon(status.duration))}</Fact>
        <Fact term={t('status.state')}>
          <span className={`ad-status__state ad-status__state--${state}`}>{t(STATE_KEYS[state])}</span>
        </Fact>
        {status.status === 'rejected' && status.rejectReason && (
          <Fact term={t('status.reason')}>{status.rejectReason}</Fact>
        )}
        {period && (
          <Fact term={t('status.period')}>
            {t('status.periodRange', { from: dayIn(locale, period[0]), to: dayIn(locale, period[1]) })}
          </Fact>
        )}
      </dl>
      <p className="ad-status__note">
        {status.takenDownAt
          ? t('status.noteTakenDown', { date: date(status.takenDownAt) })
          : status.status === 'pending'
            ? `${t('pay.approvalAfterDeposit')} ${t(NOTE_KEYS.pending)}`
            : t(NOTE_KEYS[status.status])}
        {(state === 'rejected' || state === 'takenDown') && (
          <>
            {' '}
            <Link to="/contact">{t('status.contact')}</Link>
          </>
        )}
      </p>
      {status.status === 'pending' && (
        <p className="ad-status__note">
          {t('pay.amount', price)} {t('pay.afterApplying')}{' '}
          {bankAccount
            ? richText(t('pay.accountSentence', bankAccount), bankAccountTags(bankAccount))
            : t('pay.accountByEmail')}{' '}
          {t('pay.payerName')} {t('pay.unpaidDeadline', { days: UNPAID_APPLICATION_DAYS })}
        </p>
      )}
      {status.counts && <Counts counts={status.counts} />}
    </div>
  );
}

/** The last 30 KST days' counters: the sums in words, a chart per counter, and the days as a table. */
function Counts({ counts }: { counts: NonNullable<AdStatus['counts']> }) {
  const t = useT(ads);
  const times = (count: number) => t('status.times', { count: formatCount(count) });
  return (
    <section className="ad-status__counts" aria-labelledby="ad-status-counts-title">
      <h2 id="ad-status-counts-title" className="section-title">
        {t('status.countsTitle')}
      </h2>
      <p>
        {t('status.impressions')} <strong>{times(counts.impressions)}</strong> · {t('status.clicks')}{' '}
        <strong>{times(counts.clicks)}</strong>
        <span className="ad-status__basis">{t('status.basis')}</span>
      </p>
      <AdStatusChart days={counts.days} counter="impressions" label={t('status.impressions')} />
      <AdStatusChart days={counts.days} counter="clicks" label={t('status.clicks')} />
      <AdStatusDays days={counts.days} />
    </section>
  );
}

/** The page's title in its language (the root's `locale` among `matches`; Korean without them); kept out of search engines. */
export const meta: MetaFunction = ({ matches = [] }) => [
  { title: metaT(matches, ads)('status.pageTitle', { name: metaT(matches, common)('site.name') }) },
  { name: 'robots', content: 'noindex' },
];

/** One page for every token the api does not know; a phone that asked too often is told to wait. */
export function ErrorBoundary() {
  const t = useT(ads);
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPanel title={t('status.notFoundTitle')}>{t('status.notFound')}</ErrorPanel>;
  }
  if (isRouteErrorResponse(error) && error.status === 429) {
    return <ErrorPanel title={t('status.tooManyTitle')}>{t('status.tooMany')}</ErrorPanel>;
  }
  return <RouteError />;
}
