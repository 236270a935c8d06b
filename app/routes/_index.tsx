/**
 * Home (/): bus information (docs/product.md §2.3 Home screen, §4.1 Home). Server-rendered with the bus data, so
 * it works without JavaScript; with it, the 상행/하행 tabs switch without a loader call and the data
 * refreshes every 4 seconds through /bus/time-left. Without it, a `<noscript>` meta refresh
 * reloads the page every 4 seconds, and `?refresh=off` turns that off (WCAG 2.2.1). The
 * down tab's expected departure times modal lives in the URL (`?dir=down&times=…[&sort=time]`):
 * without JavaScript this loader loads its times; with it, the dialog loads them through
 * /bus/predicted and the loader is not re-run. While the admins' service notice is on, its
 * blocking modal covers the page (which is inert behind it) and nothing reloads it. Nor does the
 * meta refresh run under the no-JS expected-times modal (it would reset it every 4 seconds). The
 * down tab states the predictions' accuracy of the last 2 weeks, from the api's daily figure.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import {
  Link,
  useLoaderData,
  useSearchParams,
  type MetaFunction,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { AdBanner } from '~/components/ad-banner';
import { AdSlots } from '~/components/ad-slots';
import { ArrivalCards, DepartureCards } from '~/components/arrival-cards';
import { DepartureTimesDialog } from '~/components/departure-times-dialog';
import { DirectionTabs, tabId } from '~/components/direction-tabs';
import { FeedNotices } from '~/components/feed-notices';
import { InstallHint } from '~/components/install-hint';
import { ProgressLine } from '~/components/progress-line';
import { ReminderBell } from '~/components/reminder-bell';
import { RefreshCountdown } from '~/components/refresh-countdown';
import { RouteError } from '~/components/route-error';
import { ServiceNoticeModal } from '~/components/service-notice-modal';
import { getWebAds } from '~/models/ads.server';
import { getPredictionAccuracy } from '~/models/bus.server';
import { getActiveNotice } from '~/models/notice.server';
import { noscriptRefreshOn, REFRESH_INTERVAL_SEC } from '~/utils/countdown';
import { HOME_VIEW_PARAMS } from '~/utils/home-view';
import { apiNow, timesModalFromSearch, type TimesAnswer } from '~/utils/departure-times';
import { loadTimes } from '~/models/departure-times.server';
import { useLiveTimeLeft } from '~/hooks/use-live-time-left';
import { accuracySentence } from '~/utils/prediction-accuracy';
import { englishCatalog, metaT, useT, type MessageKey } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import common from '~/i18n/compiled/ko/common.js';
import { localeOfRequest } from '~/i18n/locale.server';
import type { AdBanner as AdBannerData } from '../../contract/ads';
import type { Direction } from '../../contract/transit';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { groupRoutes } from '../../contract/time-left-groups';
import { consoleFor } from '../../lib/observability/request-tag';

const PANEL_ID = 'bus-panel';

/** The cards' reminder bells (docs/decisions/033-web-push-reminders.md), one per route with a time. */
const upBell = (routeNo: string) => <ReminderBell routeNo={routeNo} direction="up" />;
const downBell = (routeNo: string) => <ReminderBell routeNo={routeNo} direction="down" />;

/** docs/product.md §2.3 Home screen shortcut list; the inquiry screen is the real /contact. */
const SHORTCUTS = [
  { to: '/howtouse', label: 'nav.howtouse' },
  { to: '/ads/apply', label: 'nav.apply' },
  { to: '/faq', label: 'nav.faq' },
  { to: '/privacypolicy', label: 'nav.privacy' },
  { to: '/contact', label: 'nav.contact' },
] as const satisfies readonly { to: string; label: MessageKey }[];

/**
 * `timeLeft` is null when the api failed: docs/product.md §7 only logs a bus fetch failure, so the page still
 * renders. `departureTimes` is the modal's answer when the URL has it open, else null. `notice` is
 * the service notice while it is on, else null (also when it could not be read: logged, and the
 * bus information is shown rather than hidden behind a notice nobody set). `accuracy` is the down
 * tab's sentence in the request's language, null without a figure (none yet, or the api failed: logged).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const modal = timesModalFromSearch(new URL(request.url).searchParams);
  const [timeLeft, departureTimes, banners, notice, accuracy] = await Promise.all([
    // The refresh route's answer of this second (its failure is logged there): null when the api failed.
    Promise.resolve(context.timeLeft.current()).then(({ data }) => data),
    modal ? loadTimes(context, modal.route).then(({ answer }): TimesAnswer => answer) : null,
    // docs/product.md §7: a banner list failure is only logged; the default banner shows.
    getWebAds(context).catch((error: unknown) => {
      rethrowUnlessUpstream(error);
      consoleFor(context.reqId).error('[home] banner list unavailable:', error.message);
      return [] as AdBannerData[];
    }),
    getActiveNotice(context).catch((error: unknown) => {
      rethrowUnlessUpstream(error);
      consoleFor(context.reqId).error('[home] service notice unavailable:', error.message);
      return null;
    }),
    getPredictionAccuracy(context).then(
      async (figure) =>
        accuracySentence(
          figure,
          (localeOfRequest(request) === 'en' ? await englishCatalog() : common)['accuracy.sentence'],
        ),
      (error: unknown) => {
        rethrowUnlessUpstream(error);
        consoleFor(context.reqId).error('[home] prediction accuracy unavailable:', error.message);
        return null;
      },
    ),
  ]);
  const adSlots = context.publicConfig?.adSlots ?? { adfitUnit: null, adsense: null };
  // Nothing personal: a browser may keep it, but asks again every time (ETag, 304: ADR 023).
  return json(
    { timeLeft, departureTimes, banners, adSlots, notice, accuracy },
    { headers: { 'Cache-Control': 'no-cache' } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * Switching tabs and opening, filtering or closing the departure times modal change only view
 * parameters: the bus data is the same and the dialog loads its own, so the loader is not called.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => (!formMethod && withoutViewParams(currentUrl) === withoutViewParams(nextUrl) ? false : defaultShouldRevalidate);

export default function Home() {
  const t = useT(home);
  const { timeLeft: initial, departureTimes, banners, adSlots, notice, accuracy } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const autoRefresh = noscriptRefreshOn(searchParams);
  const direction: Direction = searchParams.get('dir') === 'down' ? 'down' : 'up';
  const timesModal = timesModalFromSearch(searchParams);
  const { timeLeft, secondsLeft, lostAgeSec } = useLiveTimeLeft(initial, !notice);
  // A live feed not set up yet knows of no bus: its notice says so, and the line and the up cards
  // claim nothing (docs/product.md §2.3).
  const knowsBuses = timeLeft !== null && !timeLeft.feed?.idsUnknown;
  // Refreshes failing: the notice says how old the data is, the line (where the buses were) claims
  // nothing, and the up cards' minutes stop looking current.
  const lost = lostAgeSec !== null;

  return (
    <>
      {/* NOTE: React 18 does not know `inert`; the empty string is the attribute's "on". */}
      <div className="home" {...(notice ? { inert: '' } : {})}>
        {!notice && autoRefresh && !timesModal && (
          <noscript>
            <meta httpEquiv="refresh" content={String(REFRESH_INTERVAL_SEC)} />
          </noscript>
        )}
        <h1 className="sr-only">{t('home.title')}</h1>
        <div className="home__bar">
          <DirectionTabs selected={direction} panelId={PANEL_ID} />
          <RefreshCountdown secondsLeft={secondsLeft} />
        </div>
        <FeedNotices failed={timeLeft === null} lostAgeSec={lostAgeSec} feed={timeLeft?.feed} />
        <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(direction)}>
          <ProgressLine
            direction={direction}
            vehicles={knowsBuses && !lost ? (timeLeft.vehicles ?? null) : null}
            vehiclesAgeSec={timeLeft?.feed?.vehiclesAgeSec}
          />
          <section className="home__cards" aria-labelledby="cards-title">
            <h2 id="cards-title" className="section-title">
              {direction === 'up' ? t('home.upTitle') : t('home.downTitle')}
            </h2>
            {direction === 'up'
              ? knowsBuses && <ArrivalCards routes={groupRoutes(timeLeft, 'up')} lost={lost} bell={upBell} />
              : timeLeft && <DepartureCards routes={groupRoutes(timeLeft, 'down')} bell={downBell} />}
            {direction === 'down' && (
              <DepartureTimesDialog
                modal={timesModal}
                initial={departureTimes}
                now={apiNow(timeLeft?.feed, Date.now())}
              />
            )}
            {direction === 'down' && accuracy && (
              <p className="home__accuracy">
                {accuracy} <Link to="/faq#accuracy">{t('home.accuracyLink')}</Link>
              </p>
            )}
          </section>
        </div>
        <AdBanner ads={banners} />
        <AdSlots slots={adSlots} />
        <nav className="shortcuts" aria-labelledby="shortcuts-title">
          <h2 id="shortcuts-title" className="section-title">
            {t('home.shortcuts')}
          </h2>
          <ul className="shortcuts__list">
            {SHORTCUTS.map(({ to, label }) => (
              <li key={to}>
                <Link to={to} className="shortcuts__link">
                  {t(label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {/* Last: it appears after mount, and nothing comes after it to be moved. */}
        <InstallHint />
      </div>
      {notice && <ServiceNoticeModal notice={notice} />}
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, home);
  return [
    { title: t('home.pageTitle', { name: metaT(matches, common)('site.name') }) },
    { name: 'description', content: t('home.description') },
  ];
};

export function ErrorBoundary() {
  return <RouteError />;
}

/** The URL without its view parameters, to tell a tab or modal change from any other navigation. */
function withoutViewParams(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const name of HOME_VIEW_PARAMS) params.delete(name);
  params.sort();
  return `${url.pathname}?${params}`;
}
