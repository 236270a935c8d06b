/**
 * An ad's daily counters on its status page (app/routes/ads.status.$token.tsx): a bar chart per
 * counter, server-rendered SVG of a fixed size (no chart library, no layout shift), and a table of
 * the same days. The days are KST dates "yyyy-MM-dd", oldest first (GET /api/ads/status/{token}).
 * In the page's language (ADR 032): days as "11월 23일" or "Nov 23".
 */
import type { AdDayCount } from '../../contract/ads';
import { formatCount, formatEnglishMonthDay, formatKoreanMonthDay } from '../../contract/korean-format';
import { useLocale, useT } from '~/i18n/i18n';
import ads from '~/i18n/compiled/ko/ads.js';

/** The chart's drawing box in SVG units; the page scales it to its width, keeping the ratio. */
const WIDTH = 300;
const HEIGHT = 120;
/** Room above the bars for the top value, and below them for the first and last dates. */
const TOP = 16;
const BOTTOM = 18;

type Counter = 'impressions' | 'clicks';

/** "yyyy-MM-dd" → "11/23". */
const shortDay = (day: string) => `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}`;

/** The month and day of "yyyy-MM-dd" as the page's language writes them: "11월 23일", "Nov 23". */
function useMonthDay(): (day: string) => string {
  return useLocale() === 'en' ? formatEnglishMonthDay : formatKoreanMonthDay;
}

/**
 * The bars of one counter over `days`, scaled to the busiest day; an SVG with role img whose text
 * alternative gives the span, the sum and the busiest day.
 * @param label the counter's name in the page's words ("노출", "클릭").
 */
export function AdStatusChart({ days, counter, label }: { days: AdDayCount[]; counter: Counter; label: string }) {
  const t = useT(ads);
  const monthDay = useMonthDay();
  const values = days.map((day) => day[counter]);
  const max = Math.max(0, ...values);
  const busiest = days[values.indexOf(max)];
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const total = values.reduce((sum, value) => sum + value, 0);
  const summary =
    t('chart.summary', { from: monthDay(first), to: monthDay(last), label, total: formatCount(total) }) +
    (max > 0 ? t('chart.busiest', { day: monthDay(busiest.day), max: formatCount(max) }) : t('chart.allZero'));
  const slot = WIDTH / Math.max(1, days.length);
  const plot = HEIGHT - TOP - BOTTOM;
  return (
    <figure className="ad-status-chart">
      <figcaption className="ad-status-chart__caption">{t('chart.caption', { label })}</figcaption>
      <svg
        className="ad-status-chart__svg"
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
      >
        <text x={0} y={11} className="ad-status-chart__value">
          {max > 0 ? t('chart.max', { max: formatCount(max) }) : '0'}
        </text>
        <line x1={0} x2={WIDTH} y1={TOP + plot} y2={TOP + plot} className="ad-status-chart__axis" />
        {values.map((value, index) => {
          const height = max > 0 ? (value / max) * plot : 0;
          return (
            <rect
              key={days[index].day}
              x={index * slot + slot * 0.15}
              y={TOP + plot - height}
              width={slot * 0.7}
              height={height}
              className={`ad-status-chart__bar ad-status-chart__bar--${counter}`}
            />
          );
        })}
        <text x={0} y={HEIGHT - 4} className="ad-status-chart__day">
          {shortDay(first)}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="ad-status-chart__day">
          {shortDay(last)}
        </text>
      </svg>
    </figure>
  );
}

/** Every day's counters as a table, inside a closed <details> (the charts' figures, to read or copy). */
export function AdStatusDays({ days }: { days: AdDayCount[] }) {
  const t = useT(ads);
  const monthDay = useMonthDay();
  return (
    <details className="ad-status-days">
      <summary>{t('chart.table')}</summary>
      <table>
        <caption className="sr-only">{t('chart.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('chart.day')}</th>
            <th scope="col">{t('status.impressions')}</th>
            <th scope="col">{t('status.clicks')}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{monthDay(day.day)}</th>
              <td>{formatCount(day.impressions)}</td>
              <td>{formatCount(day.clicks)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
