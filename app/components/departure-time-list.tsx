/**
 * The body of the expected departure times modal (docs/product.md §2, §3.3 Predicted times): the times of one
 * route, of every route grouped by route, or of every route in one chronological list with the
 * route beside each time. The next upcoming time of each list is highlighted, visibly and for
 * screen readers ("다음 출발", aria-current). Times are HH:mm in KST. A time whose 80 % range is
 * wider than 2 minutes is followed by it, small ("(22:40~22:44)"; screen readers hear "대개 22시
 * 40분에서 22시 44분 사이"). Routes whose times rest on the timetable alone (too little history to
 * learn from, so less sure) say so.
 */
import type { DepartureRange } from '../../contract/bus';
import { rangeText, shownRange, useSpokenRange } from '~/utils/departure-range';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import { mergeByTime, nextTimeIndex, type RouteTimes } from '~/utils/departure-times';
import { formatKstTime } from '../../contract/kst';

/**
 * Id of the next departure of all the times shown (the first not yet past of the chronological
 * list; in the groups, that same time in its route's group), so that the dialog opens scrolled to
 * it, by a URL fragment without JavaScript. Each group still marks its own next time.
 */
export const NEXT_TIME_ID = 'times-next';

/**
 * `sorted` merges the routes into one chronological list; otherwise each route is a group with its
 * own next time. `now` is epoch ms (the api's clock, see apiNow).
 */
export function DepartureTimeList({
  routes,
  sorted,
  now,
}: {
  routes: readonly RouteTimes[];
  sorted: boolean;
  now: number;
}) {
  const t = useT(home);
  if (routes.every(({ times }) => times.length === 0)) return <p className="times-empty">{t('times.empty')}</p>;

  const entries = mergeByTime(routes);
  const next = nextTimeIndex(
    entries.map((entry) => entry.time),
    now,
  );
  if (sorted) {
    const timetableOnly = routes
      .filter((route) => route.timetableOnly)
      .map(({ routeNo }) => t('times.route', { routeNo }));
    return (
      <>
        {timetableOnly.length > 0 && (
          // Said of times that rest on the timetable alone.
          <p className="times-basis">{t('times.timetableOnlyRoutes', { routes: timetableOnly.join(', ') })}</p>
        )}
        <ol className="times-rows" aria-label={t('times.byTime')}>
          {entries.map(({ routeNo, time, range }, index) => (
            <li
              key={`${routeNo}-${time}`}
              id={index === next ? NEXT_TIME_ID : undefined}
              className={index === next ? 'times-row times-row--next' : 'times-row'}
              aria-current={index === next ? 'time' : undefined}
            >
              <span className="times-row__when">
                <time dateTime={time} className="times-row__time">
                  {formatKstTime(time)}
                </time>
                <TimeRange range={range} />
              </span>
              <span className="times-row__route">{t('times.route', { routeNo })}</span>
              {index === next && <span className="times-row__next">{t('times.next')}</span>}
            </li>
          ))}
        </ol>
      </>
    );
  }

  return (
    <div className="times-groups">
      {routes.map(({ routeNo, times, ranges, timetableOnly }) => {
        const routeNext = nextTimeIndex(times, now);
        // The route of the next departure of all: its next time is that one.
        const holdsNext = entries[next]?.routeNo === routeNo;
        const headingId = `times-route-${routeNo}`;
        return (
          <section key={routeNo} className="times-group" aria-labelledby={headingId}>
            <h3 id={headingId} className="times-group__title">
              {t('times.group', { routeNo })}
            </h3>
            {timetableOnly && <p className="times-basis">{t('times.timetableOnly')}</p>}
            {times.length === 0 ? (
              <p className="times-empty times-empty--group">{t('times.empty')}</p>
            ) : (
              <ol className="times-chips" aria-labelledby={headingId}>
                {times.map((time, index) => (
                  <li
                    key={time}
                    id={holdsNext && index === routeNext ? NEXT_TIME_ID : undefined}
                    className={index === routeNext ? 'times-chip times-chip--next' : 'times-chip'}
                    aria-current={index === routeNext ? 'time' : undefined}
                  >
                    <time dateTime={time}>{formatKstTime(time)}</time>
                    <TimeRange range={ranges[index]} />
                    {index === routeNext && <span className="times-chip__next">{t('times.next')}</span>}
                  </li>
                ))}
              </ol>
            )}
          </section>
        );
      })}
    </div>
  );
}

/**
 * A time's range when wider than 2 minutes: "(22:40~22:44)" for the eyes, "대개 22시 40분에서
 * 22시 44분 사이" for screen readers (after the time: "08:05, 대개 …"); nothing otherwise.
 */
function TimeRange({ range }: { range: DepartureRange | null | undefined }) {
  const t = useT(home);
  const { rangeSpoken } = useSpokenRange();
  const shown = shownRange(range);
  if (!shown) return null;
  return (
    <>
      <span className="times-range" aria-hidden="true">
        {rangeText(shown)}
      </span>
      <span className="sr-only">{t('times.rangeSpoken', { range: rangeSpoken(shown) })}</span>
    </>
  );
}
