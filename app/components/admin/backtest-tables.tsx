/**
 * The prediction backtest on the admin feed page (docs/product.md §2.2 Admin routes): one table per
 * scope (all routes, then each route) comparing the methods, with the 80 % ranges' coverage and
 * mean width for the methods that state ranges ("–" for the others), and the departure slots
 * learnt. Each table has a caption and row and column headers, so a screen reader names every cell;
 * on a narrow screen each row stacks into a block (StackedTable).
 */
import type { ReactNode } from 'react';
import { BACKTEST_METHODS, type BacktestReport } from '../../../contract/admin';
import { StackedTable } from './stacked-table';
import { DAY_TYPE_NAMES } from '../../../contract/transit';

const METHOD_LABELS: Record<(typeof BACKTEST_METHODS)[number], string> = {
  estimate: '예측(실시간 반영)',
  history: '과거 기록만',
  dayBefore: '어제',
  weekBefore: '지난주',
  timetable: '시간표',
};

type Scores = BacktestReport['overall'];
/** One method's scores; absent from an older api's report. */
type MethodScore = Scores['methods'][(typeof BACKTEST_METHODS)[number]] | undefined;

export function BacktestTables({ report }: { report: BacktestReport }) {
  if (report.days.length === 0) return <p>백테스트할 기록이 아직 없습니다.</p>;
  const tables = [
    { id: 'overall', caption: '전체', scores: report.overall },
    ...report.routes.map((route) => ({ id: route.routeNo, caption: `${route.routeNo}번`, scores: route })),
  ];
  return (
    <>
      <p className="field__hint">
        기간 {report.days[0]} ~ {report.days[report.days.length - 1]} ({report.days.length}일). 평균 오차는 예측한 출발
        시각과 실제 출발의 차이로 작을수록, ETA 점수는 남은 시간이 길수록 넓어지는 허용 오차 안에 든 조회의 비율로
        클수록 좋습니다. 범위 적중률은 안내한 80% 범위 안에 실제 출발이 든 조회의 비율로 80%에 가까울수록, 평균 범위
        폭은 그 범위의 평균 길이로 적중률이 같다면 좁을수록 좋습니다. 범위를 내지 않는 방법은 ‘–’로 표시합니다.
      </p>
      {tables.map(({ id, caption, scores }) => (
        <MethodTable key={id} caption={caption} scores={scores} />
      ))}
      {report.slots.length > 0 && <SlotTable slots={report.slots} />}
    </>
  );
}

/** The methods' table's columns after the method: each one's heading and a score's figure. */
const METHOD_COLUMNS: { label: string; figure: (score: MethodScore) => ReactNode }[] = [
  { label: '평균 오차', figure: (score) => (score?.maeSec == null ? '없음' : formatSeconds(score.maeSec)) },
  { label: 'ETA 점수', figure: (score) => (score?.etaScore == null ? '없음' : `${score.etaScore.toFixed(1)}%`) },
  { label: '답한 조회', figure: (score) => (score ? `${score.answered} / ${score.queries}` : '없음') },
  {
    label: '범위 적중률',
    figure: (score) => (score?.coverage == null ? <NoRange /> : `${score.coverage.toFixed(1)}%`),
  },
  {
    label: '평균 범위 폭',
    figure: (score) => (score?.meanRangeSec == null ? <NoRange /> : formatSeconds(score.meanRangeSec)),
  },
];

/** The methods' scores over one scope's departures. */
function MethodTable({ caption, scores }: { caption: string; scores: Scores }) {
  return (
    <StackedTable
      caption={`${caption} (출발 ${scores.departures}회)`}
      columns={['방법', ...METHOD_COLUMNS.map((column) => column.label)]}
      rows={BACKTEST_METHODS.map((method) => ({
        key: method,
        cells: [METHOD_LABELS[method], ...METHOD_COLUMNS.map((column) => column.figure(scores.methods[method]))],
      }))}
    />
  );
}

/** A range figure of a method that states no range: a dash, said as "범위 없음". */
function NoRange() {
  return (
    <>
      <span aria-hidden="true">–</span>
      <span className="sr-only">범위 없음</span>
    </>
  );
}

/** The departure slots learnt per route and day type, as of the last day of that type. */
function SlotTable({ slots }: { slots: BacktestReport['slots'] }) {
  return (
    <StackedTable
      caption="학습한 출발 시간표 (노선·요일 유형별 마지막 날 기준)"
      columns={['노선', '요일 유형', '출발 시각 수', '흩어짐(중앙값)']}
      rows={slots.map((slot) => ({
        key: `${slot.routeNo}-${slot.dayType}`,
        cells: [`${slot.routeNo}번`, DAY_TYPE_NAMES[slot.dayType], slot.count, formatSeconds(slot.spreadSec)],
      }))}
    />
  );
}

/** Seconds (a mean error) as "3분 12초", or "45초" under a minute. */
function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes}분 ${whole % 60}초` : `${whole}초`;
}
