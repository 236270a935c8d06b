/**
 * The home screen's cards (docs/product.md §2.3 Home screen): up arrivals per route (docs/product.md §3.1 Bus arrival) and
 * down departure estimates per route (docs/product.md §3.2 Predicted departure). A screen reader reads each up
 * card as one sentence ("1150번, 3분 후 도착, 2정거장 전"); the red of a close arrival also says
 * 곧 도착 in words (docs/product.md §9; colour is never the only signal), and a route near its last departure
 * of the day carries the 막차 mark with that run's time on both tabs, so no rider misses it: due at campus on the
 * up tab, leaving campus on the down tab. On the home, a card with a time has a bell that sets a
 * reminder for that route's bus (`bell`: reminder-bell.tsx); the guide's sample cards have none.
 */
import type { DepartureRange, DownRoute, EstimateBasis, UpRoute } from '../../contract/bus';
import { arrivalTone } from '~/utils/arrival';
import { rangeText, shownRange, useSpokenRange } from '~/utils/departure-range';
import type { ReactNode } from 'react';
import { joined, KoreanText, useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import { formatKstTime } from '../../contract/kst';

/**
 * Up tab: one card per route, or docs/product.md's 'no bus currently available' text for an empty
 * list. `lost` while the refreshes fail (the page's notice says how old the data is): the minutes
 * are muted, never red, and said as what they were before the connection went.
 */
/** A card's bell for `routeNo` (the home's ReminderBell), shown on the cards that have a time. */
export type CardBell = (routeNo: string) => ReactNode;

export function ArrivalCards({
  routes,
  lost = false,
  bell,
}: {
  routes: readonly UpRoute[];
  lost?: boolean;
  bell?: CardBell;
}) {
  const t = useT(home);
  if (routes.length === 0) return <p className="empty">{t('up.noBus')}</p>;
  return (
    <ul className={lost ? 'cards cards--lost' : 'cards'}>
      {routes.map((route) => (
        <ArrivalCard key={route.routeNo} route={route} lost={lost} bell={bell} />
      ))}
    </ul>
  );
}

/**
 * Down tab: the day before's, the week before's and the estimated departure per route, in KST, with the
 * estimate's 80 % range when wider than 2 minutes ("22:41 (22:40~22:44)", said as a sentence) and
 * its basis.
 */
export function DepartureCards({ routes, bell }: { routes: readonly DownRoute[]; bell?: CardBell }) {
  const t = useT(home);
  if (routes.length === 0) return <p className="empty">{t('down.preparing')}</p>;
  return (
    <ul className="cards">
      {routes.map(({ routeNo, data, basis, range, lastRun }) => (
        <li key={routeNo} className="card">
          <div className="card__head">
            <RouteNo routeNo={routeNo} />
            {lastRun && <LastRunMark iso={lastRun} />}
          </div>
          <dl className="card__times">
            <DepartureTime label={t('down.dayBefore')} iso={data.dayBefore} />
            <DepartureTime label={t('down.weekBefore')} iso={data.weekBefore} />
            <DepartureTime
              label={t('down.estimate')}
              iso={data.estimate}
              range={range ?? null}
              note={data.estimate !== null && basis ? t(BASIS_NOTES[basis]) : ''}
            />
          </dl>
          {data.estimate !== null && bell?.(routeNo)}
        </li>
      ))}
    </ul>
  );
}

/** What an estimate rests on (contract EstimateBasis), shown under it. */
const BASIS_NOTES: Record<EstimateBasis, keyof typeof home> = {
  live: 'basis.live',
  history: 'basis.history',
  timetable: 'basis.timetable',
};

function ArrivalCard({ route, lost, bell }: { route: UpRoute; lost: boolean; bell?: CardBell }) {
  const t = useT(home);
  const shownTone = arrivalTone(route.time);
  const tone = lost && shownTone === 'soon' ? 'normal' : shownTone;
  const extras = [
    route.remainSeatCnt != null && {
      shown: t('up.seatsLeft', { seats: route.remainSeatCnt }),
      spoken: t('up.seatsLeft', { seats: route.remainSeatCnt }),
    },
    route.lowPlate === 1 && { shown: t('up.lowFloor'), spoken: t('up.lowFloorSpoken') },
    route.plateNo != null && {
      shown: <KoreanText>{route.plateNo}</KoreanText>,
      spoken: (
        <>
          {t('up.plateBefore')}
          <KoreanText>{route.plateNo}</KoreanText>
        </>
      ),
    },
  ].filter((extra) => extra !== false);
  const lastRun = route.lastRun ? formatKstTime(route.lastRun) : null;
  const details: ReactNode[] =
    tone === 'none'
      ? [t('up.noInfo')]
      : [
          ...(lost ? [t('up.lost')] : []),
          t('up.arrivesIn', { minutes: route.time }),
          t('up.stopsAway', { stops: route.location }),
          ...(tone === 'soon' ? [t('up.soon')] : []),
          ...extras.map((extra) => extra.spoken),
        ];
  if (lastRun) details.push(t('up.lastRunSpoken', { time: lastRun }));

  return (
    <li className="card">
      <span className="sr-only">{joined([t('up.route', { routeNo: route.routeNo }), ...details], ', ')}</span>
      <div className="card__body" aria-hidden="true">
        <span className="card__route">
          {route.routeNo}
          {lastRun && <span className="card__last-run">{t('lastRun.mark', { time: lastRun })}</span>}
        </span>
        {tone === 'none' ? (
          <span className="card__none">{t('up.noInfo')}</span>
        ) : (
          <>
            <span className="card__arrival">
              <span className={tone === 'soon' ? 'card__time card__time--soon' : 'card__time'}>
                {t('up.minutes', { minutes: route.time })}
              </span>
              <span className="card__stops">{t('up.stopsAway', { stops: route.location })}</span>
              {tone === 'soon' && <span className="card__soon">{t('up.soon')}</span>}
            </span>
            {extras.length > 0 && (
              <span className="card__extras">
                {joined(
                  extras.map((extra) => extra.shown),
                  ' · ',
                )}
              </span>
            )}
          </>
        )}
      </div>
      {tone !== 'none' && bell?.(route.routeNo)}
    </li>
  );
}

/** The down card's 막차 mark, for a route whose last departure from campus (KST ISO) is near: the day's last chance. */
function LastRunMark({ iso }: { iso: string }) {
  const t = useT(home);
  return (
    <span className="card__last-run">
      {t('lastRun.mark', { time: formatKstTime(iso) })}
      <span className="sr-only">{t('lastRun.leaves')}</span>
    </span>
  );
}

function RouteNo({ routeNo }: { routeNo: string }) {
  const t = useT(home);
  return (
    <span className="card__route">
      {routeNo}
      <span className="sr-only">{t('down.routeSuffix')}</span>
    </span>
  );
}

/**
 * `range` (given for the estimate only) and `note` (the estimate's basis) each take a reserved
 * line, so a range that comes or goes, or a change of basis, never moves the card: a range shown
 * follows the time, "22:41 (22:40~22:44)" on two lines, aria-hidden with a sentence saying both;
 * none shown leaves its line empty under the basis.
 */
function DepartureTime({
  label,
  iso,
  range,
  note,
}: {
  label: string;
  iso: string | null;
  range?: DepartureRange | null;
  note?: string;
}) {
  const t = useT(home);
  const { estimateSentence } = useSpokenRange();
  const shown = iso === null ? null : shownRange(range);
  return (
    <div className="card__time-item">
      <dt>{label}</dt>
      <dd>
        {iso === null ? (
          <>
            <span aria-hidden="true">–</span>
            <span className="sr-only">{t('down.noInfo')}</span>
          </>
        ) : shown ? (
          <>
            <span className="card__estimate" aria-hidden="true">
              {formatKstTime(iso)}
              <span className="card__range"> {rangeText(shown)}</span>
            </span>
            <span className="sr-only">{estimateSentence(iso, shown)}</span>
          </>
        ) : (
          formatKstTime(iso)
        )}
        {note !== undefined && <span className="card__basis">{note}</span>}
        {/* No range shown: its line stays, under the basis, so the basis sits right under the time. */}
        {range !== undefined && !shown && <span className="card__range" />}
      </dd>
    </div>
  );
}
