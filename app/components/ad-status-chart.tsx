/**
 * An ad's daily counters on its status page (app/routes/ads.status.$token.tsx): a bar chart per
 * counter, server-rendered SVG of a fixed size (no chart library, no layout shift), and a table of
 * the same days. The days are KST dates "yyyy-MM-dd", oldest first (GET /api/ads/status/{token}).
 */
import type { AdDayCount } from '../../contract/ads';
import { formatCount, formatKoreanMonthDay } from '../../contract/korean-format';

/** The chart's drawing box in SVG units; the page scales it to its width, keeping the ratio. */
const WIDTH = 300;
const HEIGHT = 120;
/** Room above the bars for the top value, and below them for the first and last dates. */
const TOP = 16;
const BOTTOM = 18;

type Counter = 'impressions' | 'clicks';

/** "yyyy-MM-dd" → "11/23". */
const shortDay = (day: string) => `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}`;

/**
 * The bars of one counter over `days`, scaled to the busiest day; an SVG with role img whose text
 * alternative gives the span, the sum and the busiest day.
 * @param label the counter's name in the page's words ("노출", "클릭").
 */
export function AdStatusChart({ days, counter, label }: { days: AdDayCount[]; counter: Counter; label: string }) {
  const values = days.map((day) => day[counter]);
  const max = Math.max(0, ...values);
  const busiest = days[values.indexOf(max)];
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const total = values.reduce((sum, value) => sum + value, 0);
  const summary =
    `${formatKoreanMonthDay(first)}부터 ${formatKoreanMonthDay(last)}까지 날짜별 ${label} 수 막대그래프. 합계 ${formatCount(total)}회` +
    (max > 0 ? `, 가장 많은 날은 ${formatKoreanMonthDay(busiest.day)} ${formatCount(max)}회.` : ', 모든 날 0회.');
  const slot = WIDTH / Math.max(1, days.length);
  const plot = HEIGHT - TOP - BOTTOM;
  return (
    <figure className="ad-status-chart">
      <figcaption className="ad-status-chart__caption">날짜별 {label}</figcaption>
      <svg
        className="ad-status-chart__svg"
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
      >
        <text x={0} y={11} className="ad-status-chart__value">
          {max > 0 ? `최고 ${formatCount(max)}` : '0'}
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
  return (
    <details className="ad-status-days">
      <summary>날짜별 숫자 보기</summary>
      <table>
        <caption className="sr-only">날짜별 노출과 클릭 (한국 시간 기준)</caption>
        <thead>
          <tr>
            <th scope="col">날짜</th>
            <th scope="col">노출</th>
            <th scope="col">클릭</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatKoreanMonthDay(day.day)}</th>
              <td>{formatCount(day.impressions)}</td>
              <td>{formatCount(day.clicks)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
